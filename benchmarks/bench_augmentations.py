"""The augmentations added for modern recipes, each against its nearest TensorFlow/Keras
equivalent, side by side in one run on the same decoded batches (sample images resized to
224x224, batch 64, in a tf.data map; only the augmentation differs between rows).

    python benchmarks/bench_augmentations.py [--data DIR] [--rounds 3] [--json out.json]

Rows: ColorJitter(0.4, 0.4, 0.4, 0.1) vs Keras 3's RandomColorJitter and a per-image tf.image
chain; RandomErasing vs Keras 3's RandomErasing; JpegQuality(30-95) vs
tf.image.random_jpeg_quality per image; RandomPerspective(0.5) vs Keras 3's RandomPerspective;
GridMask alone (no TF/Keras equivalent).
"""
from __future__ import annotations

import json
import os
import platform

import keras
import tensorflow as tf
from absl import app, flags

import anchors  # benchmarks/anchors (this script's folder is on sys.path)
import tfgpuaug as tga
from tfgpuaug.bench import timing

_DATA = flags.DEFINE_string("data", None, "Image folder (default: shared ImageNet sample).")
_COUNT = flags.DEFINE_integer("count", 256, "Images decoded and resized once.")
_ROUNDS = flags.DEFINE_integer("rounds", 3, "Timed rounds (median reported).")
_BATCH = flags.DEFINE_integer("batch_size", 64, "Batch size.")
_JSON = flags.DEFINE_string("json", None, "Write results to this JSON file.")

AUTOTUNE = tf.data.AUTOTUNE


def tf_image_jitter(image, seed):
    """torchvision-style factors with tf.image, one image at a time, fixed order."""
    s = tf.random.experimental.stateless_split(seed, 4)
    x = tf.image.convert_image_dtype(image, tf.float32)
    x = tf.image.stateless_random_brightness(x, 0.4, s[0])
    x = tf.image.stateless_random_contrast(x, 0.6, 1.4, s[1])
    x = tf.image.stateless_random_saturation(x, 0.6, 1.4, s[2])
    x = tf.image.stateless_random_hue(x, 0.1, s[3])
    return tf.image.convert_image_dtype(x, tf.uint8, saturate=True)


def main(argv):
    del argv
    blobs, files = timing.load_images(_DATA.value or anchors.sample_data_dir(), jpeg_only=True)
    blobs = tf.constant(blobs[:_COUNT.value])
    images = tf.stack([tga.resize_center_crop(tga.decode_image(b), 224, 224) for b in blobs])
    b = _BATCH.value

    def batched(fn):
        def make(seed):
            ds = tf.data.Dataset.from_tensor_slices(images).repeat().batch(b, drop_remainder=True)
            return ds.map(lambda x: tf.reduce_sum(tf.cast(fn(x, seed)[:, 0, 0], tf.int32)),
                          num_parallel_calls=AUTOTUNE).prefetch(AUTOTUNE)
        return make

    def per_image(fn):
        def make(seed):
            ds = tf.data.Dataset.from_tensor_slices(images).repeat()
            ds = tf.data.Dataset.zip(ds, tf.data.Dataset.random(seed).batch(2))
            ds = ds.map(lambda x, s: fn(x, tf.cast(s, tf.int64)), num_parallel_calls=AUTOTUNE)
            return ds.batch(b).map(lambda x: tf.reduce_sum(tf.cast(x[:, 0, 0], tf.int32))).prefetch(AUTOTUNE)
        return make

    def keras_layer(layer, dtype=tf.float32):
        return batched(lambda x, seed: layer(tf.cast(x, dtype), training=True))

    makers = {
        "ColorJitter: tfgpuaug": batched(lambda x, s: tga.augment.color_jitter(x, 0.4, 0.4, 0.4, 0.1, seed=s)),
        "ColorJitter: Keras RandomColorJitter": keras_layer(keras.layers.RandomColorJitter(
            value_range=(0, 255), brightness_factor=0.4, contrast_factor=0.4, saturation_factor=0.4,
            hue_factor=0.1)),
        "ColorJitter: tf.image per image": per_image(tf_image_jitter),
        "RandomErasing: tfgpuaug": batched(lambda x, s: tga.augment.random_erasing(x, 0.5, seed=s)),
        "RandomErasing: Keras RandomErasing": keras_layer(keras.layers.RandomErasing(
            factor=0.5, scale=(0.02, 0.33), value_range=(0, 255))),
        "JpegQuality: tfgpuaug": batched(lambda x, s: tga.augment.jpeg_quality(x, (30, 95), seed=s)),
        "JpegQuality: tf.image per image": per_image(
            lambda x, s: tf.image.stateless_random_jpeg_quality(x, 30, 95, s)),
        "GridMask: tfgpuaug": batched(lambda x, s: tga.augment.grid_mask(x, seed=s)),
    }
    if hasattr(tga.augment, "random_perspective"):
        makers["RandomPerspective: tfgpuaug"] = batched(
            lambda x, s: tga.augment.random_perspective(x, 0.5, probability=1.0, seed=s))
        makers["RandomPerspective: Keras RandomPerspective"] = keras_layer(keras.layers.RandomPerspective(
            factor=1.0, scale=0.5))
    print(f"{images.shape[0]} images of 224x224 from {os.path.dirname(files[0])}; batch {b}; "
          f"{os.cpu_count()} cores; median of {_ROUNDS.value} interleaved rounds")
    rates = timing.interleaved_images_per_second(makers, max(int(images.shape[0]), 10 * b), _ROUNDS.value, b)
    results = timing.ratio_rows(rates, 45)
    if _JSON.value:
        with open(_JSON.value, "w") as f:
            json.dump(dict(machine=platform.platform(), cores=os.cpu_count(), images=int(images.shape[0]),
                           results=results), f, indent=1)


if __name__ == "__main__":
    app.run(main)
