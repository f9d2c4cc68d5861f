"""Decode throughput, side by side in one run: tfgpuaug vs tf.io on the same images.

    python benchmarks/bench_decode.py [--data DIR] [--epochs 5] [--batch_size 64]

Full decode: tfgpuaug.decode_image on batches vs tf.io.decode_jpeg in a parallel map.
ROI decode: the same Inception-style random windows with tfgpuaug's crop_window vs
tf.io.decode_and_crop_jpeg. Each pipeline reduces an image to its shape so that only
decoding is timed.
"""
from __future__ import annotations

import json
import os
import platform

import tensorflow as tf
from absl import app, flags

import anchors  # benchmarks/anchors (this script's folder is on sys.path)
import tfgpuaug as tga
from tfgpuaug.bench import timing

_DATA = flags.DEFINE_string("data", None, "Image folder (default: shared ImageNet sample).")
_EPOCHS = flags.DEFINE_integer("epochs", 5, "Timed passes (median reported).")
_BATCH = flags.DEFINE_integer("batch_size", 64, "Batch size.")
_JSON = flags.DEFINE_string("json", None, "Write results to this JSON file.")

AUTOTUNE = tf.data.AUTOTUNE


def main(argv):
    del argv
    blobs, files = timing.load_images(_DATA.value or anchors.sample_data_dir(), jpeg_only=True)
    data_dir, windows = os.path.dirname(files[0]), timing.windows_for(blobs)
    n, b = len(blobs), _BATCH.value
    blobs_t = tf.constant(blobs)

    def ours(dct, with_windows):
        def make(seed):  # decoding draws nothing: the seed is unused
            if with_windows:
                ds = tf.data.Dataset.from_tensor_slices((blobs_t, windows)).repeat().batch(b)
                fn = lambda x, w: tf.shape(tga.decode_image(x, crop_window=w, dct_method=dct).flat_values)
            else:
                ds = tf.data.Dataset.from_tensor_slices(blobs_t).repeat().batch(b)
                fn = lambda x: tf.shape(tga.decode_image(x, dct_method=dct).flat_values)
            return ds.map(fn, num_parallel_calls=AUTOTUNE).prefetch(AUTOTUNE)
        return make

    def tf_full(dct):
        def make(seed):  # decoding draws nothing: the seed is unused
            ds = tf.data.Dataset.from_tensor_slices(blobs_t).repeat()
            ds = ds.map(lambda x: tf.shape(tf.io.decode_jpeg(x, channels=3, dct_method=dct)),
                        num_parallel_calls=AUTOTUNE)
            return ds.batch(b).prefetch(AUTOTUNE)
        return make

    def tf_crop(dct):
        def make(seed):  # decoding draws nothing: the seed is unused
            ds = tf.data.Dataset.from_tensor_slices((blobs_t, windows)).repeat()
            ds = ds.map(lambda x, w: tf.shape(tf.io.decode_and_crop_jpeg(x, w, channels=3, dct_method=dct)),
                        num_parallel_calls=AUTOTUNE)
            return ds.batch(b).prefetch(AUTOTUNE)
        return make

    rows = [
        ("full decode", "tf.io.decode_jpeg (TF default DCT)", tf_full("")),
        ("full decode", "tfgpuaug (INTEGER_FAST, as TF)", ours("INTEGER_FAST", False)),
        ("full decode", "tf.io.decode_jpeg (INTEGER_ACCURATE)", tf_full("INTEGER_ACCURATE")),
        ("full decode", "tfgpuaug (INTEGER_ACCURATE, default)", ours("INTEGER_ACCURATE", False)),
        ("ROI decode", "tf.io.decode_and_crop_jpeg (TF default DCT)", tf_crop("")),
        ("ROI decode", "tfgpuaug crop_window (INTEGER_FAST)", ours("INTEGER_FAST", True)),
        ("ROI decode", "tf.io.decode_and_crop_jpeg (INTEGER_ACCURATE)", tf_crop("INTEGER_ACCURATE")),
        ("ROI decode", "tfgpuaug crop_window (INTEGER_ACCURATE)", ours("INTEGER_ACCURATE", True)),
    ]
    print(f"{n} images from {data_dir}; batch {b}; {os.cpu_count()} cores; "
          f"median of {_EPOCHS.value} interleaved rounds")
    # At least 20 batches per timed round: short windows mostly time the prefetch buffer.
    rates = timing.interleaved_images_per_second({name: make for _, name, make in rows},
                                                 max(n, 20 * b), _EPOCHS.value, b)
    results = []
    for group, name, _ in rows:
        results.append(dict(group=group, pipeline=name, images_per_s=round(rates[name], 1)))
        print(f"{group:12s} {name:48s} {rates[name]:8.1f} img/s")
    for i in range(0, len(results), 2):
        base, mine = results[i], results[i + 1]
        print(f"ratio {mine['pipeline']} / {base['pipeline']}: {mine['images_per_s'] / base['images_per_s']:.2f}x")
    if _JSON.value:
        with open(_JSON.value, "w") as f:
            json.dump(dict(machine=platform.platform(), cores=os.cpu_count(), images=n,
                           results=results), f, indent=1)


if __name__ == "__main__":
    app.run(main)
