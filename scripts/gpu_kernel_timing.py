"""Per-kernel timing of the kernels module's CUDA entry points against its CPU kernels, numpy
only (for a GPU machine without TensorFlow; run by the GPU bundle, scripts/gpu_bundle.sh).

    python scripts/gpu_kernel_timing.py [--module-dir DIR] [--repeats 20]

Each GPU figure is a whole binding call: host-to-device copies, device allocation, the kernel(s)
and the copy back, so it bounds the kernel's time from above; the CPU figure is the CPU kernel on
one thread. Median of --repeats calls after one warm-up, on a batch of 32 photos-like 224x224
images (decode: the JPEGs in tests/data). Under the CUDA emulation the GPU column means nothing.
"""
from __future__ import annotations

import argparse
import glob
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_selfcheck import ROOT, augment_op_ids, load_module, point_to_nvjpeg, test_images  # noqa: E402


def median_ms(fn, repeats: int) -> float:
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * float(np.median(times))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module-dir", default=os.environ.get(
        "TFGPUAUG_KERNELS_MODULE_DIR", os.path.join(ROOT, "build", "kernels_module")))
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    point_to_nvjpeg()
    k = load_module(args.module_dir)
    if not (k.cuda_built() and k.gpu_available()):
        print("gpu_kernel_timing: no CUDA GPU (or no CUDA build); nothing timed")
        return 2
    rng = np.random.default_rng(0)
    images = test_images(rng, batch=32, h=224, w=224)
    b = images.shape[0]
    hz, vt = rng.random(b) < 0.5, rng.random(b) < 0.5
    matrices = np.tile(np.array([0.96, 0.29, -7, -0.29, 0.96, 12], np.float32), (b, 1))
    offsets = rng.integers(0, 32, (b, 2)).astype(np.int32)
    mean, std = [123.675, 116.28, 103.53], [58.395, 57.12, 57.375]
    ops = rng.choice(augment_op_ids(k), (b, 2)).astype(np.int32)
    params = np.full((b, 2), 9.0, np.float32)
    aux = rng.random((b, 2, 2), dtype=np.float32)
    yy, xx = np.mgrid[:224, :224].astype(np.float32)
    maps = np.tile(np.stack([xx + 3.5 * np.sin(yy / 9), yy + 3.5 * np.cos(xx / 11)], -1)[None], (b, 1, 1, 1))
    seeds = np.arange(b, dtype=np.int32)
    alphas = np.full(b, 120.0, np.float32)
    t = np.arange(49) - 24.0
    elastic_kernel = (np.exp(-t * t / 72.0) / np.exp(-t * t / 72.0).sum()).astype(np.float32)  # sigma 6
    blobs = [open(p, "rb").read() for p in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "*.jpg")))]
    cases = {
        "resize bilinear aa 224->160 x32": (
            lambda: [k.resize(im, 160, 160, "bilinear", True) for im in images],
            lambda: k.resize_batch_gpu(list(images), 160, 160, "bilinear", True)),
        "warp_affine bilinear x32": (
            lambda: [k.warp_affine(im, list(m)) for im, m in zip(images, matrices)],
            lambda: k.warp_affine_gpu(images, matrices)),
        "remap bilinear x32": (lambda: k.remap(images, maps), lambda: k.remap_gpu(images, maps)),
        "elastic maps sigma 6 x32": (
            lambda: k.elastic_maps(seeds, alphas, elastic_kernel, 224, 224),
            lambda: k.elastic_maps_gpu(seeds, alphas, elastic_kernel, 224, 224)),
        "flip x32": (lambda: k.flip(images, hz, vt), lambda: k.flip_gpu(images, hz, vt)),
        "crop_mirror_normalize 192 float32 x32": (
            lambda: k.crop_mirror_normalize(images, 192, 192, offsets, hz, mean, std),
            lambda: k.crop_mirror_normalize_gpu(images, 192, 192, offsets, hz, mean, std)),
        "augment 2 random ops x32": (
            lambda: k.augment_batch(images, ops, params, aux), lambda: k.augment_batch_gpu(images, ops, params, aux)),
        f"decode {len(blobs)} JPEGs": (
            lambda: [k.decode(blob) for blob in blobs], lambda: k.decode_gpu(blobs)),
    }
    print(f"{'kernel':<42}{'CPU ms':>10}{'GPU ms':>10}{'CPU/GPU':>10}")
    for name, (cpu, gpu) in cases.items():
        c, g = median_ms(cpu, args.repeats), median_ms(gpu, args.repeats)
        print(f"{name:<42}{c:>10.2f}{g:>10.2f}{c / g:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
