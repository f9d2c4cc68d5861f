"""Where the detection pipeline's time goes beyond its fused op: the suite's pipeline (decode,
scale jitter 0.8-1.25 around 640, flip, normalize, boxes padded to 100, batch 16) with its
boxes, the same without boxes, and the upstream ragged batching of the per-image dicts alone.

    python benchmarks/detection_parts.py [--data DIR] [--batches 25] [--rounds 3]

The boxes are the detection suite's: 1-8 random boxes per image (seed 0). Best round of each.
"""
from __future__ import annotations

import argparse
import glob
import os
import time

import numpy as np
import tensorflow as tf

import tfgpuaug as tga

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BATCH = 16


def boxes_for(dims: np.ndarray):
    rng = np.random.default_rng(0)
    rel, labels = [], []
    for _ in dims:
        k = int(rng.integers(1, 9))
        y0x0 = rng.uniform(0.0, 0.8, (k, 2))
        y1x1 = np.minimum(y0x0 + rng.uniform(0.05, 0.5, (k, 2)), 1.0)
        rel.append(np.concatenate([y0x0, y1x1], 1).astype(np.float32))
        labels.append(rng.integers(0, 80, k).astype(np.int32))
    rel = tf.ragged.constant(rel, ragged_rank=1, dtype=tf.float32)
    return tga.boxes.convert_format(rel, "rel_yxyx", "xyxy", dims[:, 0], dims[:, 1]), tf.ragged.constant(labels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data", "imagenet-sample"))
    parser.add_argument("--batches", type=int, default=25)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    blobs = tf.constant([open(f, "rb").read() for f in sorted(glob.glob(os.path.join(args.data, "*")))])
    boxes, labels = boxes_for(tga.image_shape(blobs)[:, :2].numpy().astype(np.float32))

    def transforms():
        return [tga.ScaleJitter(640, scale=(0.8, 1.25)), tga.CropMirrorNormalize(mirror=0.5)]

    def dicts():
        ds = tf.data.Dataset.from_tensor_slices((blobs, boxes, labels)).repeat()
        ds = ds.map(lambda x, b, c: {"images": x, "bounding_boxes": {"boxes": b, "labels": c}})
        return ds.ragged_batch(BATCH, drop_remainder=True)

    pipelines = {
        "with boxes (the suite's pipeline)": lambda: dicts().apply(tga.gpu_augment(transforms(), seed=0,
                                                                                    max_boxes=100)),
        "images only": lambda: tf.data.Dataset.from_tensor_slices(blobs).repeat().batch(
            BATCH, drop_remainder=True).apply(tga.gpu_augment(transforms(), seed=0)),
        "ragged_batch of the dicts alone": dicts,
    }
    for name, make in pipelines.items():
        it = iter(make())
        for _ in range(3):
            next(it)
        best = 0.0
        for _ in range(args.rounds):
            start = time.perf_counter()
            for _ in range(args.batches):
                next(it)
            best = max(best, args.batches * BATCH / (time.perf_counter() - start))
        print(f"{name}: {best:.0f} img/s")


if __name__ == "__main__":
    main()
