"""Where a GPU window decode of a restart-marked JPEG differs from libjpeg's, and why.

For windows of tests/data/scene_420_restart.jpg and of the same picture without restart
markers, with the restart crop on and off (TFGPUAUG_JPEG_RESTART_CROP, read per call), prints
the window's difference to the same decoder's full decode, cropped (the crop's contract: 0),
and to libjpeg's window (nvJPEG's own IDCT and upsampling). Run from the GPU bundle:

    python3 scripts/gpu_restart_probe.py module
"""
from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_selfcheck  # noqa: E402


def diff(a, b) -> str:
    d = np.abs(np.asarray(a, np.int32) - np.asarray(b, np.int32))
    return f"max {d.max():3d} mean {d.mean():.3f}"


def probe(k, name: str) -> None:
    blob = open(os.path.join(gpu_selfcheck.ROOT, "tests", "data", name), "rb").read()
    cpu_full = k.decode(blob, 3)
    (gpu_full,), (route,) = k.decode_gpu([blob], 3, routes=True)
    h, w = cpu_full.shape[:2]
    print(f"{name} {h}x{w}: full decode, GPU vs libjpeg {diff(gpu_full, cpu_full)} ({route})")
    rng = np.random.default_rng(1)
    windows = [[h // 2, w // 3, h // 2, w // 2], [17, 0, 40, 33], [0, w - 50, h, 50]]
    for _ in range(12):
        y, x = int(rng.integers(0, h - 8)), int(rng.integers(0, w - 8))
        windows.append([y, x, int(rng.integers(8, h - y + 1)), int(rng.integers(8, w - x + 1))])
    for crop in ("1", "0"):
        os.environ["TFGPUAUG_JPEG_RESTART_CROP"] = crop
        outs, routes = k.decode_gpu([blob] * len(windows), 3, routes=True, windows=windows)
        for (y, x, wh, ww), out, route in zip(windows, outs, routes):
            cropped = gpu_full[y:y + wh, x:x + ww]
            libjpeg = k.decode(blob, 3, [y, x, wh, ww])
            print(f"  restart crop {crop} window {str([y, x, wh, ww]):22s} {route:7s} "
                  f"vs full decode cropped {diff(out, cropped)} | vs libjpeg {diff(out, libjpeg)}")


def main() -> None:
    gpu_selfcheck.point_to_nvjpeg()
    k = gpu_selfcheck.load_module(sys.argv[1] if len(sys.argv) > 1 else "module")
    for name in ("scene_420_restart.jpg", "scene_420.jpg"):
        probe(k, name)


if __name__ == "__main__":
    main()
