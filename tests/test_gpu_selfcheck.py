"""scripts/gpu_selfcheck.py, which a GPU machine runs without TensorFlow: here (no GPU) it exits
2 saying so; its comparisons run against a stand-in whose *_gpu functions are the CPU kernels
(all pass) and one whose flip is sabotaged (the report fails), so the script's plumbing is
tested before any GPU runs it. The batch CPU bindings it uses are checked against numpy.

Mutants checked against: a flip_gpu that ignores the vertical flags; a crop_mirror_normalize
binding that forgets the mirror flags (the numpy reference test fails)."""
import os
import subprocess
import sys
import types

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.dirname(__file__))
import gpu_selfcheck  # noqa: E402
from test_kernels_module import MODULE_DIR, kernels  # noqa: E402

pytestmark = pytest.mark.gpu_path  # placement and GPU-path tests: not pinned to the CPU (conftest.py)


def _decode_reporting(blobs, channels, windows=None):
    """decode_gpu(errors=True) as the CPU decoder would answer it: (images, routes, errors)."""
    images, errors = [], []
    for b, window in zip(blobs, windows or [None] * len(blobs)):
        try:
            images.append(_cpu_decode(b, channels, window))
            errors.append("")
        except ValueError as e:
            images.append(np.zeros((1, 1, channels), np.uint8))
            errors.append(str(e))
    return images, ["host" if e else "nvjpeg" for e in errors], errors


def _cpu_decode(blob, channels, window=None):
    return kernels.decode(blob, channels) if window is None else kernels.decode(blob, channels, window)


def cpu_standin(**overrides):
    k = types.SimpleNamespace(**{n: getattr(kernels, n) for n in dir(kernels) if not n.startswith("_")})
    def decode_gpu(blobs, channels, routes=False, windows=None, errors=False):
        if errors:
            return _decode_reporting(blobs, channels, windows)
        images = [_cpu_decode(b, channels, w) for b, w in zip(blobs, windows or [None] * len(blobs))]
        return (images, ["nvjpeg"] * len(blobs)) if routes else images
    k.decode_gpu = decode_gpu
    k.nvjpeg_status = lambda: {"error": "", "path": "standin"}
    k.resize_gpu = kernels.resize
    k.resize_batch_gpu = lambda images, h, w, method, aa: [kernels.resize(im, h, w, method, aa) for im in images]
    k.warp_affine_gpu = lambda img, m, bilinear, fill, out_h=0, out_w=0: (
        kernels.warp_affine(img, list(np.ravel(m)), bilinear, fill, True, out_h, out_w) if img.ndim == 3 else
        np.stack([kernels.warp_affine(i, list(mi), bilinear, fill, True, out_h, out_w)
                  for i, mi in zip(img, np.reshape(m, (-1, 6)))]))
    k.flip_gpu = kernels.flip
    k.remap_gpu = kernels.remap
    k.remap_affine_gpu = kernels.remap_affine
    k.remap_radial_gpu = kernels.remap_radial
    k.separable_resample_gpu = kernels.separable_resample
    k.elastic_maps_gpu = kernels.elastic_maps
    k.cell_maps_gpu = kernels.cell_maps
    k.tile_shuffle_gpu = kernels.tile_shuffle
    k.unsharp_mask_gpu = kernels.unsharp_mask
    k.filter2d_gpu = kernels.filter2d
    k.level_tables_gpu = lambda images, tables, rows, in_place=False: kernels.level_tables(images, tables, rows)
    k.hls_lightness_gpu = kernels.hls_lightness
    k.span_raster_gpu = kernels.span_raster
    k.line_raster_gpu = kernels.line_raster
    k.channel_histograms_gpu = kernels.channel_histograms
    k.glass_swaps_gpu = kernels.glass_swaps
    k.zoom_blur_gpu = kernels.zoom_blur
    k.superpixels_gpu = kernels.superpixels
    k.stain_nmf_gpu = kernels.stain_nmf
    k.separable_blur_gpu = kernels.separable_blur
    k.flare_blend_gpu = kernels.flare_blend
    k.he_stain_gpu = kernels.he_stain
    k.tissue_plane_gpu = kernels.tissue_plane
    k.sun_flare_gpu = kernels.sun_flare
    k.spatter_mud_gpu = kernels.spatter_mud
    k.spatter_rain_gpu = kernels.spatter_rain
    k.plasma_pattern_gpu = kernels.plasma_pattern
    k.pattern_blend_gpu = kernels.pattern_blend
    k.crop_mirror_normalize_gpu = kernels.crop_mirror_normalize
    k.augment_batch_gpu = kernels.augment_batch
    for name, fn in overrides.items():
        setattr(k, name, fn)
    return k


