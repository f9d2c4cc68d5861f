"""Where the detection pipeline's time goes beyond its fused op: the detection suite's own
tfgpuaug pipeline (`tfgpuaug.bench.pipelines.detection`: decode, scale jitter 0.8-1.25 around
640, flip, normalize, boxes padded to 100, batch 16), the same transforms without boxes, and
the upstream ragged batching of the per-image dicts alone.

    python benchmarks/detection_parts.py [--data DIR] [--batches 25] [--rounds 3]

Best round of each.
"""
from __future__ import annotations

import argparse
import glob
import os
import time


import tfgpuaug as tga
from tfgpuaug.bench import pipelines

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data", "imagenet-sample"))
    parser.add_argument("--batches", type=int, default=25)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    files = sorted(glob.glob(os.path.join(args.data, "*")))
    inp = pipelines.Inputs([open(f, "rb").read() for f in files], files, batch=64)
    det = pipelines.DetectionInputs(inp)
    transforms = [tga.ScaleJitter(det.size, scale=(0.8, 1.25)), tga.CropMirrorNormalize(mirror=0.5)]

    def dicts():
        ds = det.per_image(rel=False).map(lambda x, b, c: {"images": x, "bounding_boxes": {"boxes": b, "labels": c}})
        return ds.ragged_batch(det.batch, drop_remainder=True)

    parts = {
        "with boxes (the suite's pipeline)": lambda: pipelines.detection(inp)["tfgpuaug"](0),
        "images only": lambda: inp.images().batch(det.batch, drop_remainder=True).apply(
            tga.gpu_augment(transforms, seed=0)),
        "ragged_batch of the dicts alone": dicts,
    }
    for name, make in parts.items():
        it = iter(make())
        for _ in range(3):
            next(it)
        best = 0.0
        for _ in range(args.rounds):
            start = time.perf_counter()
            for _ in range(args.batches):
                next(it)
            best = max(best, args.batches * det.batch / (time.perf_counter() - start))
        print(f"{name}: {best:.0f} img/s")


if __name__ == "__main__":
    main()
