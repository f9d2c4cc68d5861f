"""Mosaic on decoded batches: the time of the transform alone, per batch.

    python benchmarks/bench_mosaic.py [--data DIR] [--size 640] [--batch_size 16] [--rounds 5]

Decodes `batch_size` sample images once (a ragged batch of their own sizes), then times
`tga.Mosaic(size)` on it in a tf.function, 10 calls per round, best round reported. Used for
the per-sample-centre Mosaic (one PasteResize op) against the per-batch one it replaced
(four crop_and_resize calls and a concatenation): run it on each commit.
"""
from __future__ import annotations

import argparse
import glob
import os
import time

import tensorflow as tf

import tfgpuaug as tga

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data", "imagenet-sample"))
    parser.add_argument("--size", type=int, default=640)
    parser.add_argument("--batch_size", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    files = sorted(glob.glob(os.path.join(args.data, "*")))[: args.batch_size]
    batch = tf.ragged.stack([tf.io.decode_image(tf.io.read_file(f), channels=3, expand_animations=False)
                             for f in files])
    mosaic = tga.Mosaic(args.size, seed=0)
    fn = tf.function(lambda images, seed: mosaic(images, seed=seed))
    fn(batch, tf.constant([0, 0])).numpy()
    best = float("inf")
    for r in range(args.rounds):
        start = time.perf_counter()
        for i in range(10):
            fn(batch, tf.constant([r, i])).numpy()
        best = min(best, (time.perf_counter() - start) / 10)
    print(f"Mosaic({args.size}) on {len(files)} decoded images: {best * 1e3:.1f} ms/batch, "
          f"{len(files) / best:.0f} img/s (best of {args.rounds} rounds)")


if __name__ == "__main__":
    main()
