"""GPU self-check without TensorFlow: every CUDA kernel the kernels module exposes against the
CPU kernels, on images this script makes (plus tests/data's JPEGs), numpy only.

    python build_tools/build_kernels_module.py      # with nvcc: TFGPUAUG_CUDA=1
    python scripts/gpu_selfcheck.py [--module-dir build/kernels_module]

Prints one row per check (max and mean absolute difference against its stated tolerance) and
exits 0 when every check passes, 1 on a mismatch, 2 when no GPU (or no CUDA build) was found.
It cannot pass by accident: nvJPEG is found as the op library finds it (TFGPUAUG_NVJPEG_PATH,
else PyPI's libnvjpeg) and created with allocator hooks as the op creates it, every baseline
JPEG must have gone through nvJPEG (each image's route is a check), and a CUDA error other
than "no device" fails with the error and the driver and runtime versions.
Not covered here: the fused decode + crop + resize (host only by design; see README).
"""
from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_bad_jpegs  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _softened_disc(radius: int, side: int) -> np.ndarray:
    """A disc of `radius` in a side x side frame over its count, blurred by a 3x3 Gaussian (sigma
    0.3) in float32: Defocus's shape, a plateau inside and distinct taps at the rim."""
    ax = np.arange(side) - side // 2
    disc = (ax[:, None] ** 2 + ax[None, :] ** 2 <= radius * radius).astype(np.float32)
    disc /= disc.sum()
    g = np.exp(-np.array([1.0, 0.0, 1.0]) / (2 * 0.3 * 0.3))
    g = (g / g.sum()).astype(np.float32)
    padded = np.pad(disc, 1)
    rows = g[0] * padded[:, :-2] + g[1] * padded[:, 1:-1] + g[2] * padded[:, 2:]
    return (g[0] * rows[:-2] + g[1] * rows[1:-1] + g[2] * rows[2:]).astype(np.float32)


