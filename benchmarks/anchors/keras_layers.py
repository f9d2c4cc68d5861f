"""Keras 3's RandAugment layer (`keras.layers.RandAugment`) after tf.image's Inception crop, in a
tf.data map as Keras documents for preprocessing layers. Slow: `--skip keras` leaves it out."""
from __future__ import annotations

from typing import Dict

import keras
import tensorflow as tf

from tfgpuaug.bench.pipelines import AUTOTUNE, Inputs, Maker, tf_random_crop_uint8


def makers(inp: Inputs) -> Dict[str, Dict[str, Maker]]:
    def keras_layer(seed):
        layer = keras.layers.RandAugment(value_range=(0, 255), num_ops=2, factor=9 / 30)
        ds = inp.per_image(lambda x: tf.cast(tf.round(tf_random_crop_uint8(x, inp.size)), tf.uint8))
        ds = ds.map(lambda x: (tf.cast(layer(x, training=True), tf.float32) - inp.mean) / inp.std,
                    num_parallel_calls=AUTOTUNE)
        return ds.prefetch(AUTOTUNE)
    return {"randaugment": {"keras.layers.RandAugment": keras_layer}}
