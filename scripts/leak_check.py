"""Shows whether resident memory stays flat over many batches of the train pipeline
(random-resized-crop + RandAugment + crop-mirror-normalize through gpu_augment) and of the
batched augment op alone.

    python scripts/leak_check.py --batches 20000            # the long run
    python scripts/leak_check.py --batches 600 --quick      # CI: small images and batches

RSS is sampled every `--every` batches; after the first `--warmup` share of the run
(allocator pools and caches filling), the growth is the fitted slope times the measured
span. A leak of one image per batch would add `batches x image bytes`. Exit code 1 when
either pipeline grows more than `--max_growth_mb`.
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402

import tfgpuaug as tga  # noqa: E402
from tfgpuaug.augment import ops as aug_ops  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def sample_images(count: int, size: int) -> list[bytes]:
    rng = np.random.default_rng(0)
    out = []
    for i in range(count):
        h, w = (int(v) for v in rng.integers(size, 2 * size, 2))
        img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        out.append((tf.io.encode_png(img) if i % 4 == 3 else tf.io.encode_jpeg(img)).numpy())
    return out


def train_batches(blobs, batch: int, size: int):
    ds = tf.data.Dataset.from_tensor_slices(blobs).repeat().batch(batch)
    return iter(ds.apply(tga.gpu_augment([tga.RandomResizedCrop(size), tga.RandAugment(2, 9),
                                          tga.CropMirrorNormalize(mirror=0.5)], seed=1)))


def augment_batches(batch: int, size: int):
    images = tf.random.stateless_uniform([batch, size, size, 3], (1, 2), 0, 256, tf.int32)
    images = tf.cast(images, tf.uint8)
    ids = list(aug_ops.OP_IDS.values())

    # The step counter lives in a variable: a fresh tf.constant(i) per batch would grow
    # TensorFlow's own eager scalar cache by ~640 bytes a batch (tensorflow#68196), which
    # is what this check reported as the augment op's growth before.
    counter = tf.Variable(0, dtype=tf.int64)

    @tf.function
    def step():
        seed = tf.stack([tf.constant(3, tf.int64), counter.assign_add(1)])
        op_ids = tf.random.stateless_uniform([batch, 2], seed, 0, len(ids), tf.int32)
        mags = tf.random.stateless_uniform([batch, 2], seed + 1, -0.5, 0.5)
        return aug_ops.apply_stages(images, tf.gather(ids, op_ids), mags)

    while True:
        yield step()


def measure(name: str, batches, total: int, every: int, warmup: float) -> float:
    xs, ys = [], []
    for k in range(1, total + 1):
        next(batches)
        if k % every == 0:
            xs.append(k)
            ys.append(rss_mb())
            print(f"{name:8s} batch {k:7d}  RSS {ys[-1]:8.1f} MB", flush=True)
    start = next(j for j, x in enumerate(xs) if x >= warmup * total)
    x, y = np.array(xs[start:], float), np.array(ys[start:])
    slope = np.polyfit(x, y, 1)[0] if len(x) > 1 else 0.0
    growth = slope * (x[-1] - x[0])
    print(f"{name}: {growth:+.1f} MB over batches {int(x[0])}..{int(x[-1])} "
          f"({slope * 1e4:+.2f} MB per 10k batches); RSS {y[0]:.0f} -> {y[-1]:.0f} MB")
    return growth


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batches", type=int, default=20000)
    p.add_argument("--batch_size", type=int, default=32)
    p.add_argument("--size", type=int, default=224)
    p.add_argument("--every", type=int, default=None, help="RSS sample interval (batches)")
    p.add_argument("--warmup", type=float, default=0.2)
    p.add_argument("--max_growth_mb", type=float, default=20.0)
    p.add_argument("--quick", action="store_true", help="64x64 output, 4 images per batch")
    a = p.parse_args()
    if a.quick:
        a.batch_size, a.size = 4, 64
    every = a.every or max(1, a.batches // 40)
    blobs = sample_images(16, a.size)
    results = {"train": measure("train", train_batches(blobs, a.batch_size, a.size), a.batches, every, a.warmup),
               "augment": measure("augment", augment_batches(a.batch_size, a.size), a.batches, every, a.warmup)}
    leaking = {k: v for k, v in results.items() if v > a.max_growth_mb}
    print("flat" if not leaking else f"GROWING: {leaking} (limit {a.max_growth_mb} MB)")
    return 1 if leaking else 0


if __name__ == "__main__":
    sys.exit(main())