def test_selfcheck_without_a_gpu_exits_2_and_says_why():
    if kernels.gpu_available():
        pytest.skip("a GPU is present")
    out = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gpu_selfcheck.py"),
                          "--module-dir", MODULE_DIR], capture_output=True, text=True)
    assert out.returncode == 2
    assert "no CUDA GPU found" in out.stdout or "without CUDA" in out.stdout


def test_selfcheck_plumbing_passes_with_cpu_standins_and_fails_on_sabotage():
    report = gpu_selfcheck.Report()
    gpu_selfcheck.run(cpu_standin(), report)
    assert report.failed == 0 and len(report.rows) > 100
    names = " ".join(r[0] for r in report.rows)
    assert "augment op 0 " in names and "bfloat16" in names and "decode jpeg 3" in names
    bad = gpu_selfcheck.Report()
    gpu_selfcheck.run(cpu_standin(flip_gpu=lambda im, h, v: kernels.flip(im, h, np.zeros_like(v))), bad)
    assert bad.failed == 6  # the flip checks: once per channel count, twice past the grid cap


def test_batch_bindings_match_numpy():
    rng = np.random.default_rng(1)
    images = gpu_selfcheck.test_images(rng)
    hz, vt = np.array([1, 0, 1, 0], bool), np.array([0, 0, 1, 1], bool)
    expected = np.stack([im[::-1 if v else 1, ::-1 if h else 1] for im, h, v in zip(images, hz, vt)])
    np.testing.assert_array_equal(kernels.flip(images, hz, vt), expected)
    offsets = np.array([[0, 0], [3, 5], [10, 20], [7, 1]], np.int32)
    mirror = np.array([0, 1, 0, 1], bool)
    mean, std = np.array([120.0, 110.0, 100.0]), np.array([60.0, 55.0, 50.0])
    out = kernels.crop_mirror_normalize(images, 24, 30, offsets, mirror, list(mean), list(std), True)
    for i, ((y, x), m) in enumerate(zip(offsets, mirror)):
        crop = images[i, y:y + 24, x:x + 30].astype(np.float64)
        crop = crop[:, ::-1] if m else crop
        np.testing.assert_allclose(out[i], ((crop - mean) / std).transpose(2, 0, 1), atol=1e-5)
    plain = kernels.resize(images[1], 21, 30, "bilinear", True)
    mean3, std3 = [120.0, 110.0, 100.0], [60.0, 55.0, 50.0]
    fused = kernels.resize(images[1], 21, 30, "bilinear", True, True, mean3, std3)
    np.testing.assert_allclose(fused, (plain[:, ::-1] - mean3) / std3, atol=1e-4)
    rounded = kernels.resize(images[1], 21, 30, "bilinear", True, uint8_out=True)
    assert np.abs(rounded.astype(float) - np.clip(plain, 0, 255)).max() <= 0.5 + 1e-3
    ops = np.zeros((4, 2), np.int32)  # stage ids from the module: identity then invert
    invert = next(i for i in gpu_selfcheck.augment_op_ids(kernels)
                  if (kernels.augment_stage(images[0], i) == 255 - images[0]).all())
    ops[:, 1] = invert
    got = kernels.augment_batch(images, ops, np.zeros((4, 2), np.float32), np.zeros((4, 2, 2), np.float32))
    np.testing.assert_array_equal(got, 255 - images)
