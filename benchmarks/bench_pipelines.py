"""Train and eval input pipelines side by side in one run: tfgpuaug vs tf.data + tf.image
(and DALI's CPU pipeline through its TF plugin when installed).

    python benchmarks/bench_pipelines.py [--data DIR] [--rounds 5] [--batch_size 64]

train: random-resized-crop 224 + random flip + normalize to float32.
  tf.image: decode_and_crop_jpeg on sample_distorted_bounding_box, resize, random flip,
  normalize in a parallel per-image map.
  tfgpuaug: random_resized_crop on batches, with decode, crop, antialiased resize, flip
  and normalize fused into one pass per image.
  floor: tfgpuaug decoding Inception-style random windows alone, no resize.
eval: resize shorter side to 256, centre crop 224, normalize.
Peak RSS is measured for each pipeline in its own process over 3 epochs, as the rise of
the peak resident set (VmHWM, reset after TensorFlow is up and the images are loaded).
"""
from __future__ import annotations

import json
import os
import platform
import subprocess
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
_RSS_OF = flags.DEFINE_string("rss_of", None, "Internal: run one pipeline and print its peak RSS.")
_RSS = flags.DEFINE_bool("rss", True, "Measure peak RSS per pipeline in subprocesses.")

AUTOTUNE = tf.data.AUTOTUNE
SIZE = 224
# tfgpuaug's batch ops already spread each batch over every core (one image per task), so
# one batch in flight plus one prefetched keeps the cores busy; more only holds memory.
OURS_PARALLEL = 1
OURS_PREFETCH = 1
MEAN = tf.constant(tga.IMAGENET_MEAN)
STD = tf.constant(tga.IMAGENET_STD)


def pipelines(blobs_t, windows, b):
    def batches():
        return tf.data.Dataset.from_tensor_slices(blobs_t).repeat().batch(b).enumerate()

    def seed(i):
        return tf.stack([tf.constant(7, tf.int64), i])

    def tf_train():
        def one(x):
            shape = tf.io.extract_jpeg_shape(x)
            begin, size, _ = tf.image.sample_distorted_bounding_box(
                shape, tf.zeros([0, 0, 4]), min_object_covered=0.0, aspect_ratio_range=(3 / 4, 4 / 3),
                area_range=(0.08, 1.0), max_attempts=10, use_image_if_no_bounding_boxes=True)
            window = tf.stack([begin[0], begin[1], size[0], size[1]])
            img = tf.io.decode_and_crop_jpeg(x, window, channels=3)
            img = tf.image.resize(img, [SIZE, SIZE])
            img = tf.image.random_flip_left_right(img)
            return (img - MEAN) / STD
        ds = tf.data.Dataset.from_tensor_slices(blobs_t).repeat()
        return ds.map(one, num_parallel_calls=AUTOTUNE).batch(b).prefetch(AUTOTUNE)

    def ours_train():
        def f(i, x):  # crop, resize, flip and normalize fused into one pass per image
            return tga.random_resized_crop(x, SIZE, seed=seed(i), mirror=0.5,
                                           mean=tga.IMAGENET_MEAN, std=tga.IMAGENET_STD)
        return batches().map(f, num_parallel_calls=OURS_PARALLEL).prefetch(OURS_PREFETCH)

    def floor_crop_decode():
        ds = tf.data.Dataset.from_tensor_slices((blobs_t, windows)).repeat().batch(b)
        ds = ds.map(lambda x, w: tga.decode_image(x, crop_window=w).flat_values[:1],
                    num_parallel_calls=AUTOTUNE)
        return ds.prefetch(AUTOTUNE)

    def tf_eval():
        def one(x):
            img = tf.io.decode_jpeg(x, channels=3)
            shape = tf.cast(tf.shape(img)[:2], tf.float32)
            s = 256.0 / tf.reduce_min(shape)
            img = tf.image.resize(img, tf.cast(tf.round(shape * s), tf.int32))
            img = tf.image.resize_with_crop_or_pad(img, SIZE, SIZE)
            return (img - MEAN) / STD
        ds = tf.data.Dataset.from_tensor_slices(blobs_t).repeat()
        return ds.map(one, num_parallel_calls=AUTOTUNE).batch(b).prefetch(AUTOTUNE)

    def ours_eval():
        def f(_, x):
            return tga.resize_center_crop(x, 256, SIZE, mean=tga.IMAGENET_MEAN, std=tga.IMAGENET_STD)
        return batches().map(f, num_parallel_calls=OURS_PARALLEL).prefetch(OURS_PREFETCH)

    return {
        "train: tf.data + tf.image": tf_train,
        "train: tfgpuaug": ours_train,
        "train floor: tfgpuaug crop decode alone": floor_crop_decode,
        "eval: tf.data + tf.image": tf_eval,
        "eval: tfgpuaug": ours_eval,
    }


def main(argv):
    del argv
    blobs, data_dir, windows = common.load_images_and_windows(_DATA.value)
    n, b = len(blobs), _BATCH.value
    makers = pipelines(tf.constant(blobs), windows, b)
    if _RSS_OF.value:
        common.reset_peak_rss()  # count the pipeline, not loading the images
        base = common.peak_rss_mb()
        it = iter(makers[_RSS_OF.value]())
        for _ in range(3 * max(1, n // b)):
            next(it)
        print(f"RSS {common.peak_rss_mb() - base:.0f}")
        return
    print(f"{n} images from {data_dir}; batch {b}; {os.cpu_count()} cores; "
          f"median of {_ROUNDS.value} interleaved rounds")
    rates = common.interleaved_images_per_second(makers, n, _ROUNDS.value, b)
    rss = {}
    if _RSS.value:
        for name in makers:
            cmd = [sys.executable, __file__, f"--rss_of={name}", f"--batch_size={b}"]
            if _DATA.value:
                cmd.append(f"--data={_DATA.value}")
            out = subprocess.run(cmd, capture_output=True, text=True).stdout
            rss[name] = float(out.split("RSS")[-1]) if "RSS" in out else float("nan")
    for name, rate in rates.items():
        print(f"{name:42s} {rate:8.1f} img/s   pipeline peak RSS {rss.get(name, float('nan')):5.0f} MB")
    r = rates
    print(f"ratio train tfgpuaug / tf.image: {r['train: tfgpuaug'] / r['train: tf.data + tf.image']:.2f}x")
    print(f"ratio train tfgpuaug / crop decode floor: "
          f"{r['train: tfgpuaug'] / r['train floor: tfgpuaug crop decode alone']:.2f}x")
    print(f"ratio eval tfgpuaug / tf.image: {r['eval: tfgpuaug'] / r['eval: tf.data + tf.image']:.2f}x")
    if _JSON.value:
        with open(_JSON.value, "w") as f:
            json.dump(dict(machine=platform.platform(), cores=os.cpu_count(), images=n, batch=b,
                           images_per_s=rates, peak_rss_mb=rss), f, indent=1)


if __name__ == "__main__":
    app.run(main)
