"""How far DCT-scaled decoding moves the output, and what it buys: the measurement behind the
default `max_dct_denom` (issue #22).

For each `max_dct_denom` in 1, 2, 4, 8, the train crop (RandomResizedCrop 224, the same boxes
for every setting: they come from stateless seeds and the headers) and the eval crop
(ResizeCenterCrop 256/224) run on the ImageNet sample and on its 4000x3000 upscales (the bench's
large-photo suite) and on 4000x3000 grids of sample photos (detail at full resolution, a
harder case than smooth upscales). Metric: per image, the mean absolute difference in levels (0-255) of the
uint8 output from the same pipeline at max_dct_denom=1 (a full-scale decode followed by the
same antialiased resize); reported as the mean over images, the 99th percentile and the worst
image. Speed: images/s of the op alone (one batch of 16 at a time, every core).

    python benchmarks/dct_policy.py [--data DIR] [--json benchmarks/results/dct-policy.json]
"""
from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import tfgpuaug as tga  # noqa: E402
from tfgpuaug.bench import timing  # noqa: E402

DENOMS = (1, 2, 4, 8)
BATCH = 16


def outputs(blobs: tf.Tensor, transform, seed: int = 7) -> np.ndarray:
    out = []
    for start in range(0, int(blobs.shape[0]), BATCH):
        out.append(transform(blobs[start:start + BATCH], seed=[seed, start]).numpy())
    return np.concatenate(out)


def rate(blobs: tf.Tensor, transform, rounds: int = 3) -> float:
    times = []
    for r in range(rounds):
        t0 = time.perf_counter()
        outputs(blobs, transform, seed=r)
        times.append(time.perf_counter() - t0)
    return int(blobs.shape[0]) / float(np.median(times))


def measure(name: str, blobs: tf.Tensor) -> list:
    rows = []
    for kind, make in (("train", lambda d: tga.RandomResizedCrop(224, max_dct_denom=d)),
                       ("eval", lambda d: tga.ResizeCenterCrop(256, 224, max_dct_denom=d))):
        reference = outputs(blobs, make(1)).astype(np.float32)
        for d in DENOMS:
            t = make(d)
            out = outputs(blobs, t).astype(np.float32)
            per_image = np.abs(out - reference).mean(axis=(1, 2, 3))
            rows.append(dict(images=name, pipeline=kind, max_dct_denom=d, images_per_s=round(rate(blobs, t), 1),
                             mad_mean=round(float(per_image.mean()), 3),
                             mad_p99=round(float(np.percentile(per_image, 99)), 3),
                             mad_max=round(float(per_image.max()), 3),
                             moved=int((per_image > 0).sum()), count=len(per_image)))
            r = rows[-1]
            print(f"{name:>6} {kind:>5} max_dct_denom={d}: {r['images_per_s']:7.1f} img/s  "
                  f"MAD mean {r['mad_mean']:.3f}  p99 {r['mad_p99']:.3f}  max {r['mad_max']:.3f}  "
                  f"({r['moved']}/{r['count']} images differ)", flush=True)
    return rows


def detailed_photos(files: list, count: int = 32) -> tf.Tensor:
    """4000x3000 JPEGs (quality 90) with detail at full resolution: 8x8 grids of sample
    photos, each at 500x375 (a downscale, so sharp), unlike the bench's smooth upscales."""
    from PIL import Image

    blobs, rng = [], np.random.default_rng(0)
    for k in range(count):
        canvas = Image.new("RGB", (4000, 3000))
        for j, i in enumerate(rng.choice(len(files), 64, replace=False)):
            with Image.open(files[i]) as tile:
                canvas.paste(tile.convert("RGB").resize((500, 375), Image.LANCZOS), ((j % 8) * 500, (j // 8) * 375))
        buf = io.BytesIO()
        canvas.save(buf, "JPEG", quality=90)
        blobs.append(buf.getvalue())
    return tf.constant(blobs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data",
                                                       "imagenet-sample"))
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    files = timing.list_image_files(args.data, jpeg_only=True)
    sample = tf.constant([open(f, "rb").read() for f in files])
    large_dir = timing.large_photos_dir(files)
    large = tf.constant([open(f, "rb").read() for f in timing.list_image_files(large_dir, jpeg_only=True)])
    rows = measure("sample", sample) + measure("large", large) + measure("detailed", detailed_photos(files))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(cores=os.cpu_count(), rows=rows), f, indent=1)


if __name__ == "__main__":
    main()
