"""Keras 3's RandAugment layer (`keras.layers.RandAugment`) after tf.image's Inception crop, in a
tf.data map as Keras documents for preprocessing layers. Slow: `--skip keras` leaves it out."""
from __future__ import annotations

from typing import Dict

import keras
import tensorflow as tf

from tfgpuaug.bench import pipelines
from tfgpuaug.bench.pipelines import AUTOTUNE, Inputs, Maker, tf_random_crop_uint8


def randaugment(inp: Inputs) -> Dict[str, Maker]:
    def keras_layer(seed):
        layer = keras.layers.RandAugment(value_range=(0, 255), num_ops=2, factor=9 / 30)
        ds = inp.per_image(lambda x: tf.cast(tf.round(tf_random_crop_uint8(x, inp.size)), tf.uint8))
        ds = ds.map(lambda x: (tf.cast(layer(x, training=True), tf.float32) - inp.mean) / inp.std,
                    num_parallel_calls=AUTOTUNE)
        return ds.prefetch(AUTOTUNE)
    return {"keras.layers.RandAugment": keras_layer}


def detection(inp: Inputs) -> Dict[str, Maker]:
    """Keras 3's box-aware layers (`bounding_box_format="xyxy"`) per image: Resizing with
    pad_to_aspect_ratio to 640, RandomFlip, RandomZoom(-0.2, 0.25) (the 0.8-1.25 scale),
    normalization, MaxNumBoundingBoxes(100)."""
    det = pipelines.DetectionInputs(inp)
    fmt = dict(bounding_box_format="xyxy")

    def keras_boxes(seed):
        resize = keras.layers.Resizing(det.size, det.size, pad_to_aspect_ratio=True, **fmt)
        flip = keras.layers.RandomFlip("horizontal", seed=seed, **fmt)
        zoom = keras.layers.RandomZoom((-0.2, 0.25), seed=seed, fill_mode="constant", **fmt)
        pad = keras.layers.MaxNumBoundingBoxes(pipelines.MAX_BOXES, **fmt)

        def one(x, boxes, labels):
            image = tf.cast(tf.io.decode_jpeg(x, channels=3), tf.float32)
            d = {"images": image[tf.newaxis], "bounding_boxes": {"boxes": boxes[tf.newaxis],
                                                                 "labels": labels[tf.newaxis]}}
            d = pad(zoom(flip(resize(d), training=True), training=True))
            images = (d["images"][0] - inp.mean) / inp.std
            return images, d["bounding_boxes"]["boxes"][0], d["bounding_boxes"]["labels"][0]
        ds = det.per_image(rel=False).map(one, num_parallel_calls=AUTOTUNE)
        return ds.batch(det.batch, drop_remainder=True).prefetch(AUTOTUNE)
    return {"Keras 3 layers (bounding_box_format)": keras_boxes}


SUITES = {"randaugment": randaugment, "detection": detection}