def point_to_nvjpeg() -> str | None:
    """tfgpuaug/_nvjpeg_path.py, loaded as a file: the package itself imports TensorFlow."""
    spec = importlib.util.spec_from_file_location("_nvjpeg_path", os.path.join(ROOT, "tfgpuaug", "_nvjpeg_path.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.point_to_nvjpeg()


def load_module(folder: str):
    found = glob.glob(os.path.join(folder, "tfgpuaug_kernels*.so"))
    if not found:
        sys.exit(f"tfgpuaug_kernels not built in {folder} (python build_tools/build_kernels_module.py)")
    spec = importlib.util.spec_from_file_location("tfgpuaug_kernels", found[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_images(rng, batch=4, h=37, w=53, c=3) -> np.ndarray:
    """Smooth gradients with edges and noise: exercises interpolation and histograms."""
    y, x = np.mgrid[0:h, 0:w]
    base = np.stack([(x * 255 // w), (y * 255 // h), ((x + y) * 3) % 256], -1)[..., :c]
    out = np.stack([np.clip(base + rng.integers(-20, 21, base.shape) + 40 * i, 0, 255)
                    for i in range(batch)])
    return out.astype(np.uint8)


class Report:
    def __init__(self):
        self.rows, self.failed = [], 0

    def compare(self, name: str, cpu, gpu, max_tol: float, mean_tol: float = None) -> None:
        cpu, gpu = np.asarray(cpu), np.asarray(gpu)
        if cpu.shape != gpu.shape:
            self.rows.append((name, "shape", f"{cpu.shape} vs {gpu.shape}", "", "FAIL"))
            self.failed += 1
            return
        d = np.abs(cpu.astype(np.float64) - gpu.astype(np.float64))
        mx, mean = float(d.max(initial=0)), float(d.mean()) if d.size else 0.0
        ok = mx <= max_tol and (mean_tol is None or mean <= mean_tol)
        tol = f"max<={max_tol:g}" + ("" if mean_tol is None else f", mean<={mean_tol:g}")
        self.rows.append((name, f"{mx:.4g}", f"{mean:.4g}", tol, "ok" if ok else "FAIL"))
        self.failed += not ok

    def check(self, name: str, ok: bool, detail: str = "") -> None:
        self.rows.append((name, "", detail, "", "ok" if ok else "FAIL"))
        self.failed += not ok

    def print(self) -> None:
        head = ("check", "max diff", "mean diff", "tolerance", "")
        widths = [max(len(str(r[i])) for r in self.rows + [head]) for i in range(5)]
        for r in [head] + self.rows:
            print("  ".join(str(v).ljust(widths[i]) for i, v in enumerate(r)))


def compare_channels_and_sizes(report: Report, name: str, cpu, gpu, images: np.ndarray, channels, sizes) -> None:
    """`cpu` against `gpu` (functions of a batch), exactly: on `images` cut or widened to each
    channel count, then on random RGB batches of each (h, w) in `sizes`."""
    b = images.shape[0]
    for c in channels:
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        report.compare(f"{name} channels={c}", cpu(imgs), gpu(imgs), 0)
    for h, w in sizes:
        imgs = np.random.default_rng(h).integers(0, 256, (b, h, w, 3), dtype=np.uint8)
        report.compare(f"{name} {h}x{w}", cpu(imgs), gpu(imgs), 0)


def augment_op_ids(k) -> list[int]:
    img = np.zeros((2, 2, 3), np.uint8)
    ids = []
    while True:
        try:
            k.augment_stage(img, len(ids), 0.0)
        except ValueError:
            return ids
        ids.append(len(ids))


def sequential_jpeg(blob: bytes) -> bool:
    """Whether the JPEG is baseline or extended sequential, Huffman-coded (SOF0/SOF1): what
    nvJPEG's batched decoder must take. Progressive ones it may hand back to the CPU."""
    i = 2
    while i + 4 <= len(blob) and blob[i] == 0xFF:
        marker, length = blob[i + 1], int.from_bytes(blob[i + 2:i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return marker in (0xC0, 0xC1)
        i += 2 + length
    return False


def check_route(k, report: Report, name: str, blob: bytes, route: str) -> None:
    """A sequential JPEG that did not go through nvJPEG compared the CPU decoder with itself."""
    if sequential_jpeg(blob):
        why = f" ({k.nvjpeg_status()['error']})" if route == "host" and k.nvjpeg_status()["error"] else ""
        report.check(f"{name} went through nvJPEG", route == "nvjpeg", f"route {route}{why}")
    else:
        report.check(f"{name} (progressive) route", route in ("nvjpeg", "nvjpeg_refused"), f"route {route}")


def run(k, report: Report, quick: bool = False, small: bool = False) -> None:
    rng = np.random.default_rng(0)
    images = test_images(rng)
    b = images.shape[0]
    # decode (nvJPEG, or the host fallback + upload): IDCT and upsampling may differ from libjpeg
    blobs = [open(p, "rb").read() for p in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "*.jpg")))]
    for i, blob in enumerate(blobs):
        (out,), (route,) = k.decode_gpu([blob], 3, routes=True)
        report.compare(f"decode jpeg {i}", k.decode(blob, 3), out, 32, 1.5)
        check_route(k, report, f"decode jpeg {i}", blob, route)
    # the whole set as one batch: nvJPEG takes it in groups of at most two images' scratch
    outs, routes = k.decode_gpu(blobs, 3, routes=True)
    for i, out in enumerate(outs):
        report.compare(f"decode batch jpeg {i}", k.decode(blobs[i], 3), out, 32, 1.5)
        check_route(k, report, f"decode batch jpeg {i}", blobs[i], routes[i])
    # windows of a JPEG with restart markers: nvJPEG gets the smaller JPEG of the intervals
    # covering each (jpeg_restart.h); with the first interval cut short, a far window still
    # decodes on the nvJPEG route, as only its intervals are read
    restart = open(os.path.join(ROOT, "tests", "data", "scene_420_restart.jpg"), "rb").read()
    h, w = k.decode(restart, 3).shape[:2]
    windows = [[h // 2, w // 3, h // 2, w // 2], [17, 0, 40, 33], [0, w - 50, h, 50]]
    # The contract: a window equals the same decoder's full decode, cropped (bit for bit: the
    # margin covers nvJPEG's chroma upsampling too). Against libjpeg only the max bound holds:
    # on small, busy windows nvJPEG's mean difference reaches 1.6 with or without restart
    # markers (measured on an H100, docs/gpu-runs/2026-11-26-h100-b.md).
    (full,) = k.decode_gpu([restart], 3)
    outs, routes = k.decode_gpu([restart] * len(windows), 3, routes=True, windows=windows)
    for (y, x, wh, ww), out, route in zip(windows, outs, routes):
        window = [y, x, wh, ww]
        report.compare(f"decode restart-marked jpeg window {window} = full decode cropped",
                       full[y:y + wh, x:x + ww], out, 0)
        report.compare(f"decode restart-marked jpeg window {window} vs libjpeg", k.decode(restart, 3, window), out, 32)
        report.check(f"restart-marked jpeg window {window} went through nvJPEG", route == "nvjpeg", f"route {route}")
    sos = restart.index(b"\xff\xda")
    scan = sos + 2 + int.from_bytes(restart[sos + 2:sos + 4], "big")
    cut = restart[:scan + 1] + restart[restart.index(b"\xff\xd0", scan):]
    (out,), (route,), (error,) = k.decode_gpu([cut], 3, errors=True, windows=[windows[0]])
    report.check("restart crop: a far window of a file damaged elsewhere", route == "nvjpeg" and error == "",
                 f"route {route}, error {error!r}")
    if not error:
        y, x, wh, ww = windows[0]
        report.compare("restart crop: its pixels = the clean file's full decode, cropped",
                       full[y:y + wh, x:x + ww], out, 0)
    # corrupt JPEGs: the GPU decode reports each one the CPU decoder refuses (and only those)
    baseline = next(blob for blob in blobs if sequential_jpeg(blob))
    for name, cpu, route, gpu in gpu_bad_jpegs.probe(k, baseline):
        report.check(f"bad jpeg: {name}", (cpu == "decoded") == (gpu == "decoded"),
                     f"CPU: {cpu} | GPU via {route}: {gpu}")
    # resize (float output, every method, up and down, with and without antialias)
    for method in ("nearest", "bilinear", "bicubic", "area"):
        for (oh, ow) in ((19, 23), (64, 90)):
            for aa in (False, True):
                report.compare(f"resize {method} {oh}x{ow} aa={aa}", k.resize(images[0], oh, ow, method, aa),
                               k.resize_gpu(images[0], oh, ow, method, aa), 1e-3)
    # one launch per pass over a batch of different sizes (blocks mapped to samples)
    sizes = [np.ascontiguousarray(images[i][: 37 - 5 * i, : 53 - 7 * i]) for i in range(b)]
    for (oh, ow) in ((17, 29), (80, 64)):
        outs = k.resize_batch_gpu(sizes, oh, ow, "bilinear", True)
        for i, out in enumerate(outs):
            report.compare(f"resize batch {oh}x{ow} sample {i}", k.resize(sizes[i], oh, ow, "bilinear", True),
                           out, 1e-3)
    # the resampler's fused epilogue: mirror, normalize, rounded uint8 output
    mean, std = [123.675, 116.28, 103.53], [58.395, 57.12, 57.375]
    for mirror in (False, True):
        args = (images[1], 21, 30, "bilinear", True, mirror)
        report.compare(f"resize epilogue mirror={mirror} normalize", k.resize(*args, mean, std),
                       k.resize_gpu(*args, mean, std), 1e-4)
        # rounding a float that the devices agree on to 1e-3 can differ by one level
        report.compare(f"resize epilogue mirror={mirror} uint8", k.resize(*args, uint8_out=True),
                       k.resize_gpu(*args, uint8_out=True), 1, 0.01)
    # affine warp (the per-pixel loop the GPU runs, on the CPU)
    m = [0.9, 0.2, 3.0, -0.15, 1.05, -2.0]
    for bilinear in (True, False):
        report.compare(f"warp_affine bilinear={bilinear}", k.warp_affine(images[0], m, bilinear, 128.0, True),
                       k.warp_affine_gpu(images[0], m, bilinear, 128.0), 0)
    # a batch in one launch, every channel count (more than 4: the per-pixel buffer the warp
    # once had), its own matrix per sample, another output size
    matrices = np.array([[0.96, 0.29, -7, -0.29, 0.96, 12], [0.7, -0.7, 20, 0.7, 0.7, -10],
                         [1.3, 0.2, -3, 0.1, 0.8, 2], [1, 0, 0, 0, 1, 0]], np.float32)
    for c in (1, 2, 3, 4, 5, 6):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        for bilinear in (True, False):
            got = k.warp_affine_gpu(imgs, matrices, bilinear, 77.0, 29, 41)
            for i in range(b):
                report.compare(f"warp_affine batch channels={c} bilinear={bilinear} sample {i}",
                               k.warp_affine(imgs[i], list(matrices[i]), bilinear, 77.0, True, 29, 41), got[i], 0)
    # remap (cv2.remap's rules, remap.h): every border rule and interpolation, channel counts
    # beyond 4, coordinates far outside the image, NaN, infinite and huge ones, another size
    rng = np.random.default_rng(11)
    h, w = images.shape[1:3]
    maps = np.stack([rng.uniform(-1.5 * w, 2.5 * w, (b, 23, 37)), rng.uniform(-1.5 * h, 2.5 * h, (b, 23, 37))],
                    -1).astype(np.float32)
    maps[:, 0, :4] = [[np.nan, 0], [1e9, 5], [-3e7, np.inf], [4.5, 2.5]]
    for c in (1, 3, 4, 5):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        for border in range(5):
            for bilinear in (True, False):
                report.compare(f"remap channels={c} border={border} bilinear={bilinear}",
                               k.remap(imgs, maps, bilinear, border, 77.0),
                               k.remap_gpu(imgs, maps, bilinear, border, 77.0), 0)
    # affine remap (the map computed in the kernel): rotations and scales about the centre, a
    # shear, a far translation, a NaN matrix; every border rule, another output size
    t = np.radians([0.0, 33.0, -120.0, 90.0])[:b]
    matrices = np.zeros((b, 2, 3), np.float32)
    for i, angle in enumerate(t):
        scale = 0.7 + 0.3 * i
        matrices[i] = [[scale * np.cos(angle), -np.sin(angle) + 0.1 * i, 3.0 - 40.0 * i],
                       [np.sin(angle), scale * np.cos(angle), 1.5 * i]]
    matrices[-1, 1, 2] = np.nan
    for c in (1, 3, 4, 5):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        for border in range(5):
            for bilinear in (True, False):
                report.compare(f"remap_affine channels={c} border={border} bilinear={bilinear}",
                               k.remap_affine(imgs, matrices, 29, 43, bilinear, border, 77.0),
                               k.remap_affine_gpu(imgs, matrices, 29, 43, bilinear, border, 77.0), 0)
    # radial remap (ChromaticAberration's lens maps computed in the kernel): coefficients of both
    # signs, a strong pair, zero (the identity), NaN; every border rule
    coefficients = np.array([[0.02, 0.05], [-0.3, 0.2], [0.0, 0.0], [np.nan, 0.1]], np.float32)[:b]
    for c in (1, 3, 4):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        for border in range(5):
            for bilinear in (True, False):
                report.compare(f"remap_radial channels={c} border={border} bilinear={bilinear}",
                               k.remap_radial(imgs, coefficients, bilinear, border, 77.0),
                               k.remap_radial_gpu(imgs, coefficients, bilinear, border, 77.0), 0)
    # a radial map per channel (ChromaticAberration's red and blue): the CPU copies channels of
    # zero coefficients and remaps the others as planes, the GPU remaps every element
    for c in (1, 3, 4):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        per_channel = np.stack([np.roll(coefficients, -ch, axis=0) for ch in range(c)], axis=1)
        for border in (0, 1, 4):
            for bilinear in (True, False):
                report.compare(f"remap_radial per channel channels={c} border={border} bilinear={bilinear}",
                               k.remap_radial(imgs, per_channel, bilinear, border, 77.0),
                               k.remap_radial_gpu(imgs, per_channel, bilinear, border, 77.0), 0)
    # separable resampling (CropAndPad's tables): indices inside, before and past the image (the
    # fill), weights in [0, 1), nearest rows (weight 0), another output size
    rows = rng.integers(-3, h + 3, (b, 31, 2)).astype(np.int32)
    cols = rng.integers(-3, w + 3, (b, 45, 2)).astype(np.int32)
    row_w, col_w = rng.random((b, 31)).astype(np.float32), rng.random((b, 45)).astype(np.float32)
    row_w[:, ::4] = 0.0
    for c in (1, 3, 4, 5):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        report.compare(f"separable_resample channels={c}",
                       k.separable_resample(imgs, rows, row_w, cols, col_w, 77.0),
                       k.separable_resample_gpu(imgs, rows, row_w, cols, col_w, 77.0), 0)
    # elastic maps: counter-hash noise (normal and uniform), blurred by kernels shorter and far
    # longer than the image (every tap clamped), one field or two, alpha 0, negative seeds
    seeds = np.array([7, -3, 2**31 - 1, 12345], np.int32)[:b]
    alphas = np.array([40.0, 0.0, 1.5, 300.0], np.float32)[:b]
    for sigma, (eh, ew), same, gaussian in ((3.0, (29, 43), False, True), (0.4, (5, 7), False, False),
                                             (50.0, (13, 9), True, True), (6.0, (64, 3), False, False)):
        t = np.arange(int(round(sigma * 8 + 1)) | 1) - (int(round(sigma * 8 + 1)) | 1) // 2
        kern = np.exp(-t * t / (2.0 * sigma * sigma))
        kern = (kern / kern.sum()).astype(np.float32)
        report.compare(f"elastic_maps sigma={sigma} {eh}x{ew} same_dxdy={same} gaussian={gaussian}",
                       k.elastic_maps(seeds, alphas, kern, eh, ew, same, gaussian),
                       k.elastic_maps_gpu(seeds, alphas, kern, eh, ew, same, gaussian), 0)
    # cell maps (GridElasticDeform): owners with every cell, out-of-range owners (NaN), near-identity
    # homographies, a projective one whose last entry is 0, a sample with one cell
    rng = np.random.default_rng(17)
    for (ch, cw), cells in (((23, 31), 6), ((5, 4), 1), ((40, 17), 12)):
        owners = rng.integers(-1, cells + 1, (b, ch, cw)).astype(np.int32)
        matrices = np.tile(np.eye(3), (b, cells, 1, 1)) + rng.normal(0, 0.05, (b, cells, 3, 3))
        matrices[0, 0] = [[0.0084, 0.0, -0.92], [0.0017, 0.0042, -0.39], [1.9e-5, 0.0, 0.0]]
        matrices = np.ascontiguousarray(matrices.reshape(b, cells, 9))
        def flagged(maps):  # NaN where no cell owns the pixel, inf where w is 0: the same on both devices
            return np.nan_to_num(maps, nan=-1e30, posinf=1e30, neginf=-2e30)
        report.compare(f"cell_maps {ch}x{cw} cells={cells}", flagged(k.cell_maps(owners, matrices)),
                       flagged(k.cell_maps_gpu(owners, matrices)), 0)
    # tile shuffle (RandomGridShuffle): a 2 x 3 grid of unequal parts with tiles swapped within
    # their shape groups, a grid with an empty part, the identity
    th, tw = images.shape[1], images.shape[2]
    rows = np.array([[0, th // 2 + 1, th]] * b, np.int32)
    cols = np.array([[0, tw // 3 + 1, 2 * (tw // 3) + 1, tw]] * b, np.int32)
    sources = np.tile(np.arange(6, dtype=np.int32), (b, 1))
    for i in range(b):  # tiles 1 and 2 share a shape only where the parts happen to be equal
        if cols[i, 2] - cols[i, 1] == cols[i, 3] - cols[i, 2]:
            sources[i, [1, 2]] = sources[i, [2, 1]]
        if rows[i, 1] - rows[i, 0] == rows[i, 2] - rows[i, 1]:
            sources[i, [0, 3]] = sources[i, [3, 0]]
    sources[0] = [0, 1, 2, 3, 4, 5]
    for c in (1, 3, 4):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        report.compare(f"tile_shuffle channels={c}", k.tile_shuffle(imgs, rows, cols, sources),
                       k.tile_shuffle_gpu(imgs, rows, cols, sources), 0)
    empty_rows = np.array([[0, 0, th]] * b, np.int32)
    empty_sources = np.tile(np.array([0, 1, 2, 3, 5, 4], np.int32), (b, 1))
    equal_cols = np.array([[0, tw // 3, 2 * (tw // 3), 3 * (tw // 3)]] * b, np.int32)
    crop = np.ascontiguousarray(images[:, :, : 3 * (tw // 3)])
    report.compare("tile_shuffle empty part", k.tile_shuffle(crop, empty_rows, equal_cols, empty_sources),
                   k.tile_shuffle_gpu(crop, empty_rows, equal_cols, empty_sources), 0)
    # unsharp mask (UnsharpMask): OpenCV's fixed 3- and 7-tap kernels and a computed 15-tap one,
    # per-sample amounts and thresholds (0: every pixel passes), an identity kernel, and a
    # kernel longer than the image is wide (reflections wrap more than once)
    fixed3, fixed7 = [0.25, 0.5, 0.25], [0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125]
    x15 = np.arange(15) - 7.0
    g15 = np.exp(-x15 * x15 / (2 * 2.5 ** 2))
    rows15 = [np.pad(fixed3, 6), np.pad(fixed7, 4), g15 / g15.sum(), np.eye(15)[7]]
    weights = np.ascontiguousarray(np.stack([rows15[i % 4] for i in range(b)]).astype(np.float32))
    alphas = np.linspace(0.2, 1.0, b).astype(np.float32)
    thresholds = np.array([10.0, 0.0, 4.0, 10.0] * b, np.float32)[:b]
    for c in (1, 3, 4):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        report.compare(f"unsharp_mask channels={c}", k.unsharp_mask(imgs, weights, alphas, thresholds),
                       k.unsharp_mask_gpu(imgs, weights, alphas, thresholds), 0)
    narrow = np.ascontiguousarray(images[:, :5, :6])
    report.compare("unsharp_mask 15 taps on a 5x6 image", k.unsharp_mask(narrow, weights, alphas, thresholds),
                   k.unsharp_mask_gpu(narrow, weights, alphas, thresholds), 0)
    # per-image filter (Filter2D: AdvancedBlur, Defocus, RingingOvershoot): kernels of several
    # live sides in one batch (zero rings skipped), signed and lopsided ones (saturation, the
    # correlation's orientation), a kernel wider than the image (reflections wrap), a NaN tap
    filter_rng = np.random.default_rng(7)
    for side in (3, 9, 21):
        kernels = np.zeros((b, side, side), np.float32)
        for i in range(b):
            live = [3, side, 5, side][i % 4] if side >= 5 else 3
            a = (side - live) // 2
            kernels[i, a:a + live, a:a + live] = filter_rng.uniform(-0.2, 1.0, (live, live))
            if i % 4 == 2:
                kernels[i, :, : side // 2] = 0.0
            kernels[i] /= kernels[i].sum()
        for c in (1, 3, 4):
            imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
            report.compare(f"filter2d side={side} channels={c}", k.filter2d(imgs, kernels),
                           k.filter2d_gpu(imgs, kernels), 0)
            # the octant path (Defocus, RingingOvershoot): orbits of one, four and eight taps
            # summed in integers, the octant of lopsided kernels too
            report.compare(f"filter2d symmetric side={side} channels={c}", k.filter2d(imgs, kernels, False, True),
                           k.filter2d_gpu(imgs, kernels, False, True), 0)
        narrow = np.ascontiguousarray(images[:, :5, :6])
        for symmetric in (False, True):
            report.compare(f"filter2d side={side} symmetric={symmetric} on a 5x6 image",
                           k.filter2d(narrow, kernels, False, symmetric),
                           k.filter2d_gpu(narrow, kernels, False, symmetric), 0)
    # the octant path's widest frame on rows of 32-element steps, 16-element steps and single
    # elements (37 x 3 = 111 bytes a row)
    wide_kernels = filter_rng.uniform(-0.01, 0.03, (b, 63, 63)).astype(np.float32)
    odd_rows = filter_rng.integers(0, 256, (b, 9, 37, 3), dtype=np.uint8)
    report.compare("filter2d symmetric side=63 on a 9x37 image", k.filter2d(odd_rows, wide_kernels, False, True),
                   k.filter2d_gpu(odd_rows, wide_kernels, False, True), 0)
    # the octant path's plateau (taps equal to the centre, summed from column prefix sums on the
    # CPU): Defocus-like discs softened at the rim, radii 2-10 in a 21 frame, and a kernel whose
    # centre-valued runs are not closed under the transpose (no plateau: every orbit on its own)
    discs = np.stack([_softened_disc((2, 5, 8, 10)[i % 4], 21) for i in range(b)])
    report.compare("filter2d symmetric plateau discs", k.filter2d(images, discs, False, True),
                   k.filter2d_gpu(images, discs, False, True), 0)
    report.compare("filter2d symmetric plateau discs on a 9x37 image", k.filter2d(odd_rows, discs, False, True),
                   k.filter2d_gpu(odd_rows, discs, False, True), 0)
    octant = {(0, 0): 1.0, (1, 0): 1.0, (1, 1): 0.5, (2, 0): 1.0, (2, 1): 1.0, (2, 2): 0.3}
    open_runs = np.array([[octant[max(abs(i), abs(j)), min(abs(i), abs(j))] for j in range(-2, 3)]
                          for i in range(-2, 3)], np.float32)
    open_runs = np.tile((open_runs / open_runs.sum())[None], (b, 1, 1))
    report.compare("filter2d symmetric runs not closed", k.filter2d(images, open_runs, False, True),
                   k.filter2d_gpu(images, open_runs, False, True), 0)
    bad = np.zeros((b, 3, 3), np.float32)
    bad[:, 1, 1] = 1.0
    bad[0, 0, 0] = np.nan
    report.compare("filter2d NaN tap", k.filter2d(images, bad), k.filter2d_gpu(images, bad), 0)
    bad[0, 2, 2] = np.nan  # in the octant
    report.compare("filter2d symmetric NaN tap", k.filter2d(images, bad, False, True),
                   k.filter2d_gpu(images, bad, False, True), 0)
    # ties rounded up (cv2.GaussianBlur's 8-bit rounding): binomial taps in 1/16ths, whose sums
    # often end in half a level, and OpenCV's 8-bit Gaussian taps in 1/256ths
    binomial = np.tile((np.outer([1, 2, 1], [1, 2, 1]) / 16.0).astype(np.float32)[None], (b, 1, 1))
    taps8 = np.array([2, 53, 146, 53, 2], np.float64)
    gaussian8 = np.tile((np.outer(taps8, taps8) / 65536.0).astype(np.float32)[None], (b, 1, 1))
    for name, kern in (("binomial 3", binomial), ("8-bit gaussian 5", gaussian8)):
        for symmetric in (False, True):
            report.compare(f"filter2d ties up {name} symmetric={symmetric}", k.filter2d(images, kern, True, symmetric),
                           k.filter2d_gpu(images, kern, True, symmetric), 0)
    # per-pixel level tables (LevelTables: RandomShadow, RandomRain, RandomFog): one set for the
    # batch or one per image, one table for every channel or one each, row indices out of range
    # on both sides (clamped), no rows at all
    table_rng = np.random.default_rng(8)
    h_, w_ = images.shape[1:3]
    rows = table_rng.integers(-2, 6, (b, h_, w_)).astype(np.int32)
    none = np.zeros([0], np.int32)
    shared = table_rng.integers(0, 256, (1, 4, 1, 256)).astype(np.uint8)
    report.compare("level_tables shared, rows clamped", k.level_tables(images, shared, rows),
                   k.level_tables_gpu(images, shared, rows), 0)
    for c in (1, 3, 4):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        own = table_rng.integers(0, 256, (b, 3, c, 256)).astype(np.uint8)
        report.compare(f"level_tables per image and channel channels={c}", k.level_tables(imgs, own, rows),
                       k.level_tables_gpu(imgs, own, rows), 0)
        report.compare(f"level_tables no rows channels={c}", k.level_tables(imgs, own, none),
                       k.level_tables_gpu(imgs, own, none), 0)
    # in place: the op writes over its input when TensorFlow forwards the input's buffer
    report.compare("level_tables in place, rows clamped", k.level_tables(images, shared, rows),
                   k.level_tables_gpu(images, shared, rows, in_place=True), 0)
    report.compare("level_tables in place, per image, no rows", k.level_tables(imgs, own, none),
                   k.level_tables_gpu(imgs, own, none, in_place=True), 0)
    # 8-bit HLS lightness edit (HlsLightness: RandomSnow, RandomGravel): tables with kept (-1)
    # entries, levels below 0 and above 255, every grey and the pure hues in the image
    hls_images = images.copy()
    hls_images[0, 0, : min(w_, 256)] = np.arange(min(w_, 256), dtype=np.uint8)[:, None]
    hls_images[1, 0, :6] = [[255, 0, 0], [255, 255, 0], [0, 255, 0], [0, 255, 255], [0, 0, 255], [255, 0, 255]]
    lightness_tables = table_rng.integers(-1, 300, (b, 256)).astype(np.int32)
    levels = np.where(table_rng.uniform(size=(b, h_, w_)) < 0.3, table_rng.integers(-3, 300, (b, h_, w_)),
                      -1).astype(np.int32)
    report.compare("hls_lightness tables", k.hls_lightness(hls_images, lightness_tables, none),
                   k.hls_lightness_gpu(hls_images, lightness_tables, none), 0)
    keep = -np.ones((1, 256), np.int32)
    report.compare("hls_lightness levels over a shared table", k.hls_lightness(hls_images, keep, levels),
                   k.hls_lightness_gpu(hls_images, keep, levels), 0)
    report.compare("hls_lightness levels and tables", k.hls_lightness(hls_images, lightness_tables, levels),
                   k.hls_lightness_gpu(hls_images, lightness_tables, levels), 0)
    # span raster (SpanRaster: shadow polygons, fog discs, rain drops, gravel): spans off the
    # plane, reversed and empty, values of both signs summed (atomics in any order) or maxed,
    # box sums wider than the plane (reflect-101 more than once); more spans than the grid cap
    span_rng = np.random.default_rng(9)
    every = (("sum", 1), ("max", 1), ("sum", 3), ("max", 9), ("last", 1), ("last", 3))
    for sh, sw, count, longest, combos in ((h_, w_, 300, w_ // 2, every), (5, 7, 40, 4, every),
                                           (64, 80, 1_100_000 // b, 4, (("sum", 1), ("max", 3), ("last", 1)))):
        span_rows = span_rng.integers(-2, sh + 2, (b, count))
        span_starts = span_rng.integers(-4, sw + 2, (b, count))
        span_stops = span_starts + span_rng.integers(-2, longest, (b, count))
        span_values = span_rng.integers(-3, 40, (b, count))
        spans = np.stack([span_rows, span_starts, span_stops, span_values]).astype(np.int32)
        for combine, box in combos:
            fill = {"sum": 5, "max": 2, "last": -1}[combine]
            report.compare(f"span_raster {combine} box={box} fill={fill} {sh}x{sw} spans={count}",
                           k.span_raster(spans, sh, sw, combine, box, fill),
                           k.span_raster_gpu(spans, sh, sw, combine, box, fill), 0)
    # line raster (LineRaster: rain drops): every slope and direction, lines leaving the plane
    # on every side and from int32's far ends (64-bit walk products), points, several lines
    # over one pixel (sum in any atomic order, max, last painter); more (line, row) pairs than
    # the grid cap
    line_rng = np.random.default_rng(10)
    line_sizes = ((h_, w_, 60), (5, 7, 12), (240, 64, 1_100_000 // (b * 240) + 1))
    for sh, sw, count in line_sizes:
        ends = line_rng.integers(-6, max(sh, sw) + 6, (4, b, count))
        ends[:, 0, :2] = [[-2 ** 31, 3], [-2 ** 31, -2 ** 31], [2 ** 31 - 1, 3], [2 ** 31 - 1, 2 ** 31 - 1]]
        lines = np.concatenate([ends, line_rng.integers(-3, 40, (1, b, count))]).astype(np.int32)
        for combine, box, span_width in (("sum", 1, 1), ("max", 3, 2), ("last", 1, 3), ("sum", 5, 1)):
            fill = {"sum": 5, "max": 0, "last": -1}[combine]
            report.compare(f"line_raster {combine} box={box} width={span_width} {sh}x{sw} lines={count}",
                           k.line_raster(lines, sh, sw, span_width, combine, box, fill),
                           k.line_raster_gpu(lines, sh, sw, span_width, combine, box, fill), 0)
    # per-channel level histograms (ChannelHistograms: HistogramMatching): shared-memory counts
    # for 1, 3 and 4 channels, global ones for 6; an odd pixel count; more pixels than the grid
    for c in (1, 3, 4, 6):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        report.compare(f"channel_histograms channels={c}", k.channel_histograms(imgs),
                       k.channel_histograms_gpu(imgs), 0)
    odd = np.ascontiguousarray(images[:, :5, :7])
    report.compare("channel_histograms 5x7", k.channel_histograms(odd), k.channel_histograms_gpu(odd), 0)
    # GlassBlur's swaps (GlassSwaps): chosen pixels with several choosers (the last chooser's
    # bid must win whatever order the atomics run in), skipped samples, 1 to 5 channels, an
    # image with no interior, more choosers than the grid cap
    glass_seeds, glass_apply = np.array([3, -9, 2 ** 31 - 1, 40], np.int32)[:b], np.array([1, 1, 0, 1], np.uint8)[:b]
    for c, m, rounds in ((1, 1, 3), (3, 4, 2), (4, 2, 1), (5, 3, 2)):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        report.compare(f"glass_swaps channels={c} max_delta={m} iterations={rounds}",
                       k.glass_swaps(imgs, glass_seeds, glass_apply, m, rounds),
                       k.glass_swaps_gpu(imgs, glass_seeds, glass_apply, m, rounds), 0)
    thin = np.ascontiguousarray(images[:, :8])
    report.compare("glass_swaps no interior", k.glass_swaps(thin, glass_seeds, glass_apply, 4, 2),
                   k.glass_swaps_gpu(thin, glass_seeds, glass_apply, 4, 2), 0)
    wide = np.random.default_rng(12).integers(0, 256, (b, 700, 500, 1), dtype=np.uint8)
    report.compare("glass_swaps past the grid cap", k.glass_swaps(wide, glass_seeds, glass_apply, 4, 1),
                   k.glass_swaps_gpu(wide, glass_seeds, glass_apply, 4, 1), 0)
    # ZoomBlur: 1 to 5 channels, a sample left alone (max factor 1) and one with a bad step, many
    # zooms and few, images of 1 x 1 and wider than the grid cap; float for float the CPU's sums
    zoom_max = np.array([1.31, 1.0, 1.7, 1.2], np.float64)[:b]
    zoom_steps = np.array([0.013, 0.02, 0.05, np.nan], np.float64)[:b]
    compare_channels_and_sizes(report, "zoom_blur", lambda x: k.zoom_blur(x, zoom_max, zoom_steps),
                               lambda x: k.zoom_blur_gpu(x, zoom_max, zoom_steps), images, (1, 3, 4, 5),
                               ((1, 1), (3, 700), (400, 300)))
    # Superpixels: 1, 3 and 4 channels; counts of 1, some, more than the pixels (step 1) and one
    # beyond the flags (clamped); a sample with no flag set; a thin image no centre fits (one
    # segment); labels and means decided by the same float64 distances as the CPU's
    sp_counts = np.array([1, 30, 5000, 12], np.int32)[:b]
    sp_flags = np.random.default_rng(21).random((b, 40)) < 0.5
    sp_flags[:, 0] = True
    sp_flags[b - 1] = False
    compare_channels_and_sizes(report, "superpixels", lambda x: k.superpixels(x, sp_counts, sp_flags),
                               lambda x: k.superpixels_gpu(x, sp_counts, sp_flags), images, (1, 3, 4),
                               ((1, 16), (2, 3), (90, 70)))
    # RandomSunFlare "physics_based" (SeparableBlur): float planes blurred by the flare's sigma 15
    # kernel (121 taps), by three per-plane kernels (zero-padded, one a single tap) and by a
    # lopsided one; sides shorter than the kernel (repeated reflections) and of one value
    wide = np.exp(-np.arange(-60, 61) ** 2 / 450.0).astype(np.float32)
    wide /= wide.sum()
    per_plane = np.zeros((3, 41), np.float32)
    per_plane[0, 8:33] = np.exp(-np.arange(-12, 13) ** 2 / 18.0)
    per_plane[1, 20] = 1.0
    per_plane[2] = np.exp(-np.arange(-20, 21) ** 2 / 50.0)
    lopsided = np.random.default_rng(17).random((2, 9)).astype(np.float32)
    lopsided[1, :3] = 0.0
    for bh, bw in ((37, 53), (1, 1), (2, 130), (90, 7)):
        planes = np.random.default_rng(bh * bw).random((6, bh, bw)).astype(np.float32) * 255
        for name, kern in (("sigma 15", wide[None]), ("per plane", per_plane), ("lopsided", lopsided)):
            report.compare(f"separable_blur {name} {bh}x{bw}", k.separable_blur(planes, kern),
                           k.separable_blur_gpu(planes, kern), 0)
    # level rows (the CPU's row pass sums one value for a row of one value): constant planes, rows
    # of one value but for a pixel, rows of +0 and -0, a level plane with two uneven pixels; bit
    # for bit (signed zeros too)
    for bh, bw in ((37, 53), (1, 1), (90, 7)):  # 53: the CPU's sixteen-a-step scan and a tail
        rng = np.random.default_rng(bh * bw + 1)
        planes = np.repeat(rng.random((6, bh, 1)).astype(np.float32) * 255, bw, axis=2)
        planes[0] = 200.0
        planes[1, ::3, bw // 2] += 1.0
        planes[2, ::2] = np.where(np.arange(bw) % 2 == 0, 0.0, -0.0)
        planes[4] = 250.0  # two uneven pixels
        planes[4, min(5, bh - 1), min(20, bw - 1)] = 10.0
        planes[4, bh - 1, bw - 1] = 0.0
        for name, kern in (("sigma 15", wide[None]), ("per plane", per_plane), ("lopsided", lopsided)):
            report.compare(f"separable_blur level rows {name} {bh}x{bw}",
                           np.asarray(k.separable_blur(planes, kern)).view(np.uint32),
                           np.asarray(k.separable_blur_gpu(planes, kern)).view(np.uint32), 0)
    # RandomSunFlare "physics_based" after the painting (FlareBlend): packed layers of random
    # colours, the fade around suns inside and outside the image, a 121-tap flare kernel and the
    # method's second-blur kernels, a sample left alone
    second = np.zeros((3, 41), np.float32)
    second[0, 8:33] = np.exp(-np.arange(-12, 13) ** 2 / 18.0) / np.exp(-np.arange(-12, 13) ** 2 / 18.0).sum()
    second[1, 20] = 1.0
    second[2] = np.exp(-np.arange(-20, 21) ** 2 / 50.0) / np.exp(-np.arange(-20, 21) ** 2 / 50.0).sum()
    for bh, bw in ((37, 53), (1, 1), (90, 7)):
        rng = np.random.default_rng(bh + bw)
        imgs = rng.integers(0, 256, (3, bh, bw, 3), dtype=np.uint8)
        packed = rng.integers(0, 1 << 24, (3, bh, bw)).astype(np.int32)
        suns = np.array([[bw // 2, bh // 3], [-30, 2 * bh], [bw - 1, 0]], np.int32)
        flags = np.array([True, False, True])
        report.compare(f"flare_blend {bh}x{bw}", k.flare_blend(imgs, packed, suns, flags, wide, second),
                       k.flare_blend_gpu(imgs, packed, suns, flags, wide, second), 0)
        # the method's layer where its sun's disc covers the image: one colour but for a few circles
        sunny = np.full((3, bh, bw), 0xF0E0FF, np.int32)
        sunny[:, rng.integers(0, bh, 4), rng.integers(0, bw, 4)] = 0x203040
        report.compare(f"flare_blend sun everywhere {bh}x{bw}",
                       k.flare_blend(imgs, sunny, suns, flags, wide, second),
                       k.flare_blend_gpu(imgs, sunny, suns, flags, wide, second), 0)
    # HEStain "vahadane" (StainNmf): RGB images of three sizes, one blank (no density: NaN rows, kept
    # as a distinct value for the comparison), a 1x1; the sums folded in the CPU's lane order
    densities = -np.log(np.maximum(np.arange(256, dtype=np.float32) / 255, 1e-6))
    for nh, nw in ((37, 53), (1, 1), (90, 70)):
        imgs = np.random.default_rng(nh).integers(20, 256, (b, nh, nw, 3), dtype=np.uint8)
        imgs[b - 1] = 255
        report.compare(f"stain_nmf {nh}x{nw}", np.nan_to_num(k.stain_nmf(imgs, densities), nan=-9.0),
                       np.nan_to_num(k.stain_nmf_gpu(imgs, densities), nan=-9.0), 0)
    # HEStain "macenko" (TissuePlane): RGB batches of three sizes, one blank (no tissue: a zero
    # covariance, the unit vectors), a 1x1; sums in the CPU's lane order, so the same bits
    for th, tw in ((37, 53), (1, 1), (90, 70)):
        imgs = np.random.default_rng(th + 5).integers(30, 256, (b, th, tw, 3), dtype=np.uint8)
        imgs[b - 1] = 250
        cpu_plane, gpu_plane = k.tissue_plane(imgs, densities), k.tissue_plane_gpu(imgs, densities)
        for name, x, y in zip(("planes", "coordinates", "keys", "tissue", "counts"), cpu_plane, gpu_plane):
            report.compare(f"tissue_plane {th}x{tw} {name}", x, y, 0)
    # HEStain (HeStain): the eight presets' matrices and projections over a batch, scales and
    # shifts drawn, one sample not applied, with and without the background; the rounding read off
    # the same tables on both devices
    he_s = np.array([[[0.644211, 0.716556, 0.266844], [0.092789, 0.954111, 0.283111]],
                     [[0.65, 0.70, 0.29], [0.07, 0.99, 0.11]], [[0.55, 0.88, 0.11], [0.12, 0.86, 0.49]],
                     [[0.57, 0.71, 0.38], [0.15, 0.89, 0.42]]], np.float32)[:b]
    he_corr = (he_s @ he_s.transpose(0, 2, 1)).astype(np.float64) + 1e-6 * np.eye(2)
    he_p = np.linalg.solve(he_corr, he_s.astype(np.float64))
    he_rng = np.random.default_rng(31)
    he_scale, he_shift = he_rng.uniform(0.6, 1.4, (b, 2)), he_rng.uniform(-0.3, 0.3, (b, 2))
    he_apply = np.arange(b) != 1
    he_t = np.log(255.0 / (np.arange(1, 256) - 0.5))
    he_cells = (he_t[None, :] >= (np.arange(3226) / 512.0)[:, None]).sum(axis=1).astype(np.uint8)
    for background in (False, True):
        for hh, hw in ((37, 53), (1, 1), (64, 700)):
            imgs = np.random.default_rng(hh).integers(0, 256, (b, hh, hw, 3), dtype=np.uint8)
            args = (imgs, densities, he_t, he_cells, he_p, he_s.astype(np.float64), he_scale, he_shift, he_apply,
                    background)
            report.compare(f"he_stain {hh}x{hw} background={background}", k.he_stain(*args), k.he_stain_gpu(*args), 0)
    # RandomSunFlare (SunFlare): overlapping circles, ones off the image and unused ones, a sample
    # whose sun weights are all 0, 1 to 4 channels, no sun discs, a 400x300 batch past the grid cap
    def flare_arguments(c, h, w, m, seed):
        rng = np.random.default_rng(seed)
        circles = np.stack([rng.integers(-20, w + 20, (b, 6)), rng.integers(-20, h + 20, (b, 6)),
                            rng.choice([-1, 0, 1, 8, 27, 300], (b, 6))], -1).astype(np.int32)
        alpha = rng.uniform(0.05, 0.2, (b, 6))
        weights = np.stack([alpha, 1 - alpha], -1).astype(np.float32)
        colours = rng.integers(150, 256, (b, 6, c), dtype=np.uint8)
        suns = np.stack([rng.integers(0, w, b), rng.integers(0, h, b)], -1).astype(np.int32)
        radii = np.linspace(1, 2 * max(h, w), m).astype(np.int32)
        sun_alpha = np.linspace(0.0, 0.9, m)[None, ::-1] ** 3 * np.array([1, 0, 0.5, 1])[:b, None]
        sun_weights = np.stack([sun_alpha, 1 - sun_alpha], -1).astype(np.float32)
        return circles, weights, colours, suns, radii, sun_weights, rng.integers(200, 256, c, dtype=np.uint8)
    for c, m in ((1, 40), (3, 40), (4, 7), (3, 0)):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        flare = flare_arguments(c, imgs.shape[1], imgs.shape[2], m, c + m)
        report.compare(f"sun_flare channels={c} discs={m}", k.sun_flare(imgs, *flare), k.sun_flare_gpu(imgs, *flare), 0)
    big = np.random.default_rng(13).integers(0, 256, (b, 400, 300, 3), dtype=np.uint8)
    flare = flare_arguments(3, 400, 300, 40, 13)
    report.compare("sun_flare 400x300", k.sun_flare(big, *flare), k.sun_flare_gpu(big, *flare), 0)
    # Spatter "mud" (SpatterMud): drops at OpenCV's kernels, a cutout nothing passes (the
    # seeded permutation's tenth of the pixels), every pixel marked, sigma 0 (one-tap frames), a
    # sample left alone, a colour channel of 0; 1x1, 3x2, frames far wider than the image, 400x300
    def gaussian_frame(sigma, frame, f32):
        side = (int(round(sigma * 8 + 1)) | 1) if f32 else int(2 * round(3 * sigma) + 1)
        x = np.arange(side) - (side - 1) / 2
        t = np.exp((-0.5 / (sigma * sigma) * x) * x) if sigma > 0 else np.ones(1)
        t = t.astype(np.float32).astype(np.float64) if f32 else t
        out = np.zeros(frame)
        out[(frame - side) // 2:(frame + side) // 2] = t / t.sum()
        return out.astype(np.float32 if f32 else np.float64)

    def spatter_arguments(sigmas, cutouts, intensities):
        sig = np.array(sigmas)[:b]
        params = np.stack([np.full(b, 0.65), np.full(b, 0.3), np.array(cutouts)[:b], np.array(intensities)[:b]], 1)
        t1 = np.stack([gaussian_frame(sg, 2 * round(3 * sig.max()) + 1, False) for sg in sig])
        t2 = np.stack([gaussian_frame(sg, int(round(sig.max() * 8 + 1)) | 1, True) for sg in sig])
        return params, np.array([3, -77, 2 ** 31 - 1, 0], np.int32)[:b], t1, t2
    spatter_cases = (("drops", (2.0, 1.0, 3.0, 0.5), (0.68, 0.62, 0.7, 0.66), (0.6, 1.0, 0.0, 0.3)),
                     ("fallback, all marked, sigma 0", (2.0, 0.0, 1.5, 0.0), (1.0, -0.1, 1.0, 0.9),
                      (0.6, 0.5, 1.0, 1.0)))
    for name, sigmas, cutouts, intensities in spatter_cases:
        for sh, sw in ((h_, w_), (1, 1), (3, 2)) + (() if small else ((400, 300),)):
            imgs = np.random.default_rng(sh * sw).integers(0, 256, (b, sh, sw, 3), dtype=np.uint8)
            if (sh, sw) == (h_, w_):
                imgs = np.ascontiguousarray(images[..., :3])
            args = spatter_arguments(sigmas, cutouts, intensities) + (np.array([20.0, 0.0, 63.0]),)
            report.compare(f"spatter_mud {name} {sh}x{sw}", k.spatter_mud(imgs, *args),
                           k.spatter_mud_gpu(imgs, *args), 0)
    # Spatter "rain" (SpatterRain): edges at four sigmas, a cutout nothing passes (no edges: every
    # distance truncated), a sample left alone; the same sizes (1x1: Sobel, reflect-101 on one pixel)
    rain_cases = (("drops", (2.0, 1.0, 3.0, 0.5), (0.68, 0.62, 0.7, 0.66), (0.6, 1.0, 0.9, 0.3)),
                  ("no edges, left alone", (2.0, 0.0, 1.5, 1.0), (1.0, 0.6, 0.65, 0.7), (0.6, 0.5, 0.0, 1.0)))
    for name, sigmas, cutouts, intensities in rain_cases:
        for sh, sw in ((h_, w_), (1, 1), (3, 2)) + (() if small else ((400, 300),)):
            imgs = np.random.default_rng(sh * sw + 1).integers(0, 256, (b, sh, sw, 3), dtype=np.uint8)
            if (sh, sw) == (h_, w_):
                imgs = np.ascontiguousarray(images[..., :3])
            params, seeds, t1, _ = spatter_arguments(sigmas, cutouts, intensities)
            args = (params, seeds, t1, np.array([238.0, 238.0, 175.0]))
            report.compare(f"spatter_rain {name} {sh}x{sw}", k.spatter_rain(imgs, *args),
                           k.spatter_rain_gpu(imgs, *args), 0)
    # plasma fractals (PlasmaPattern: PlasmaBrightnessContrast, PlasmaShadow): every step's
    # kernels (old points, diamonds, edges with zero borders, per-sample bounds), crops of the
    # last grid, no step at all (3 x 3), a flat 1 x 1; more points than the grid cap
    plasma_seeds = np.array([0, 11, -5, 2 ** 31 - 1], np.int32)[:b]
    plasma_sizes = ((h_, w_, 3.0), (3, 2, 3.0), (1, 1, 1.0), (224, 224, 0.5)) + (() if small else ((600, 520, 3.0),))
    for ph, pw, rough in plasma_sizes:
        report.compare(f"plasma_pattern {ph}x{pw} roughness={rough}", k.plasma_pattern(plasma_seeds, ph, pw, rough),
                       k.plasma_pattern_gpu(plasma_seeds, ph, pw, rough), 0)
    # plasma blends (PatternBlend): the shadow per byte; the brightness-contrast's per-sample
    # fixed-point means (block sums then atomics, any order), signed factors, 1/3/4 channels;
    # a sample past 64 blocks of the mean's grid
    blend_rng = np.random.default_rng(13)
    blend_factors = np.array([[0.3, 0.2], [0.7, -0.3], [0.0, 0.0], [-0.5, 1.0]], np.float32)[:b]
    for c in (1, 3, 4):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        pats = blend_rng.uniform(0, 1, imgs.shape[:3]).astype(np.float32)
        for mode in ("shadow", "brightness_contrast"):
            report.compare(f"pattern_blend {mode} channels={c}", k.pattern_blend(imgs, pats, blend_factors, mode),
                           k.pattern_blend_gpu(imgs, pats, blend_factors, mode), 0)
    big = blend_rng.integers(0, 256, (b, 300, 250, 3), dtype=np.uint8)
    big_pats = blend_rng.uniform(0, 1, big.shape[:3]).astype(np.float32)
    report.compare("pattern_blend brightness_contrast 300x250",
                   k.pattern_blend(big, big_pats, blend_factors, "brightness_contrast"),
                   k.pattern_blend_gpu(big, big_pats, blend_factors, "brightness_contrast"), 0)
    # flip, per-sample flags
    hz, vt = np.array([1, 0, 1, 0], bool), np.array([0, 0, 1, 1], bool)
    for c in (1, 2, 3, 4):  # whole pixels moved as 1-, 2- and 4-byte words
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        report.compare(f"flip channels={c}", k.flip(imgs, hz, vt), k.flip_gpu(imgs, hz, vt), 0)
    # more pixels than the grid's threads (GridBlocks caps at 4096 x 256): every grid-stride
    # loop runs more than once
    big = rng.integers(0, 256, (4, 512, 520, 1), dtype=np.uint8)
    for c in (1, 4):
        imgs = np.ascontiguousarray(np.repeat(big, c, -1))
        report.compare(f"flip past the grid cap channels={c}", k.flip(imgs, hz, vt), k.flip_gpu(imgs, hz, vt), 0)
    report.compare("channel_histograms past the grid cap", k.channel_histograms(big),
                   k.channel_histograms_gpu(big), 0)
    wide = np.ascontiguousarray(np.repeat(big, 6, -1))
    report.compare("channel_histograms past the grid cap channels=6", k.channel_histograms(wide),
                   k.channel_histograms_gpu(wide), 0)
    # crop-mirror-normalize in every layout and dtype (16-bit outputs compared as bits)
    offsets = np.array([[0, 0], [3, 5], [10, 20], [7, 1]], np.int32)
    mirror = np.array([0, 1, 0, 1], bool)
    mean, std = [123.675, 116.28, 103.53], [58.395, 57.12, 57.375]
    for nchw in (False, True):
        for dtype in ("float32", "float16", "bfloat16"):
            for pad in (False, True):
                args = (images, 24, 30, offsets, mirror, mean, std, nchw, dtype, pad)
                report.compare(f"crop_mirror_normalize nchw={nchw} {dtype} pad={pad}",
                               k.crop_mirror_normalize(*args), k.crop_mirror_normalize_gpu(*args), 0)
    # every augment op on 1, 2 and 4 channels (histograms of the 4th channel too)
    for c in (1, 2, 4):
        imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
        for op in augment_op_ids(k):
            ops = np.full((b, 1), op, np.int32)
            params, aux = np.full((b, 1), 4.0, np.float32), rng.random((b, 1, 2), dtype=np.float32)
            report.compare(f"augment channels={c} op {op}", k.augment_batch(imgs, ops, params, aux, 128.0, True),
                           k.augment_batch_gpu(imgs, ops, params, aux, 128.0, True), 0)
    # hsv_shift with saturation and value shifts in levels (the loops below draw aux in [0, 1),
    # which truncate to no shift), on 3 and 4 channels
    hsv = np.full((b, 1), 30, np.int32)  # hsv_shift's id in cc/kernels/augment/augment.h
    for hue, sat, val in ((-33.0, 25.5, -40.2), (12.6, -60.0, 35.0)):
        aux = np.tile(np.array([[[sat, val]]], np.float32), (b, 1, 1))
        for c in (3, 4):
            imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
            report.compare(f"augment hsv_shift ({hue}, {sat}, {val}) channels={c}",
                           k.augment_batch(imgs, hsv, np.full((b, 1), hue, np.float32), aux, 128.0, True),
                           k.augment_batch_gpu(imgs, hsv, np.full((b, 1), hue, np.float32), aux, 128.0, True), 0)
    # clahe with explicit tile grids (the loops below draw aux in [0, 1): the default 8 x 8), on
    # grids that divide the image and ones that make the kernel extend it, clip limits 0 (none) to 40
    clahe = np.full((b, 1), 33, np.int32)  # clahe's id in cc/kernels/augment/augment.h
    odd = np.ascontiguousarray(images[:, :37, :29])
    for tiles, limit in (((3, 5), 2.5), ((16, 16), 40.0), ((1, 2), 0.0), ((4, 4), 1.0)):
        aux = np.tile(np.array([[tiles]], np.float32), (b, 1, 1))
        for c in (1, 3, 4):
            for name, src in (("", images), (" 37x29", odd)):
                imgs = np.ascontiguousarray(np.concatenate([src, src], -1)[..., :c])
                limits = np.full((b, 1), limit, np.float32)
                report.compare(f"augment clahe tiles={tiles} clip={limit} channels={c}{name}",
                               k.augment_batch(imgs, clahe, limits, aux, 128.0, True),
                               k.augment_batch_gpu(imgs, clahe, limits, aux, 128.0, True), 0)
    # tone_curve on one channel at a time (its per_channel stages: aux[1] = channel + 1)
    tone = np.full((b, 1), 31, np.int32)  # tone_curve's id in cc/kernels/augment/augment.h
    imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :4])
    for channel in (1, 2, 3, 4):
        aux = np.tile(np.array([[[0.8, float(channel)]]], np.float32), (b, 1, 1))
        lows = np.full((b, 1), 0.1, np.float32)
        report.compare(f"augment tone_curve channel {channel - 1} of 4",
                       k.augment_batch(imgs, tone, lows, aux, 128.0, True),
                       k.augment_batch_gpu(imgs, tone, lows, aux, 128.0, True), 0)
    # the stages that replace bytes with their own aux numbers (the loops here draw aux in [0, 1),
    # levels 0 or 1): random levels (aux[1] < 0), a fixed level, channel bits with a level, salt
    # shares, multiplicative noise's greatest factors; ids of cc/kernels/augment/augment.h (sepia 34
    # .. salt_and_pepper 38, multiplicative_noise 41 and its per-channel form 42, shot_noise 43 at a
    # scale whose bright means take the normal approximation and one whose means all invert,
    # channel_multiply 44 with a factor per channel, and the additive noise stages 45-50: uniform,
    # normal, Laplace, each a value a byte then a value a pixel; scale in levels, location aux[1])
    for op, param, second in ((36, 0.3, -1.0), (37, 0.4, -1.0), (36, 0.2, 200.0), (35, 6.0, 77.0),
                              (38, 0.3, 0.6), (34, 0.0, 0.0), (41, 0.5, 1.7), (42, 0.8, 1.3), (41, 1.2, 1.2),
                              (43, 0.2, 0.0), (43, 0.005, 0.0), (44, 1.4, 0.6), (45, 30.0, -5.0), (46, 30.0, 4.0),
                              (47, 20.0, 2.0), (48, 25.0, 0.0), (49, 10.0, -3.0), (50, 12.0, 0.0)):
        aux = np.stack([rng.random(b, dtype=np.float32), np.full(b, second, np.float32)], -1)[:, None, :]
        params = np.full((b, 1), param, np.float32)
        ops = np.full((b, 1), op, np.int32)
        for c in (1, 3, 4):
            imgs = np.ascontiguousarray(np.concatenate([images, images], -1)[..., :c])
            report.compare(f"augment op {op} param={param} aux[1]={second} channels={c}",
                           k.augment_batch(imgs, ops, params, aux, 128.0, True),
                           k.augment_batch_gpu(imgs, ops, params, aux, 128.0, True), 0)
    # the illumination stages (51 linear: angle in turns, the multiples of 1/8 taking the ramp and
    # diagonal rules; 52 corner: floor(4 aux[0]); 53 gaussian: centre 4096 qx + qy, sigma aux[1]),
    # intensities per sample of both signs, on the batch and on an odd 37 x 29 crop
    signs = np.where(np.arange(b) % 2 == 0, 1.0, -1.0).astype(np.float32)
    turns = np.array([0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875], np.float32)
    for op, first, second in ((51, turns[np.arange(b) % 8], 0.0), (51, rng.random(b, dtype=np.float32), 0.0),
                              (52, rng.random(b, dtype=np.float32), 0.0),
                              (53, np.float32(2047 * 4096 + 1000) + 0 * signs, 0.45),
                              (53, (rng.integers(0, 4096, b) * 4096 + rng.integers(0, 4096, b)).astype(np.float32),
                               0.2)):
        aux = np.stack([np.asarray(first, np.float32), np.full(b, second, np.float32)], -1)[:, None, :]
        params = (signs * (0.05 + 0.15 * rng.random(b, dtype=np.float32)))[:, None]
        ops = np.full((b, 1), op, np.int32)
        for c in (1, 3, 4):
            for name, src in (("", images), (" 37x29", images[:, :37, :29])):
                imgs = np.ascontiguousarray(np.concatenate([src, src], -1)[..., :c])
                report.compare(f"augment illumination op {op} aux[1]={second} channels={c}{name}",
                               k.augment_batch(imgs, ops, params, aux, 128.0, True),
                               k.augment_batch_gpu(imgs, ops, params, aux, 128.0, True), 0)
    # dihedral (39) on square images, every code per sample (the generic loops' images are not
    # square, where a transpose is left out)
    square = np.ascontiguousarray(images[:, :29, :29])
    codes = (np.arange(b) % 8).astype(np.float32)[:, None]
    for c in (1, 3, 4):
        imgs = np.ascontiguousarray(np.concatenate([square, square], -1)[..., :c])
        for shift in range(0, 8, max(1, b)):
            dihedral = np.full((b, 1), 39, np.int32)
            report.compare(f"augment dihedral codes {shift}.. channels={c}",
                           k.augment_batch(imgs, dihedral, (codes + shift) % 8, np.zeros((b, 1, 2), np.float32),
                                           128.0, True),
                           k.augment_batch_gpu(imgs, dihedral, (codes + shift) % 8,
                                               np.zeros((b, 1, 2), np.float32), 128.0, True), 0)
    # the launcher's pass gating (it reads the host op ids): stage 0 needs no statistics, stage 1
    # the luma sum (contrast, 9) or a histogram (equalize, 2) for some samples only, stage 2
    # clahe (33) for some samples only. A gate taken over the wrong stage or samples
    # leaves stale histogram/luma counts from stage 0's batch (no memset) or clahe's tables
    # unbuilt, and the GPU's bytes part from the CPU's.
    gated = np.array([[10, 0, 0], [10, 9, 0], [10, 0, 33], [10, 2, 0]], np.int32)[np.arange(b) % 4]
    params = np.tile(np.array([[1.3, 1.6, 3.0]], np.float32), (b, 1))
    aux = rng.random((b, 3, 2), dtype=np.float32)
    report.compare("augment pass gating per stage (statistics, clahe tables)",
                   k.augment_batch(images, gated, params, aux, 128.0, True),
                   k.augment_batch_gpu(images, gated, params, aux, 128.0, True), 0)
    # every augment op, two stages per sample, several parameters
    for op in augment_op_ids(k):
        for param in (0.2, -0.35, 4.0, 30.0)[: 1 if quick else 4]:
            ops = np.full((b, 2), op, np.int32)
            ops[:, 1] = (op + np.arange(b)) % len(augment_op_ids(k))
            params = np.full((b, 2), param, np.float32)
            aux = rng.random((b, 2, 2), dtype=np.float32)
            for bilinear in (True, False):
                report.compare(f"augment op {op} param={param} bilinear={bilinear}",
                               k.augment_batch(images, ops, params, aux, 128.0, bilinear),
                               k.augment_batch_gpu(images, ops, params, aux, 128.0, bilinear), 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="one parameter per augment op (for compute-sanitizer, which is slow)")
    parser.add_argument("--small", action="store_true",
                        help="without the spatter and plasma batches past the grid cap (the ThreadSanitizer lane, "
                             "which runs every CUDA thread on a fiber; the ASan+UBSan lane runs them)")
    parser.add_argument("--module-dir", default=os.environ.get(
        "TFGPUAUG_KERNELS_MODULE_DIR", os.path.join(ROOT, "build", "kernels_module")))
    args = parser.parse_args()
    nvjpeg_path = point_to_nvjpeg()
    k = load_module(args.module_dir)
    if not k.cuda_built():
        print("gpu_selfcheck: the kernels module was built without CUDA (TFGPUAUG_CUDA=1 needs nvcc); "
              "nothing checked")
        return 2
    cuda = k.cuda_status()
    versions = f"driver {cuda['driver_version']}, runtime {cuda['runtime_version']}"
    # No GPU: no device, or no driver at all (driver version 0; the runtime then reports an
    # insufficient driver). A driver that is there but too old is a failure, not "no GPU".
    if cuda["error"] == "cudaErrorNoDevice" or cuda["driver_version"] == 0 and not cuda.get("emulated") \
            or (not cuda["error"] and cuda["device_count"] == 0):
        print(f"gpu_selfcheck: no CUDA GPU found (cudaGetDeviceCount: {cuda['error'] or 'no device'}; "
              f"{versions}); nothing checked")
        return 2
    if cuda["error"]:  # e.g. a driver older than the runtime this module links
        print(f"gpu_selfcheck: FAILED before any check: cudaGetDeviceCount returned {cuda['error']} "
              f"({cuda['error_text']}); {versions}")
        return 1
    print(f"gpu_selfcheck: {cuda['device_count']} device(s), {versions}"
          + (" (the CPU emulation of CUDA)" if cuda.get("emulated") else "")
          + f"; nvJPEG: {k.nvjpeg_status()['path'] or nvjpeg_path or 'not loaded: ' + k.nvjpeg_status()['error']}")
    report = Report()
    run(k, report, quick=args.quick, small=args.small)
    report.print()
    print(f"gpu_selfcheck: {len(report.rows) - report.failed} of {len(report.rows)} checks passed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
