"""Decoding the formats besides JPEG and PNG, side by side in one run on the same files: each
sample image re-encoded as BMP, GIF, WebP, PPM, TIFF (LZW) and JPEG 2000 (lossy, 20:1), then
decoded by tfgpuaug (batched op) against TensorFlow's decoder where it has one
(tf.io.decode_bmp/gif/webp in a parallel map) and PIL where it does not (TIFF, PPM,
JPEG 2000: PIL in tf.numpy_function, the way such files reach tf.data today).

    python benchmarks/bench_formats.py [--data DIR] [--count 128] [--rounds 3] [--json out.json]

Each pipeline reduces a decoded image to its shape, so only decoding is timed.
"""
from __future__ import annotations

import io
import json
import os
import platform

import numpy as np
import tensorflow as tf
from absl import app, flags
from PIL import Image

import anchors  # benchmarks/anchors (this script's folder is on sys.path)
import tfgpuaug as tga
from tfgpuaug.bench import timing

_DATA = flags.DEFINE_string("data", None, "Image folder (default: shared ImageNet sample).")
_COUNT = flags.DEFINE_integer("count", 128, "Images re-encoded per format.")
_ROUNDS = flags.DEFINE_integer("rounds", 3, "Timed rounds (median reported).")
_BATCH = flags.DEFINE_integer("batch_size", 32, "Batch size.")
_JSON = flags.DEFINE_string("json", None, "Write results to this JSON file.")

AUTOTUNE = tf.data.AUTOTUNE
ENCODE = {
    "BMP": lambda im: ("BMP", {}),
    "GIF": lambda im: ("GIF", {}),
    "WebP": lambda im: ("WEBP", {"quality": 80}),
    "PPM": lambda im: ("PPM", {}),
    "TIFF": lambda im: ("TIFF", {"compression": "tiff_lzw"}),
    "JPEG 2000": lambda im: ("JPEG2000", {"irreversible": True, "quality_mode": "rates", "quality_layers": [20]}),
}
TF_DECODERS = {"BMP": tf.io.decode_bmp, "GIF": lambda x: tf.io.decode_gif(x)[0], "WebP": tf.io.decode_webp}


def encode_all(blobs: list[bytes], fmt: str) -> list[bytes]:
    out = []
    for data in blobs:
        im = Image.open(io.BytesIO(data)).convert("RGB")
        name, kw = ENCODE[fmt](im)
        buf = io.BytesIO()
        im.save(buf, name, **kw)
        out.append(buf.getvalue())
    return out


def pil_shape(data: bytes) -> np.ndarray:
    return np.asarray(np.asarray(Image.open(io.BytesIO(data)).convert("RGB")).shape, np.int32)


def main(argv):
    del argv
    blobs, files = timing.load_images(_DATA.value or anchors.sample_data_dir(), jpeg_only=True)
    blobs = blobs[:_COUNT.value]
    b = _BATCH.value
    makers, rows = {}, []
    for fmt in ENCODE:
        encoded = tf.constant(encode_all(blobs, fmt))
        size = sum(len(x) for x in encoded.numpy()) / len(blobs) / 1024

        def ours(seed, encoded=encoded):
            ds = tf.data.Dataset.from_tensor_slices(encoded).repeat().batch(b)
            return ds.map(lambda x: tf.shape(tga.decode_image(x).flat_values), num_parallel_calls=AUTOTUNE)

        def theirs(seed, encoded=encoded, fmt=fmt):
            ds = tf.data.Dataset.from_tensor_slices(encoded).repeat()
            if fmt in TF_DECODERS:
                fn = lambda x: tf.shape(TF_DECODERS[fmt](x))  # noqa: E731
            else:
                fn = lambda x: tf.numpy_function(pil_shape, [x], tf.int32)  # noqa: E731
            return ds.map(fn, num_parallel_calls=AUTOTUNE).batch(b)

        other = "tf.io" if fmt in TF_DECODERS else "PIL (numpy_function)"
        makers[f"{fmt}: tfgpuaug"], makers[f"{fmt}: {other}"] = ours, theirs
        rows.append((fmt, other, round(size, 1)))
    print(f"{len(blobs)} images from {os.path.dirname(files[0])}; batch {b}; {os.cpu_count()} cores; "
          f"median of {_ROUNDS.value} interleaved rounds")
    rates = timing.interleaved_images_per_second(makers, max(len(blobs), 10 * b), _ROUNDS.value, b)
    results = []
    print(f"{'format':10s} {'KiB/file':>8s} {'tfgpuaug':>9s} {'other':>9s} {'ratio':>6s}  other")
    for fmt, other, size in rows:
        mine, theirs = rates[f"{fmt}: tfgpuaug"], rates[f"{fmt}: {other}"]
        results.append(dict(format=fmt, kib_per_file=size, tfgpuaug=round(mine, 1), other=other,
                            other_images_per_s=round(theirs, 1), ratio=round(mine / theirs, 2)))
        print(f"{fmt:10s} {size:8.1f} {mine:9.1f} {theirs:9.1f} {mine / theirs:5.2f}x  {other}")
    if _JSON.value:
        with open(_JSON.value, "w") as f:
            json.dump(dict(machine=platform.platform(), cores=os.cpu_count(), images=len(blobs),
                           results=results), f, indent=1)


if __name__ == "__main__":
    app.run(main)
