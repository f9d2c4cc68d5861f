"""TF Model Garden's RandAugment (`official.vision.ops.augment`) on tf.image's Inception crop,
per image in a parallel map, as its classification input pipeline does. Needs
`pip install tf-models-official`."""
from __future__ import annotations

from typing import Dict

import tensorflow as tf
from official.vision.ops import augment as model_garden

from tfgpuaug.bench.pipelines import Inputs, Maker, tf_random_crop_uint8


def makers(inp: Inputs) -> Dict[str, Dict[str, Maker]]:
    def garden(seed):
        ra = model_garden.RandAugment(num_layers=2, magnitude=9)

        def one(x):
            img = tf.cast(tf.clip_by_value(tf.round(tf_random_crop_uint8(x, inp.size)), 0, 255), tf.uint8)
            return (tf.cast(ra.distort(img), tf.float32) - inp.mean) / inp.std
        return inp.per_image(one)
    return {"randaugment": {"TF Model Garden augment.RandAugment": garden}}
