"""The train pipeline with RandAugment(2, 9), side by side in one run: tfgpuaug's batched
augment kernel vs TF Model Garden's per-image `augment.RandAugment` and Keras 3's
`keras.layers.RandAugment` (each when installed), plus tfgpuaug's plain train pipeline
(to report what RandAugment costs).

    python benchmarks/bench_augment.py [--data DIR] [--rounds 5] [--batch_size 64]

Model Garden: pip install --no-deps tf-models-official; pip install tf-keras==2.21.* gin-config
pyyaml scipy opencv-python-headless matplotlib.
"""
from __future__ import annotations

import json
import os
import sys

import tensorflow as tf
from absl import app, flags

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
import tfgpuaug as tga  # noqa: E402

_DATA = flags.DEFINE_string("data", None, "Image folder (default: shared ImageNet sample).")
_ROUNDS = flags.DEFINE_integer("rounds", 5, "Timed rounds (median reported).")
_BATCH = flags.DEFINE_integer("batch_size", 64, "Batch size.")
_JSON = flags.DEFINE_string("json", None, "Write results to this JSON file.")
_KERAS = flags.DEFINE_bool("keras", True, "Include keras.layers.RandAugment (slow).")

AUTOTUNE = tf.data.AUTOTUNE
SIZE = 224
MEAN = tf.constant(tga.IMAGENET_MEAN)
STD = tf.constant(tga.IMAGENET_STD)


def tf_crop_flip(x):
    """The tf.image train preprocessing up to uint8 224x224 (decode_and_crop, resize, flip)."""
    shape = tf.io.extract_jpeg_shape(x)
    begin, size, _ = tf.image.sample_distorted_bounding_box(
        shape, tf.zeros([0, 0, 4]), min_object_covered=0.0, aspect_ratio_range=(3 / 4, 4 / 3),
        area_range=(0.08, 1.0), max_attempts=10, use_image_if_no_bounding_boxes=True)
    img = tf.io.decode_and_crop_jpeg(x, tf.stack([begin[0], begin[1], size[0], size[1]]), channels=3)
    img = tf.cast(tf.clip_by_value(tf.round(tf.image.resize(img, [SIZE, SIZE])), 0, 255), tf.uint8)
    return tf.image.random_flip_left_right(img)


def main(argv):
    del argv
    blobs, data_dir = common.load_images(_DATA.value)
    n, b = len(blobs), _BATCH.value
    blobs_t = tf.constant(blobs)

    def batches():
        return tf.data.Dataset.from_tensor_slices(blobs_t).repeat().batch(b).enumerate()

    def seed(i, k):
        return tf.stack([tf.constant(k, tf.int64), i])

    def ours_plain():
        f = lambda i, x: tga.random_resized_crop(x, SIZE, seed=seed(i, 1), mirror=0.5,
                                                 mean=tga.IMAGENET_MEAN, std=tga.IMAGENET_STD)
        return batches().map(f, num_parallel_calls=AUTOTUNE).prefetch(AUTOTUNE)

    def ours_randaugment():
        def f(i, x):
            img = tga.random_resized_crop(x, SIZE, seed=seed(i, 1))
            img = tga.augment.rand_augment(img, 2, 9, seed=seed(i, 2))
            return tga.crop_mirror_normalize(img, tga.IMAGENET_MEAN, tga.IMAGENET_STD, mirror=0.5,
                                             seed=seed(i, 3))
        return batches().map(f, num_parallel_calls=AUTOTUNE).prefetch(AUTOTUNE)

    makers = {"train: tfgpuaug (no augmentation)": ours_plain,
              "train + RandAugment(2, 9): tfgpuaug": ours_randaugment}
    try:
        from official.vision.ops import augment as tfm_augment

        def model_garden():
            ra = tfm_augment.RandAugment(num_layers=2, magnitude=9)
            one = lambda x: (tf.cast(ra.distort(tf_crop_flip(x)), tf.float32) - MEAN) / STD
            ds = tf.data.Dataset.from_tensor_slices(blobs_t).repeat()
            return ds.map(one, num_parallel_calls=AUTOTUNE).batch(b).prefetch(AUTOTUNE)
        makers["train + RandAugment(2, 9): TF Model Garden augment.py"] = model_garden
    except ImportError as e:
        print(f"TF Model Garden not installed ({e}); skipping it")
    if _KERAS.value:
        import keras

        def keras_layer():
            layer = keras.layers.RandAugment(value_range=(0, 255), num_ops=2, factor=9 / 30)
            ds = tf.data.Dataset.from_tensor_slices(blobs_t).repeat()
            ds = ds.map(tf_crop_flip, num_parallel_calls=AUTOTUNE).batch(b)
            ds = ds.map(lambda x: (tf.cast(layer(x, training=True), tf.float32) - MEAN) / STD,
                        num_parallel_calls=AUTOTUNE)
            return ds.prefetch(AUTOTUNE)
        makers["train + RandAugment(2, 9): keras.layers.RandAugment"] = keras_layer
    try:
        import nvidia.dali  # noqa: F401
        print("DALI is installed but its pipeline is not wired into this benchmark yet")
    except ImportError:
        print("DALI not installed; skipping it")

    print(f"{n} images from {data_dir}; batch {b}; {os.cpu_count()} cores; "
          f"median of {_ROUNDS.value} interleaved rounds")
    rates = common.interleaved_images_per_second(makers, n, _ROUNDS.value, b)
    for name, rate in rates.items():
        print(f"{name:58s} {rate:8.1f} img/s")
    ours = rates["train + RandAugment(2, 9): tfgpuaug"]
    print(f"RandAugment cost: {1 - ours / rates['train: tfgpuaug (no augmentation)']:.0%} of the plain pipeline")
    for name, rate in rates.items():
        if "RandAugment" in name and "tfgpuaug" not in name:
            print(f"ratio tfgpuaug / {name.split(': ')[1]}: {ours / rate:.2f}x")
    if _JSON.value:
        with open(_JSON.value, "w") as f:
            json.dump(dict(cores=os.cpu_count(), images=n, batch=b, images_per_s=rates), f, indent=1)


if __name__ == "__main__":
    app.run(main)
