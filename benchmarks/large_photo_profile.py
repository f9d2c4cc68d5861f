"""Where the time of a crop decode goes on 12-megapixel JPEGs: the bench's large-photo images
(4000x3000 upscales of the sample) and Inception boxes, decoded by `decode_image` at each DCT
scale, against decoding only the entropy data up to each crop's last row (one row read at the
crop's bottom, 1/8 scale) and through the whole image, and tf.io.decode_and_crop_jpeg on one
core. Batches of 16, every core.

    python benchmarks/large_photo_profile.py
"""
import os
import sys
import time

import tensorflow as tf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import tfgpuaug as tga  # noqa: E402
from tfgpuaug.bench import timing  # noqa: E402

SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data", "imagenet-sample")
BATCH = 16


def images_per_second(blobs: tf.Tensor, decode, reps: int = 2) -> float:
    n = int(blobs.shape[0])
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        for s in range(0, n, BATCH):
            decode(s, s + BATCH)
        best = min(best, time.perf_counter() - t0)
    return n / best


def windowed(blobs: tf.Tensor, windows: tf.Tensor, denom: int):
    return lambda a, b: tga.decode_image(blobs[a:b], crop_window=windows[a:b], dct_denom=denom).flat_values.numpy()


def main() -> None:
    files = timing.list_image_files(timing.large_photos_dir(timing.list_image_files(SAMPLE, True)), True)
    blobs = tf.constant([open(f, "rb").read() for f in files])
    dims = tga.image_shape(blobs)[:, :2]
    boxes = tga.random_crop_boxes(dims, seed=[1, 2])
    for d in (1, 2, 4, 8):
        rate = images_per_second(blobs, windowed(blobs, tf.cast(boxes // d, tf.int32), d))
        print(f"crop decode at 1/{d}: {rate:.1f} img/s")
    one = tf.ones_like(dims[:, 0])
    eighth = tf.cast(boxes // 8, tf.int32)
    bottom_row = tf.stack([eighth[:, 0] + eighth[:, 2] - 1, eighth[:, 1], one, tf.minimum(eighth[:, 3], 8)], 1)
    rate = images_per_second(blobs, windowed(blobs, bottom_row, 8))
    print(f"entropy data up to the crop's last row: {rate:.1f} img/s")
    last_row = tf.stack([(dims[:, 0] + 7) // 8 - 1, 0 * one, one, 8 * one], 1)
    rate = images_per_second(blobs, windowed(blobs, last_row, 8))
    print(f"entropy data of the whole image: {rate:.1f} img/s")

    def tf_image(a, b):
        for i in range(a, b):
            tf.io.decode_and_crop_jpeg(blobs[i], tf.cast(boxes[i], tf.int32), channels=3).numpy()
    print(f"tf.io.decode_and_crop_jpeg, one image at a time: {images_per_second(blobs, tf_image, 1):.1f} img/s")


if __name__ == "__main__":
    main()
