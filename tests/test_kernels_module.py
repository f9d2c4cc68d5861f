"""cc/kernels without TensorFlow: the pybind11 module's CPU decode against PIL, and on a GPU
machine its CUDA path against its CPU path (skipped without a GPU).

Build the module, then run this file with only numpy, PIL and pytest installed:
    python build_tools/build_kernels_module.py && python tests/test_kernels_module.py
"""
import glob
import importlib.util
import io
import os
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

sys.path.insert(0, os.path.dirname(__file__))
import fixtures  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULE_DIR = os.environ.get("TFGPUAUG_KERNELS_MODULE_DIR", os.path.join(ROOT, "build", "kernels_module"))


MODULE_PATH = None


def _load():
    found = glob.glob(os.path.join(MODULE_DIR, "tfgpuaug_kernels*.so"))
    if not found:
        if os.environ.get("TFGPUAUG_REQUIRE_KERNELS_MODULE") == "1":
            raise RuntimeError(f"tfgpuaug_kernels not built in {MODULE_DIR}")
        pytest.skip("tfgpuaug_kernels not built (python build_tools/build_kernels_module.py)",
                    allow_module_level=True)
    global MODULE_PATH
    MODULE_PATH = found[0]
    spec = importlib.util.spec_from_file_location("tfgpuaug_kernels", found[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


kernels = _load()
requires_gpu = pytest.mark.skipif(not kernels.gpu_available(), reason="needs a CUDA GPU")


CMYK_INDEX = 5  # batch()'s CMYK JPEG


def batch():
    blobs = [fixtures.jpeg_bytes(fixtures.photo(h, w, seed=h)) for h, w in [(1, 1), (17, 33), (240, 320)]]
    blobs.append(fixtures.jpeg_bytes(fixtures.photo(31, 47), progressive=True))
    blobs.append(fixtures.png_bytes(fixtures.photo(21, 8)))
    blobs.append(fixtures.jpeg_bytes(fixtures.photo(40, 52), mode="CMYK"))
    blobs += [open(f, "rb").read() for f in fixtures.shared_sample_files(limit=8)]
    return blobs


def test_cpu_decode_matches_pil():
    """Exact, except the CMYK JPEG (PIL's CMYK-to-RGB rounds differently: 1 level). Mutant
    checked against: the default DCT switched to INTEGER_FAST (fails the exact images)."""
    for i, blob in enumerate(batch()):
        expected = np.asarray(Image.open(io.BytesIO(blob)).convert("RGB")).astype(int)
        diff = np.abs(kernels.decode(blob).astype(int) - expected).max()
        assert diff <= 1 if i == CMYK_INDEX else diff == 0, (i, diff)


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_strided_decode_equals_packed(channels):
    # Rows left where libjpeg writes them (the fused crop-resize path) must hold exactly the
    # packed decode's pixels: column crops at and off iMCU edges, a scale, CMYK, PNG fallback.
    for blob in batch():
        full = kernels.decode(blob, channels=channels)
        h, w = full.shape[:2]
        windows = [None, [0, 0, h, w], [h // 3, w // 5, max(1, h // 2), max(1, w // 3)],
                   [h - 1, w - 1, 1, 1], [0, min(16, w - 1), h, w - min(16, w - 1)]]
        for window in windows:
            np.testing.assert_array_equal(kernels.decode(blob, channels, window, strided=True),
                                          kernels.decode(blob, channels, window))
        if min(h, w) >= 2:
            np.testing.assert_array_equal(kernels.decode(blob, channels, [0, 1, 1, 1], 2, strided=True),
                                          kernels.decode(blob, channels, [0, 1, 1, 1], 2))


def test_gpu_decode_routes_images_nvjpeg_cannot_take_to_the_cpu():
    """The rules the GPU decode path follows (cc/kernels/decode/gpu_decode_route.h), checked in
    the CPU build: nvJPEG takes whole 3-channel JPEGs at full scale and nothing else, and no
    image at all when libnvjpeg is missing or TFGPUAUG_NVJPEG=off."""
    rgb = fixtures.photo(24, 30)
    jpeg = fixtures.jpeg_bytes(rgb)
    route = kernels.nvjpeg_route
    assert route(jpeg) == "nvjpeg" and route(jpeg, channels=1) == "nvjpeg" and route(jpeg, mode="on") == "nvjpeg"
    assert route(jpeg, mode="reject") == "nvjpeg"  # routed there, then refused and decoded on the CPU
    assert route(jpeg, mode="off") == "host"
    assert route(jpeg, nvjpeg_loaded=False) == "host"
    assert route(jpeg, dct_denom=2) == "host"
    assert route(fixtures.jpeg_bytes(rgb, mode="CMYK")) == "host"
    assert route(fixtures.png_bytes(rgb)) == "host"
    rotated = fixtures.jpeg_bytes(rgb, exif=fixtures.exif_with_orientation(6))
    assert route(rotated) == "nvjpeg" and route(rotated, apply_exif_orientation=True) == "host"
    # cut short (no end-of-image marker): the CPU decoder refuses it by name, nvJPEG might not
    assert route(jpeg[: len(jpeg) - 40]) == "host"
    assert route(jpeg + bytes(30)) == "nvjpeg"  # padding after the marker is fine


def test_gpu_decode_groups_keep_nvjpeg_scratch_within_the_budget():
    """nvJPEG writes whole images to device scratch even for a small window; the GPU decode hands
    it consecutive groups whose full-size bytes fit max_batch_bytes (an image over the budget
    alone), checked here against a greedy reference on random sizes. Mutant checked against:
    closing a group only after it overflows (the scratch exceeds the budget)."""
    assert kernels.nvjpeg_group_ends([], 100) == []
    assert kernels.nvjpeg_group_ends([40, 40, 40], 100) == [2, 3]
    assert kernels.nvjpeg_group_ends([150, 10, 90, 5], 100) == [1, 3, 4]
    assert kernels.nvjpeg_group_ends([10, 20], 0) == [1, 2]  # no budget: one image at a time
    assert kernels.nvjpeg_scratch_bytes([150, 10, 90, 5], 100) == 150
    rng = np.random.default_rng(3)
    for _ in range(200):
        sizes = [int(v) for v in rng.integers(1, 120, rng.integers(1, 12))]
        budget = int(rng.integers(0, 300))
        ends = kernels.nvjpeg_group_ends(sizes, budget)
        groups = [sizes[a:b] for a, b in zip([0] + ends[:-1], ends)]
        assert [v for g in groups for v in g] == sizes and all(groups)
        for i, g in enumerate(groups):
            assert sum(g) <= budget or len(g) == 1
            if i + 1 < len(groups):  # greedy: the next image would not have fitted
                assert sum(g) + groups[i + 1][0] > budget
        assert kernels.nvjpeg_scratch_bytes(sizes, budget) == max(sum(g) for g in groups)
        assert kernels.nvjpeg_scratch_bytes(sizes, budget) <= max(budget, max(sizes))


def test_cpu_decode_window_and_errors():
    blob = fixtures.jpeg_bytes(fixtures.photo(64, 80))
    np.testing.assert_array_equal(kernels.decode(blob, window=[3, 5, 20, 30]),
                                  kernels.decode(blob)[3:23, 5:35])
    with pytest.raises(ValueError, match="Premature end"):
        kernels.decode(blob[:400])


def test_cpu_resize_and_warp_against_pil():
    img = fixtures.photo(60, 80)
    got = kernels.resize(img, 15, 20, "bilinear", True)
    ref = np.asarray(Image.fromarray(img).resize((20, 15), Image.BILINEAR)).astype(float)
    assert np.abs(got - ref).max() <= 1
    m = [1.0, 0.2, -5.0, 0.0, 1.0, 3.0]
    warped = kernels.warp_affine(img, m)
    pil = np.asarray(Image.fromarray(img).transform((80, 60), Image.AFFINE, m, resample=Image.BILINEAR,
                                                    fillcolor=(128, 128, 128)))
    assert np.abs(warped[2:-2, 2:-2].astype(int) - pil[2:-2, 2:-2]).max() <= 1


# Matrices that keep rows (m[3] == 0) or columns (x_in == x): the CPU's specialised loops.
ROW_AND_COLUMN_MATRICES = [
    [1, 0.3, 0, 0, 1, 0], [1, -0.99, 0, 0, 1, 0],           # shear_x
    [1, 0, 13.4, 0, 1, 0], [1, 0, -29.999998, 0, 1, 0],     # translate_x
    [1, 0, 0, 0, 1, -20.3], [1, 0, 0, 0, 1, 7.0], [1, 0, 0, 0, 1, 30.0],  # translate_y
    [1, 0, 0, 0.25, 1, 0], [1, 0, 0, -0.7, 1, 3.5],         # shear_y
    [0.5, 0, 3, 0, 2.0, -4], [1, 0.1, 2.5, 0, 0.9, 1.25],   # other row-keeping matrices
    [1, 0, 0, 0, 1, 0],                                     # identity
]
GENERAL_MATRICES = [[0.96, 0.29, -7, -0.29, 0.96, 12], [0.7, -0.7, 20, 0.7, 0.7, -10],
                    [1.3, 0.2, -3, 0.1, 0.8, 2]]  # rotations and a general affine


@pytest.mark.parametrize("channels", [1, 2, 3, 4])
@pytest.mark.parametrize("m", ROW_AND_COLUMN_MATRICES + GENERAL_MATRICES)
def test_specialised_warps_bit_identical_to_general_loop(m, channels):
    """The CPU's row/column loops and SSE2 blends must round exactly as the plain per-pixel
    loop the GPU runs (including the last pixels, where 4-byte loads would overrun)."""
    img = fixtures.photo(37, 53, channels=channels)
    for fill in (0.0, 128.0):
        fast = kernels.warp_affine(img, m, fill=fill)
        general = kernels.warp_affine(img, m, fill=fill, general=True)
        np.testing.assert_array_equal(fast, general)
        assert (fast != fill).any()  # the matrices keep part of the image inside


def _centred(degrees=0.0, shear_x=0.0, shear_y=0.0, tx=0.0, ty=0.0, size=224):
    """A RandAugment-style matrix about the image centre (rotation, shear, translation)."""
    c = size / 2
    a, s = np.cos(np.radians(degrees)), np.sin(np.radians(degrees))
    m = np.array([[a, s, 0], [-s, a, 0], [0, 0, 1]]) @ np.array([[1, shear_x, 0], [shear_y, 1, 0], [0, 0, 1]])
    m = np.array([[1, 0, c + tx], [0, 1, c + ty], [0, 0, 1]]) @ m @ np.array([[1, 0, -c], [0, 1, -c], [0, 0, 1]])
    return [float(v) for v in m[:2].ravel()]


# RandAugment/TrivialAugment magnitudes, a far-away shift (every pixel is fill) and a
# matrix whose samples cross the image edges on every side.
PHOTO_MATRICES = ([_centred(d) for d in (-135, -30, -9.3, 0.7, 17, 30, 90, 135)] +
                  [_centred(shear_x=v) for v in (-0.99, 0.3)] + [_centred(shear_y=v) for v in (-0.3, 0.99)] +
                  [_centred(tx=-100.4), _centred(ty=31.7), _centred(17, 0.2, -0.1, 12.5, -8.25)] +
                  [[1, 0, 1e7, 0, 1, 0], [1.9, 0.4, -60, -0.3, 1.7, -45]])


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_warps_on_photos_bit_identical_to_general_loop(channels):
    """Whatever loop the CPU picks (AVX2 eight pixels at a time, rows, columns, SSE2) must
    give the bits of the per-pixel function the GPU runs, on full-size images."""
    img = fixtures.photo(224, 224, channels=channels, seed=3)
    odd = fixtures.photo(97, 131, channels=channels, seed=4)  # rows not a multiple of 8
    for m in PHOTO_MATRICES:
        for image in (img, odd):
            for fill in (128.0, 0.0):
                np.testing.assert_array_equal(kernels.warp_affine(image, m, fill=fill),
                                              kernels.warp_affine(image, m, fill=fill, general=True),
                                              err_msg=f"{m} {image.shape} fill={fill}")


@pytest.mark.parametrize("shape", [(1, 1, 3), (1, 2, 3), (2, 1, 4), (1, 1, 1)])
def test_tiny_images_warp_like_general_loop(shape):
    img = (np.arange(np.prod(shape)) * 37 % 256).astype(np.uint8).reshape(shape)
    for m in GENERAL_MATRICES[:1] + ROW_AND_COLUMN_MATRICES[:8]:
        m = [v / 10 if i in (2, 5) else v for i, v in enumerate(m)]  # keep sub-pixel shifts
        np.testing.assert_array_equal(kernels.warp_affine(img, m), kernels.warp_affine(img, m, general=True))


# Per-pixel augment ops (ids of cc/kernels/augment/augment.h) with parameters; the CPU's fast paths
# (separable blur, row-wise sharpness, SSE2 colour, cutout rows, AVX2 warps) must give the
# bits of the per-pixel function the GPU's apply kernel runs.
PER_PIXEL_STAGES = [(21, 0.4), (21, 1.3), (21, 3.0), (21, 9.0), (11, 1.8), (11, 0.1), (8, 0.3),
                    (8, 1.9), (16, 13.0), (17, 0.0), (4, 23.0), (12, -0.3), (13, 0.99), (14, 17.5),
                    (15, -40.25), (18, 0.3), (18, -0.45), (19, 0.0), (19, 0.4), (19, 2.5), (20, 10.0),
                    (20, 3.5), (23, 1.0), (23, 3.0), (23, 5.0), (23, 0.0), (25, 0.2), (25, 1.0), (26, 0.6),
                    (28, 3.0), (28, 7.0), (28, 31.0), (40, 3.0), (40, 5.0), (40, 7.0), (40, 15.0)]
HUE, SATURATION = 18, 19


@pytest.mark.parametrize("channels", [1, 3, 4])
@pytest.mark.parametrize("op,param", PER_PIXEL_STAGES)
def test_augment_fast_paths_bit_identical_to_per_pixel_function(op, param, channels):
    for img in (fixtures.photo(61, 47, channels=channels, seed=op), fixtures.photo(2, 3, channels=channels)):
        fast = kernels.augment_stage(img, op, param, aux=[0.3, 0.7])
        general = kernels.augment_stage(img, op, param, aux=[0.3, 0.7], general=True)
        np.testing.assert_array_equal(fast, general, err_msg=f"op {op} param {param} {img.shape}")


def every_colour(step_b: int = 1) -> np.ndarray:
    """An RGB image holding every (r, g, b) with b a multiple of step_b, 4096 pixels a row."""
    r, g, b = np.meshgrid(np.arange(256), np.arange(256), np.arange(0, 256, step_b), indexing="ij")
    return np.stack([r, g, b], -1).astype(np.uint8).reshape(-1, 4096, 3)


@pytest.mark.parametrize("op,param", [(HUE, 0.3), (HUE, -0.5), (HUE, 0.5), (SATURATION, 1.7),
                                      (SATURATION, 0.25)])
def test_hue_saturation_fast_path_bit_identical_on_every_colour(op, param):
    # The AVX2 hue/saturation loop turns RgbToHsv's and HsvToRgb's branches into lane
    # selects: every branch (each max channel, grey pixels, the six hue sectors, hue
    # wrapping past 0 and 1) must give the per-pixel function's bits. 2 M colours.
    img = every_colour(step_b=8)
    fast = kernels.augment_stage(img, op, param, aux=[0.0, 0.0])
    general = kernels.augment_stage(img, op, param, aux=[0.0, 0.0], general=True)
    np.testing.assert_array_equal(fast, general, err_msg=f"op {op} param {param}")
    assert (fast != img).any()  # the stage did something


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_gaussian_noise_against_float64_box_muller(channels):
    # The noise stage's own log, cosine and sine (portable_math.h, shared with CUDA) against
    # numpy's in float64 on the same hashed uniforms: bytes 2k and 2k + 1 take the cosine and
    # sine normals of the Box-Muller pair of uniforms 2k and 2k + 1. Equal but where
    # px + sigma * z lies within float rounding of a .5 boundary.
    img = fixtures.photo(64, 96, channels=channels, seed=channels)
    sigma, aux0 = 23.0, 0.37
    got = kernels.augment_stage(img, 20, sigma, aux=[aux0, 0.0]).astype(np.int64)
    seed = int(np.float32(aux0) * np.float32(4294967040.0))
    index = np.arange(img.size, dtype=np.uint64)
    pair = index & ~np.uint64(1)
    u1, u2 = (fixtures.hash_uniform(seed, i).astype(np.float64) for i in (pair, pair + np.uint64(1)))
    angle = 2 * np.pi * u2
    z = np.sqrt(-2 * np.log(u1)) * np.where(index % 2 == 0, np.cos(angle), np.sin(angle))
    ref = np.floor(np.clip(img.reshape(-1) + sigma * z, 0, 255) + 0.5).astype(np.int64).reshape(img.shape)
    assert np.abs(got - ref).max() <= 1
    assert (got == ref).mean() > 0.9999
    assert 0.5 < z.std() / 1.0 < 1.5 and np.abs(got - img).max() > 40  # the noise is there
    # a pair's two normals are uncorrelated (4 standard errors)
    assert abs(np.corrcoef(z[0::2][: z.size // 2], z[1::2][: z.size // 2])[0, 1]) < 4 / np.sqrt(z.size // 2)


def test_module_reports_cuda_build():
    assert kernels.cuda_built() in (True, False)
    if os.environ.get("TFGPUAUG_CUDA") == "1":
        assert kernels.cuda_built()


@requires_gpu
@pytest.mark.parametrize("channels", [1, 3, 4])
def test_gpu_decode_close_to_cpu(channels):
    """nvJPEG's IDCT and upsampling are not libjpeg's: mean |diff| <= 1.5, max <= 40 levels."""
    blobs = batch()
    for blob, got in zip(blobs, kernels.decode_gpu(blobs, channels)):
        ref = kernels.decode(blob, channels=channels).astype(int)
        assert got.shape == ref.shape
        diff = np.abs(got.astype(int) - ref)
        assert diff.mean() <= 1.5 and diff.max() <= 40


def _jpeg_builds_compared():
    """JPEGs covering libjpeg's decode paths: subsamplings 4:4:4, 4:2:2, 4:2:0, grey,
    progressive, CMYK, odd sizes, and the shared sample when it is there."""
    blobs = [fixtures.jpeg_bytes(fixtures.photo(h, w, seed=h), subsampling=s, quality=q)
             for (h, w), s, q in [((1, 1), 2, 90), ((17, 33), 0, 95), ((97, 131), 1, 75),
                                   ((240, 320), 2, 90), ((333, 251), 0, 60)]]
    blobs.append(fixtures.jpeg_bytes(fixtures.photo(61, 45, channels=1)))
    blobs.append(fixtures.jpeg_bytes(fixtures.photo(131, 97), progressive=True))
    blobs.append(fixtures.jpeg_bytes(fixtures.photo(40, 52), mode="CMYK"))
    return blobs + [open(f, "rb").read() for f in fixtures.shared_sample_files(limit=40)]


def test_x86_64_v3_libjpeg_is_built_when_required():
    # CI builds with TFGPUAUG_JPEG_V3=1: the comparison below must not skip there.
    if os.environ.get("TFGPUAUG_JPEG_V3") != "1" or not _cpu_has("bmi2"):
        pytest.skip("TFGPUAUG_JPEG_V3=1 not set, or the CPU lacks x86-64-v3")
    assert kernels.jpeg_build_available("x86_64_v3")


@pytest.mark.skipif(not kernels.jpeg_build_available("x86_64_v3"),
                    reason="x86-64-v3 libjpeg-turbo not built, or the CPU lacks x86-64-v3")
def test_x86_64_v3_libjpeg_decodes_the_same_pixels():
    # Same release, other compiler flags: every pixel must match the linked libjpeg's, full
    # images, windows (column crop, skipped rows), reduced DCT scales, all channel counts.
    for blob in _jpeg_builds_compared():
        h, w = kernels.decode(blob, jpeg_build="linked").shape[:2]
        cases = [dict(channels=c) for c in (1, 3, 4)]
        cases += [dict(window=[h // 3, w // 5, max(1, h // 2), max(1, w // 2)]),
                  dict(window=[h // 3, w // 5, max(1, h // 2), max(1, w // 2)], strided=True),
                  dict(dct_denom=2), dict(dct_denom=8, window=[0, 0, 1, 1])]
        for kw in cases:
            linked = kernels.decode(blob, jpeg_build="linked", **kw)
            np.testing.assert_array_equal(kernels.decode(blob, jpeg_build="x86_64_v3", **kw), linked,
                                          err_msg=str(kw))
            np.testing.assert_array_equal(kernels.decode(blob, **kw), linked, err_msg=str(kw))


@pytest.mark.skipif(not kernels.jpeg_build_available("x86_64_v3"),
                    reason="x86-64-v3 libjpeg-turbo not built, or the CPU lacks x86-64-v3")
def test_x86_64_v3_libjpeg_rejects_bad_data_alike():
    good = fixtures.jpeg_bytes(fixtures.photo(64, 80))
    # Truncated in the entropy data, truncated in the tables, no marker after SOI.
    bad = [good[: len(good) // 2], good[:150], good[:3] + b"\x00" * 40 + good[43:]]
    for blob in bad:
        errors = []
        for build in ("linked", "x86_64_v3"):
            with pytest.raises(ValueError) as e:
                kernels.decode(blob, jpeg_build=build)
            errors.append(str(e.value))
        assert errors[0] == errors[1] and "invalid JPEG" in errors[0], errors


def test_unknown_jpeg_build_is_refused():
    with pytest.raises(ValueError, match="jpeg_build must be"):
        kernels.decode(fixtures.jpeg_bytes(fixtures.photo(8, 8)), jpeg_build="fastest")


def _cpu_has(flag: str) -> bool:
    try:
        with open("/proc/cpuinfo") as f:
            return f" {flag}" in f.read()
    except OSError:
        return False


def _without_avx2(tmp_path, images, calls: str, switch: str = "TFGPUAUG_DISABLE_AVX2"):
    """The outputs of `calls` (a Python expression listing calls of module `k` on the list
    `images`) in a child process started with `switch`=1: TFGPUAUG_DISABLE_AVX2 runs the
    baseline loops, TFGPUAUG_DISABLE_AVX512 the AVX2 loops in place of the AVX-512 ones."""
    np.savez(tmp_path / "in.npz", *images)
    script = f"""
import importlib.util
import numpy as np
spec = importlib.util.spec_from_file_location("tfgpuaug_kernels", {MODULE_PATH!r})
k = importlib.util.module_from_spec(spec)
spec.loader.exec_module(k)
stored = np.load({str(tmp_path / "in.npz")!r})
images = [stored[f"arr_{{i}}"] for i in range({len(images)})]
np.savez({str(tmp_path / "out.npz")!r}, *({calls}))
"""
    env = dict(os.environ, **{switch: "1"})
    subprocess.run([sys.executable, "-c", script], env=env, check=True)
    out = np.load(tmp_path / "out.npz")
    return [out[f"arr_{i}"] for i in range(len(out.files))]


@pytest.mark.skipif(not _cpu_has("avx2"), reason="the AVX2 resize path needs an AVX2 CPU")
def test_resize_avx2_pairs_equal_baseline_loop(tmp_path):
    # The AVX2 horizontal pass (two output pixels per vector) must give the 4-lane loop's bits.
    rng = np.random.default_rng(5)
    cases = [((37, 53, 3), 24, 31, "bilinear", True), ((37, 53, 4), 24, 30, "bicubic", True),
             ((90, 120, 3), 41, 77, "area", False), ((20, 16, 3), 40, 33, "bilinear", False),
             ((300, 290, 3), 224, 224, "bilinear", True), ((9, 700, 4), 5, 63, "bicubic", False),
             ((5, 5, 3), 1, 2, "nearest", False),
             # mirrored rows (written backwards), odd and even widths: the 4-pixel stores
             ((37, 53, 3), 24, 31, "bilinear", True, True), ((60, 41, 3), 50, 64, "bilinear", False, True)]
    images = [rng.integers(0, 256, shape, dtype=np.uint8) for shape, *_ in cases]
    args = [c[1:] for c in cases]
    baseline = _without_avx2(tmp_path, images, f"k.resize(img, *c) for img, c in zip(images, {args!r})")
    for img, c, expected in zip(images, args, baseline):
        np.testing.assert_array_equal(kernels.resize(img, *c), expected, err_msg=str(c))


@pytest.mark.skipif(not _cpu_has("avx2"), reason="the AVX2 warp needs an AVX2 CPU")
def test_warp_baseline_loops_equal_avx2(tmp_path):
    # On AVX2 CPUs the row, column and SSE2 loops only run for vertical shifts; here they
    # run everything.
    images = [fixtures.photo(224, 224, channels=c, seed=3) for c in (1, 3, 4)]
    matrices = PHOTO_MATRICES + ROW_AND_COLUMN_MATRICES
    baseline = _without_avx2(tmp_path, images, f"k.warp_affine(img, m) for img in images for m in {matrices!r}")
    outputs = [kernels.warp_affine(img, m) for img in images for m in matrices]
    assert len(outputs) == len(baseline)
    for i, (out, expected) in enumerate(zip(outputs, baseline)):
        np.testing.assert_array_equal(out, expected, err_msg=str(matrices[i % len(matrices)]))


@pytest.mark.skipif(not (_cpu_has("avx2") and _cpu_has("fma")), reason="the vector loops need AVX2 and FMA")
def test_neighbourhood_baseline_loops_equal_avx2(tmp_path):
    """Gaussian blur (symmetric pairs, one fma a distance), sharpen and emboss, motion blur (a
    padded copy) and box blur (running row sums) without AVX2 (fmaf, the flat loops) against the
    AVX2 loops, bit for bit: rows a multiple of 32 bytes and not, radii beyond the image. Mutant
    caught: the blur's scalar vertical sum as a multiply and an add in place of the fma."""
    # A rounding difference moves a byte only when the sum lies within an ulp of a half level:
    # about one value in 10^5, so the large noise image carries the mutants' catch.
    noise = np.random.default_rng(8).integers(0, 256, (384, 389, 3), dtype=np.uint8)
    images = [fixtures.photo(61, 47, channels=3, seed=1), fixtures.photo(40, 64, channels=1, seed=2),
              fixtures.photo(9, 13, channels=4, seed=3), noise]
    stages = [(21, 0.4), (21, 1.0), (21, 3.0), (21, 9.0), (25, 0.5), (26, 0.7), (28, 7.0), (28, 31.0), (40, 5.0),
              (40, 15.0)]
    calls = f"k.augment_stage(img, op, p, [0.3, 0.7]) for img in images for op, p in {stages!r}"
    baseline = _without_avx2(tmp_path, images, calls)
    outputs = [kernels.augment_stage(img, op, p, [0.3, 0.7]) for img in images for op, p in stages]
    assert len(outputs) == len(baseline)
    for i, (out, expected) in enumerate(zip(outputs, baseline)):
        where = (images[i // len(stages)].shape, stages[i % len(stages)])
        np.testing.assert_array_equal(out, expected, err_msg=str(where))


CLAHE = 33  # cc/kernels/augment/augment.h: clip limit; tiles across aux[0], down aux[1]


@pytest.mark.skipif(not _cpu_has("avx512vbmi"), reason="the AVX-512 lookups need an AVX-512 VBMI CPU")
def test_clahe_avx512_lookups_equal_avx2(tmp_path):
    """CLAHE's conversion to L*a*b* looks its gamma table up by AVX-512 byte permutes where the
    CPU has them (sixteen pixels a step, masked loads and stores for the rest); with
    TFGPUAUG_DISABLE_AVX512 the AVX2 loops' plain loads: bit for bit the same bytes, RGB and
    RGBA, pixel counts that end on a partial step (24: sixteen and eight; 25: a scalar tail)."""
    noise = np.random.default_rng(11).integers(0, 256, (97, 131, 3), dtype=np.uint8)
    images = [fixtures.photo(61, 47, channels=3, seed=1), fixtures.photo(61, 47, channels=4, seed=2),
              fixtures.photo(3, 8, channels=3, seed=3), fixtures.photo(5, 5, channels=4, seed=4), noise]
    stages = [(CLAHE, 4.0, [8.0, 8.0]), (CLAHE, 0.0, [3.0, 5.0])]
    calls = f"k.augment_stage(img, op, p, aux) for img in images for op, p, aux in {stages!r}"
    expected = _without_avx2(tmp_path, images, calls, switch="TFGPUAUG_DISABLE_AVX512")
    outputs = [kernels.augment_stage(img, op, p, aux) for img in images for op, p, aux in stages]
    assert len(outputs) == len(expected)
    for i, (out, want) in enumerate(zip(outputs, expected)):
        np.testing.assert_array_equal(out, want, err_msg=str((images[i // len(stages)].shape, stages[i % len(stages)])))


# The stages that replace bytes (issue 36), ids of cc/kernels/augment/augment.h: sepia 34,
# channel_dropout 35 (bits of the parameter; level aux[1]), pixel_dropout 36 and its per-channel
# form 37 (probability; stream aux[0], level aux[1], negative: random), salt_and_pepper 38
# (probability; stream aux[0], salt share aux[1]), multiplicative_noise 41 and its per-channel
# form 42 (least factor; stream aux[0], greatest factor aux[1]; equal bounds: that factor),
# shot_noise 43 (scale; stream aux[0]: inversion below a mean of 12, the normal approximation above),
# the additive noise stages 45-50 (scale; stream aux[0], location aux[1]).
REPLACING_STAGES = [(34, 0.0, [0.3, 0.7]), (35, 5.0, [0.0, 40.0]), (35, 3.0, [0.5, 255.0]), (36, 0.05, [0.3, 0.0]),
                    (36, 0.3, [0.6, -1.0]), (36, 1.0, [0.1, 200.0]), (37, 0.2, [0.3, 17.0]),
                    (37, 0.5, [0.9, -1.0]), (38, 0.1, [0.2, 0.5]), (38, 0.6, [0.7, 1.0]), (41, 0.5, [0.3, 1.7]),
                    (41, 1.3, [0.8, 1.3]), (42, 0.8, [0.6, 1.2]), (42, 0.0, [0.1, 2.5]), (42, 0.7, [0.5, 0.7]),
                    (43, 0.2, [0.3, 0.0]), (43, 0.005, [0.6, 0.0]), (43, 3.0, [0.1, 0.0]), (45, 30.0, [0.3, -5.0]),
                    (46, 30.0, [0.5, 4.0]), (47, 20.0, [0.6, 2.0]), (48, 25.0, [0.1, 0.0]), (49, 10.0, [0.2, -3.0]),
                    (50, 12.0, [0.8, 0.0]), (51, 0.15, [0.1, 0.0]), (51, -0.2, [0.125, 0.0]), (51, 0.1, [0.0, 0.0]),
                    (51, -0.12, [0.75, 0.0]), (52, 0.2, [0.3, 0.0]), (52, -0.15, [0.9, 0.0]),
                    (53, 0.2, [2047 * 4096 + 1000, 0.5]), (53, -0.18, [409 * 4096 + 3686, 0.25])]
MULTIPLICATIVE_NOISE = 41
CHANNEL_MULTIPLY = 44


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_channel_multiply_is_the_numpy_rule(channels):
    """channel_multiply 44, a table op: channel k times its factor (the parameter, aux[0], aux[1];
    1 for a fourth channel), the float32 product clipped and truncated (the GPU builds the same
    tables: the self-check compares them)."""
    img = fixtures.photo(19, 23, channels=channels, seed=channels)
    factors = np.array([0.7, 1.3, 2.2, 1.0], np.float32)[:channels]
    ref = np.clip(img.astype(np.float32) * factors, 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(kernels.augment_stage(img, CHANNEL_MULTIPLY, 0.7, aux=[1.3, 2.2]), ref)


@pytest.mark.parametrize("channels", [1, 3, 4])
@pytest.mark.parametrize("per_channel", [False, True])
def test_multiplicative_noise_is_the_numpy_rule_on_the_stream(channels, per_channel):
    """The factor of pixel i (byte i per channel) is low + u_i (high - low) in float32 with u_i the
    stream's uniform i; the float32 product clipped to [0, 255] and truncated, exactly, through
    the CPU loop and the per-pixel function the GPU runs. Mutant: a factor per pixel in the
    per-channel form, or the add before the multiply, fails."""
    img = fixtures.photo(37, 53, channels=channels, seed=channels)
    low, high, aux0 = 0.6, 1.9, 0.41
    seed = int(np.float32(aux0) * np.float32(4294967040.0))
    count = img.size if per_channel else img.shape[0] * img.shape[1]
    u = fixtures.hash_uniform(seed, np.arange(count))
    factors = np.float32(low) + u * (np.float32(high) - np.float32(low))
    factors = factors.reshape(img.shape if per_channel else img.shape[:2] + (1,))
    ref = np.clip(img.astype(np.float32) * factors, 0, 255).astype(np.uint8)
    for general in (False, True):
        out = kernels.augment_stage(img, MULTIPLICATIVE_NOISE + per_channel, low, aux=[aux0, high], general=general)
        np.testing.assert_array_equal(out, ref, err_msg=f"general={general}")
    assert (ref != img).mean() > 0.5


# The additive noise stages (AdditiveNoise), ids of cc/kernels/augment/augment.h: uniform_noise 45,
# normal_noise 47, laplace_noise 49, each followed by its shared form (scale in levels; stream
# aux[0], location aux[1]).
UNIFORM_NOISE, NORMAL_NOISE, LAPLACE_NOISE = 45, 47, 49


@pytest.mark.parametrize("channels", [1, 3, 4])
@pytest.mark.parametrize("shared", [False, True])
def test_uniform_noise_is_the_numpy_rule_on_the_stream(channels, shared):
    """Value i of the stream (byte i, or pixel i shared by its channels) is location + scale
    (2 u_i - 1) in float32, truncated toward zero and added with saturation, exactly, through the
    CPU loop and the per-pixel function the GPU runs. Mutant: rounding, or one value a pixel in
    the per-byte form, fails."""
    img = fixtures.photo(37, 53, channels=channels, seed=channels)
    scale, location, aux0 = 40.0, -12.3, 0.27
    seed = int(np.float32(aux0) * np.float32(4294967040.0))
    count = img.shape[0] * img.shape[1] if shared else img.size
    u = fixtures.hash_uniform(seed, np.arange(count))
    noise = np.float32(location) + np.float32(scale) * (np.float32(2) * u - np.float32(1))
    noise = noise.reshape(img.shape[:2] + (1,) if shared else img.shape)
    ref = np.clip(img.astype(np.int64) + np.trunc(noise).astype(np.int64), 0, 255).astype(np.uint8)
    for general in (False, True):
        out = kernels.augment_stage(img, UNIFORM_NOISE + shared, scale, aux=[aux0, location], general=general)
        np.testing.assert_array_equal(out, ref, err_msg=f"general={general}")
    assert (ref != img).mean() > 0.5


@pytest.mark.parametrize("op", [NORMAL_NOISE, LAPLACE_NOISE])
@pytest.mark.parametrize("shared", [False, True])
def test_normal_and_laplace_noise_follow_numpy_on_the_stream(op, shared):
    """normal: Box-Muller on uniforms 2k, 2k + 1 (cosine for value 2k, sine for 2k + 1); Laplace:
    log(2u) below one half, -log(2 - 2u) above; numpy's float64 logs and trigonometry against
    the kernel's portable float32 ones: the same byte but where the noise lies within 1e-3 of a
    whole level (at most one level apart there)."""
    img = fixtures.photo(41, 29, channels=3, seed=4)
    scale, location, aux0 = 17.0, 3.5, 0.61
    seed = int(np.float32(aux0) * np.float32(4294967040.0))
    count = img.shape[0] * img.shape[1] if shared else img.size
    if op == NORMAL_NOISE:
        pairs = fixtures.hash_uniform(seed, np.arange(count + 1) & ~1).astype(np.float64)
        second = fixtures.hash_uniform(seed, (np.arange(count + 1) & ~1) + 1).astype(np.float64)
        radius = np.sqrt(-2.0 * np.log(pairs))
        z = np.where(np.arange(count + 1) % 2 == 0, radius * np.cos(2 * np.pi * second),
                     radius * np.sin(2 * np.pi * second))[:count]
    else:
        u = fixtures.hash_uniform(seed, np.arange(count)).astype(np.float64)
        z = np.where(u < 0.5, np.log(2 * u), -np.log(2 - 2 * u))
    noise = (location + scale * z).reshape(img.shape[:2] + (1,) if shared else img.shape)
    noise = np.broadcast_to(noise, img.shape)
    ref = np.clip(img.astype(np.int64) + np.trunc(noise).astype(np.int64), 0, 255)
    out = kernels.augment_stage(img, op + shared, scale, aux=[aux0, location]).astype(np.int64)
    near = np.abs(noise - np.round(noise)) < 1e-3
    np.testing.assert_array_equal(out[~near], ref[~near])
    assert np.abs(out - ref).max() <= 1
    assert (out != img).mean() > 0.5


def replacing_stage_images(channels):
    noise = np.random.default_rng(channels).integers(0, 256, (301, 299, channels), dtype=np.uint8)
    return [fixtures.photo(61, 47, channels=channels, seed=5), fixtures.photo(3, 2, channels=channels), noise]


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_replacing_stages_bit_identical_to_per_pixel_function(channels):
    """The CPU loops (chunked decisions, AVX2 where the CPU has it; the sepia vector loop) give
    the bytes of the per-pixel functions the GPU runs, on images whose pixel count is not a
    multiple of the chunk or of eight; each stage changes the larger images."""
    for img in replacing_stage_images(channels):
        for op, p, aux in REPLACING_STAGES:
            fast = kernels.augment_stage(img, op, p, aux=aux)
            general = kernels.augment_stage(img, op, p, aux=aux, general=True)
            np.testing.assert_array_equal(fast, general, err_msg=f"op {op} {p} {aux} {img.shape}")
            if img.size > 100 and not (op == 34 and channels == 1):
                assert (fast != img).any(), (op, p, aux, img.shape)


@pytest.mark.skipif(not _cpu_has("avx2"), reason="the vector loops need AVX2")
def test_replacing_stages_baseline_loops_equal_avx2(tmp_path):
    """The same stages with AVX2 disabled (scalar decisions, the scalar sepia loop) against the
    AVX2 loops, bit for bit."""
    images = [img for c in (1, 3, 4) for img in replacing_stage_images(c)]
    calls = f"k.augment_stage(img, op, p, aux) for img in images for op, p, aux in {REPLACING_STAGES!r}"
    baseline = _without_avx2(tmp_path, images, calls)
    outputs = [kernels.augment_stage(img, op, p, aux) for img in images for op, p, aux in REPLACING_STAGES]
    assert len(outputs) == len(baseline)
    for i, (out, expected) in enumerate(zip(outputs, baseline)):
        where = (images[i // len(REPLACING_STAGES)].shape, REPLACING_STAGES[i % len(REPLACING_STAGES)])
        np.testing.assert_array_equal(out, expected, err_msg=str(where))


DIHEDRAL = 39  # cc/kernels/augment/augment.h: bits 4 transpose, then 2 flip x, 1 flip y


@pytest.mark.parametrize("channels", [1, 2, 3, 4])
def test_dihedral_stage_is_numpys_symmetry(channels):
    """All eight codes against numpy (transpose, then [:, ::-1], then [::-1]) on squares that
    fill the CPU loop's 16-row transpose blocks and not, through the CPU loop and through the
    per-pixel function the GPU runs; a transpose of a non-square image is left out."""
    rng = np.random.default_rng(channels)
    for side in (37, 48):
        img = rng.integers(0, 256, (side, side, channels), dtype=np.uint8)
        for code in range(8):
            ref = img.transpose(1, 0, 2) if code & 4 else img
            ref = ref[:, ::-1] if code & 2 else ref
            ref = ref[::-1] if code & 1 else ref
            for general in (False, True):
                out = kernels.augment_stage(img, DIHEDRAL, float(code), aux=[0.0, 0.0], general=general)
                np.testing.assert_array_equal(out, ref, err_msg=f"code {code} side {side} general {general}")
    wide = rng.integers(0, 256, (5, 9, channels), dtype=np.uint8)
    for general in (False, True):
        np.testing.assert_array_equal(kernels.augment_stage(wide, DIHEDRAL, 6.0, [0.0, 0.0], general=general),
                                      wide[:, ::-1])


@requires_gpu
@pytest.mark.parametrize("method", ["nearest", "bilinear", "bicubic", "area"])
@pytest.mark.parametrize("antialias", [False, True])
def test_gpu_resize_equals_cpu(method, antialias):
    """Same inline math on both devices; float summation order differs: 1e-3 levels."""
    img = fixtures.photo(97, 131, channels=3)
    for h, w in [(224, 224), (31, 47), (1, 1)]:
        np.testing.assert_allclose(kernels.resize_gpu(img, h, w, method, antialias),
                                   kernels.resize(img, h, w, method, antialias), atol=1e-3)


@requires_gpu
def test_gpu_warp_affine_equals_cpu():
    img = fixtures.photo(64, 80)
    for m in GENERAL_MATRICES + ROW_AND_COLUMN_MATRICES:
        # Built with --fmad=false and -ffp-contract=off: both devices round identically.
        np.testing.assert_array_equal(kernels.warp_affine_gpu(img, m), kernels.warp_affine(img, m))


@requires_gpu
def test_gpu_augment_batch_past_the_grid_y_limit():
    """65537 samples: the statistics kernel maps samples to grid y, which stops at 65535 (it
    refused such batches, which the CPU takes); equalize needs every sample's histogram."""
    rng = np.random.default_rng(3)
    images = rng.integers(0, 256, (65537, 1, 3, 1), dtype=np.uint8)
    ops = np.full((65537, 1), 2, np.int32)  # equalize (ids are stable: cc/kernels/augment/augment.h)
    params = np.zeros((65537, 1), np.float32)
    aux = np.zeros((65537, 1, 2), np.float32)
    np.testing.assert_array_equal(kernels.augment_batch_gpu(images, ops, params, aux),
                                  kernels.augment_batch(images, ops, params, aux))


@requires_gpu
def test_gpu_resize_batch_past_the_grid_y_limit():
    """65537 images: the resampler maps jobs to grid y (at most 65535), one launch per 65535 jobs
    from `first_job`. Planted and caught: a kernel ignoring first_job (the last two images keep
    the poisoned bytes of fresh device memory under the emulator)."""
    rng = np.random.default_rng(4)
    images = list(rng.integers(0, 256, (65537, 2, 3, 1), dtype=np.uint8))
    got = kernels.resize_batch_gpu(images, 1, 2, "bilinear", False, uint8_out=True)
    for i in (0, 65534, 65535, 65536):
        np.testing.assert_array_equal(got[i], kernels.resize(images[i], 1, 2, "bilinear", False, uint8_out=True))


@requires_gpu
@pytest.mark.parametrize("channels", [1, 3, 4])
def test_gpu_decode_windows_equal_the_cpu_windows(channels):
    """Windows away from the origin, through nvJPEG's full-size output and the window copy
    kernel (and the host route for the PNG). Planted and caught: the copy ignoring the
    window's x offset."""
    blobs = [fixtures.jpeg_bytes(fixtures.photo(60, 80, seed=s)) for s in range(3)]
    blobs.append(fixtures.png_bytes(fixtures.photo(30, 40)))
    windows = [[7, 11, 20, 33], [0, 50, 60, 30], [45, 0, 15, 80], [3, 5, 10, 12]]
    got = kernels.decode_gpu(blobs, channels, windows=windows)
    for blob, window, out in zip(blobs, windows, got):
        ref = kernels.decode(blob, channels, window).astype(int)
        assert out.shape == ref.shape and np.abs(out.astype(int) - ref).mean() <= 1.5


def _restart_jpeg(height, width, seed, subsampling):
    buf = io.BytesIO()
    Image.fromarray(fixtures.photo(height, width, seed=seed)).save(
        buf, "JPEG", quality=90, subsampling=subsampling, restart_marker_blocks=1)
    return buf.getvalue()


@requires_gpu
def test_gpu_decode_of_a_window_takes_the_restart_crop(monkeypatch):
    """A window of a JPEG with restart markers reaches nvJPEG as the smaller JPEG of its
    intervals (cc/kernels/decode/jpeg_restart.h). Proof: with the first interval cut short, a
    window far from it decodes on the nvJPEG route (the entropy check and nvJPEG see only the
    smaller stream), equal to the CPU's window of the undamaged file; with the restart crop off
    (TFGPUAUG_JPEG_RESTART_CROP=0) the same call reports the damage. Windows of undamaged
    files equal the CPU decoder's on 4:4:4 and 4:2:0."""
    if kernels.nvjpeg_status()["error"]:
        pytest.skip("nvJPEG not loaded: " + kernels.nvjpeg_status()["error"])
    blobs = [_restart_jpeg(96, 160, 1, 2), _restart_jpeg(75, 131, 2, 0), _restart_jpeg(64, 64, 3, 2)]
    windows = [[40, 64, 50, 90], [17, 9, 33, 100], [0, 0, 64, 64]]
    outs, routes = kernels.decode_gpu(blobs, 3, routes=True, windows=windows)
    assert routes == ["nvjpeg"] * 3, routes
    for blob, window, out in zip(blobs, windows, outs):
        ref = kernels.decode(blob, 3, window).astype(int)
        assert out.shape == ref.shape and np.abs(out.astype(int) - ref).mean() <= 1.5
    good = blobs[0]
    sos = good.index(b"\xff\xda")
    start = sos + 2 + int.from_bytes(good[sos + 2:sos + 4], "big")
    bad = good[:start + 1] + good[good.index(b"\xff\xd0", start):]
    (out,), (route,), (error,) = kernels.decode_gpu([bad], 3, errors=True, windows=[windows[0]])
    assert (route, error) == ("nvjpeg", "")
    ref = kernels.decode(good, 3, windows[0]).astype(int)
    assert np.abs(out.astype(int) - ref).mean() <= 1.5
    monkeypatch.setenv("TFGPUAUG_JPEG_RESTART_CROP", "0")
    _, _, (error,) = kernels.decode_gpu([bad], 3, errors=True, windows=[windows[0]])
    assert "invalid JPEG" in error


@requires_gpu
def test_gpu_decode_routes_and_fallbacks():
    """Each image's decoder: sequential JPEGs through nvJPEG, PNG on the CPU, a progressive one
    through nvJPEG or back to the CPU when nvJPEG refuses it, and a JPEG cut short refused by
    name as on the CPU (it lacks its end marker, so nvJPEG never sees it). Under the emulation
    the nvJPEG here is cc/testing/fake_nvjpeg, which refuses progressive JPEGs. Planted and
    caught: a refused group sent its baseline members to the CPU too (now each is offered to
    nvJPEG alone); a cut JPEG decoded by nvJPEG came out grey where the CPU raises."""
    if kernels.nvjpeg_status()["error"]:
        pytest.skip("nvJPEG not loaded: " + kernels.nvjpeg_status()["error"])
    base = [fixtures.jpeg_bytes(fixtures.photo(40, 52, seed=s)) for s in range(3)]
    progressive = fixtures.jpeg_bytes(fixtures.photo(31, 45), progressive=True)
    png = fixtures.png_bytes(fixtures.photo(20, 18))
    outs, routes = kernels.decode_gpu([base[0], progressive, base[1], png, base[2]], 3, routes=True)
    assert routes[0] == routes[2] == routes[4] == "nvjpeg" and routes[3] == "host", routes
    assert routes[1] in ("nvjpeg", "nvjpeg_refused"), routes
    for blob, out in zip([base[0], progressive, base[1], png, base[2]], outs):
        ref = kernels.decode(blob, 3).astype(int)
        assert np.abs(out.astype(int) - ref).mean() <= 1.5
    with pytest.raises(ValueError, match="invalid JPEG"):
        kernels.decode_gpu([base[0], base[1][: len(base[1]) * 2 // 3]], 3)



@requires_gpu
def test_gpu_decode_pins_staging_only_for_what_the_cpu_decodes():
    """Pinned staging holds the images routed to the CPU plus one shared slot (the largest
    JPEG meant for nvJPEG) for those nvJPEG refuses: not every image of the batch (64 12-MP
    photos pinned ~2.3 GB before). Planted and caught: staging sized for every image."""
    if kernels.nvjpeg_status()["error"]:
        pytest.skip("nvJPEG not loaded: " + kernels.nvjpeg_status()["error"])
    jpegs = [fixtures.jpeg_bytes(fixtures.photo(40 + 4 * s, 52, seed=s)) for s in range(6)]
    png = fixtures.png_bytes(fixtures.photo(20, 18))
    _, staging = kernels.decode_gpu_buffer_sizes(jpegs + [png], 3)
    assert staging == 20 * 18 * 3 + 60 * 52 * 3


@requires_gpu
def test_gpu_decode_refused_images_share_one_staging_slot():
    """Several progressive JPEGs that nvJPEG refuses (the fake one under the emulation refuses
    every progressive JPEG) all pass through the one shared staging slot, each copied out
    before the next is written. Planted and caught under the emulation (whose asynchronous
    copies run only at the next launch or synchronize, so their source can still change): the
    slot rewritten with no wait for the previous copy (the refused images came out as the
    last one's pixels)."""
    if kernels.nvjpeg_status()["error"]:
        pytest.skip("nvJPEG not loaded: " + kernels.nvjpeg_status()["error"])
    blobs = [fixtures.jpeg_bytes(fixtures.photo(30 + 3 * s, 41, seed=s), progressive=True) for s in range(4)]
    blobs.insert(2, fixtures.jpeg_bytes(fixtures.photo(33, 47, seed=9)))
    outs, routes = kernels.decode_gpu(blobs, 3, routes=True)
    for blob, out in zip(blobs, outs):
        ref = kernels.decode(blob, 3).astype(int)
        assert out.shape == ref.shape and np.abs(out.astype(int) - ref).mean() <= 1.5, routes



def _packed_batch(dtype):
    """Three images of different sizes packed back to back, as CropResize receives ragged
    images, with boxes away from the origin (one fractional)."""
    rng = np.random.default_rng(11)
    images = [rng.integers(0, 256, (h, w, 3)).astype(dtype) for h, w in [(23, 31), (40, 17), (9, 12)]]
    values = np.concatenate([im.reshape(-1) for im in images])
    shapes = np.array([im.shape[:2] for im in images], np.int32)
    boxes = np.array([[5, 7, 12, 20], [13, 2, 20, 11], [1.5, 2.25, 6.5, 8.0]], np.float32)
    return images, values, shapes, boxes


def test_packed_crop_resize_reads_each_image_at_its_offset_and_box():
    """Nearest-neighbour crops of packed ragged images equal numpy's sampling of each image at
    its box (half-pixel centres: row y + floor((i + 0.5) * h / out_h)), down and up; float
    input equals uint8 input of the same values (bilinear, antialiased)."""
    images, values, shapes, boxes = _packed_batch(np.uint8)
    for out_h, out_w in [(8, 6), (29, 31)]:
        got = kernels.crop_resize_packed(values, 3, shapes, boxes, out_h, out_w, "nearest")
        for i in range(2):
            y, x, h, w = boxes[i].astype(int)
            rows = y + np.floor((np.arange(out_h) + 0.5) * h / out_h).astype(int)
            cols = x + np.floor((np.arange(out_w) + 0.5) * w / out_w).astype(int)
            np.testing.assert_array_equal(got[i], images[i][rows][:, cols])
    as_uint8 = kernels.crop_resize_packed(values, 3, shapes, boxes, 8, 6, "bilinear", True)
    as_float = kernels.crop_resize_packed(values.astype(np.float32), 3, shapes, boxes, 8, 6, "bilinear", True)
    np.testing.assert_allclose(as_float, as_uint8, atol=1e-4)


@requires_gpu
@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
@pytest.mark.parametrize("method,antialias", [("bilinear", True), ("bicubic", False), ("area", True)])
def test_gpu_packed_crop_resize_equals_the_cpu(dtype, method, antialias):
    """Float and uint8 input, ragged images packed at their offsets, boxes away from the origin
    (one fractional), up- and downscaling. Planted and caught under the emulation: float
    input read as uint8 (the in_is_float dispatch ignored: the 3 float cases fail); the rows
    pass reading the wrong source row (all 6 fail)."""
    _, values, shapes, boxes = _packed_batch(dtype)
    for out_h, out_w in [(8, 6), (30, 25)]:
        want = kernels.crop_resize_packed(values, 3, shapes, boxes, out_h, out_w, method, antialias)
        got = kernels.crop_resize_packed_gpu(values, 3, shapes, boxes, out_h, out_w, method, antialias)
        np.testing.assert_allclose(got, want, atol=1e-3)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))


def _bad_jpegs():
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import gpu_bad_jpegs
    return gpu_bad_jpegs.corruptions(fixtures.jpeg_bytes(fixtures.photo(64, 80, seed=3)))


def test_jpeg_entropy_check_refuses_what_the_decoder_refuses():
    """check_jpeg_entropy (the CPU check before nvJPEG) against the CPU decoder, per damage of
    scripts/gpu_bad_jpegs.py: it raises exactly where a decode raises, with the decoder's
    reason, and passes the intact file and every photo of the sample."""
    intact = fixtures.jpeg_bytes(fixtures.photo(64, 80, seed=3))
    kernels.check_jpeg_entropy(intact)
    for path in fixtures.shared_sample_files(limit=20):
        kernels.check_jpeg_entropy(open(path, "rb").read())
    refused = 0
    for name, bad in _bad_jpegs():
        try:
            kernels.decode(bad, 3)
            decode_error = None
        except ValueError as e:
            decode_error = str(e)
        if decode_error is None:
            kernels.check_jpeg_entropy(bad)
            continue
        refused += 1
        with pytest.raises(ValueError) as raised:
            kernels.check_jpeg_entropy(bad)
        assert str(raised.value) == decode_error, name
    assert refused >= 5  # the damages meant to be fatal are


@requires_gpu
def test_gpu_decode_reports_corrupt_jpegs_nvjpeg_would_take():
    """A scan cut short with its end marker kept, zeroed, or a frame taller than its scan:
    nvJPEG decoded each into made-up pixels with no error on an H100 (docs/gpu-runs), and the
    fake nvJPEG of the emulation does the same. Each image meant for nvJPEG is now entropy-
    checked on the CPU first: in a batch with good images, the bad ones come back with the CPU
    decoder's reason and zeroed pixels, the good ones decoded. Planted and caught under the
    emulation: the check removed (4 damaged files "decoded")."""
    if kernels.nvjpeg_status()["error"]:
        pytest.skip("nvJPEG not loaded: " + kernels.nvjpeg_status()["error"])
    good = [fixtures.jpeg_bytes(fixtures.photo(40, 52, seed=s)) for s in range(2)]
    for name, bad in _bad_jpegs():
        try:
            kernels.decode(bad, 3)
            expected = ""
        except ValueError as e:
            expected = str(e)
        try:
            outs, routes, errors = kernels.decode_gpu([good[0], bad, good[1]], 3, errors=True)
        except ValueError as e:  # a header the planner refuses fails the call, as the op's shape pass does
            assert expected and expected in str(e), name
            continue
        assert errors[0] == errors[2] == "" and routes[0] == routes[2] == "nvjpeg", (name, routes, errors)
        assert errors[1] == expected, (name, routes[1], errors[1])
        if expected:
            assert not outs[1].any(), name
        for i in (0, 2):
            ref = kernels.decode(good[i // 2], 3).astype(int)
            assert np.abs(outs[i].astype(int) - ref).mean() <= 1.5


@pytest.mark.skipif(not (_cpu_has("avx2") and _cpu_has("fma")), reason="the hsv_shift vector loop needs AVX2 and FMA")
def test_hsv_shift_avx2_equals_the_per_pixel_function():
    """hsv_shift's AVX2+FMA loop against the per-pixel function the GPU runs (general=True) on
    every 8-bit colour with several shift sets, 3 and 4 channels, lengths not a multiple of 8.
    Mutants caught: the hue wrap without its subtraction; a multiply-then-subtract in place of
    the FMA."""
    c = np.arange(1 << 24, dtype=np.uint32)
    cube = np.stack([(c >> 16) & 255, (c >> 8) & 255, c & 255], -1).astype(np.uint8).reshape(4096, 4096, 3)
    rgba = np.ascontiguousarray(np.concatenate([cube[:997, :1001], np.full((997, 1001, 1), 7, np.uint8)], -1))
    for img in (cube, rgba):
        for h, s, v in [(7.0, 12.0, -9.0), (-33.5, -60.0, 35.0), (179.0, 255.0, -255.0), (0.4, 0.0, 0.0)]:
            np.testing.assert_array_equal(kernels.augment_stage(img, 30, h, [s, v]),
                                          kernels.augment_stage(img, 30, h, [s, v], general=True),
                                          err_msg=str((img.shape, h, s, v)))


@pytest.mark.skipif(not _cpu_has("avx2"), reason="the iso_noise vector loop needs AVX2")
def test_iso_noise_avx2_equals_the_per_pixel_function():
    """iso_noise's AVX2 loop against the per-pixel function the GPU runs (general=True): a
    slice of every 8-bit colour (all hue sectors, gray and saturated pixels), intensities from
    none to the largest (Poisson counts 0 to several), with and without hue noise, 3 and 4
    channels, a length not a multiple of 8. Mutants caught: the lightness step without
    (1 - L); the Poisson lanes left at 0."""
    c = np.arange(1 << 24, dtype=np.uint32)[::61]
    cube = np.stack([(c >> 16) & 255, (c >> 8) & 255, c & 255], -1).astype(np.uint8)[: 997 * 275].reshape(-1, 997, 3)
    rgba = np.ascontiguousarray(np.concatenate([cube[:, :501], np.full(cube[:, :501].shape[:2] + (1,), 9, np.uint8)],
                                               -1))
    iso = 32  # iso_noise's id in cc/kernels/augment/augment.h
    for img in (cube, rgba):
        for intensity, stream, shift in [(0.3, 0.25, 0.05), (4.0, 0.7, 0.0), (10.0, 0.9, 1.0), (0.0, 0.1, 0.5)]:
            np.testing.assert_array_equal(kernels.augment_stage(img, iso, intensity, [stream, shift]),
                                          kernels.augment_stage(img, iso, intensity, [stream, shift], general=True),
                                          err_msg=str((img.shape, intensity, stream, shift)))


@pytest.mark.skipif(not _cpu_has("avx2"), reason="the median networks need AVX2")
@pytest.mark.parametrize("side", [5, 7])
def test_median_networks_equal_the_per_pixel_function(side):
    """The 5x5 and 7x7 medians' AVX2 comparator networks (sorted columns, then a pruned merge;
    replicated columns in the margins) against the per-pixel function the GPU runs, bit for bit:
    1, 3 and 4 channels, rows at the networks' threshold (32 bytes) and just below it, heights
    under the window, a last chunk overlapping the one before, 8 pixels wide under a 7x7 window. Mutants
    caught: the spare inputs all 0 (the median's place shifts); a chunk loop that skips the
    row's last bytes; margins copied from the wrong edge column."""
    rng = np.random.default_rng(12)
    for shape in [(224, 224, 3), (37, 53, 4), (20, 36, 1), (19, 35, 1), (9, 15, 3), (3, 40, 3), (31, 12, 4),
                  (6, 11, 4), (40, 77, 3), (9, 32, 1), (9, 31, 1), (5, 11, 3), (5, 10, 3), (4, 8, 4), (12, 7, 4)]:
        img = rng.integers(0, 256, shape, dtype=np.uint8)
        img[: shape[0] // 2] //= 64  # many ties too
        img[:, :1] = rng.integers(0, 256, (shape[0], 1, shape[2]), dtype=np.uint8)  # edge column unlike the next
        np.testing.assert_array_equal(kernels.augment_stage(img, 27, float(side), [0, 0]),
                                      kernels.augment_stage(img, 27, float(side), [0, 0], general=True),
                                      err_msg=str(shape))


@pytest.mark.skipif(not _cpu_has("avx2"), reason="the AVX2 HLS loop needs an AVX2 CPU")
def test_hls_lightness_avx2_equals_baseline_loop(tmp_path):
    # Eight pixels a step must give HlsLightnessPixel's bytes: tables with kept entries, levels
    # below 0 and above 255, every grey and hue, a pixel count that leaves a scalar tail.
    rng = np.random.default_rng(13)
    batch = rng.integers(0, 256, (3, 37, 41, 3), dtype=np.uint8)
    batch[0, 0, :41] = np.arange(0, 246, 6, dtype=np.uint8)[:, None]
    tables = rng.integers(-1, 300, (3, 256)).astype(np.int32)
    levels = np.where(rng.uniform(size=(3, 37, 41)) < 0.3, rng.integers(-3, 300, (3, 37, 41)), -1).astype(np.int32)
    calls = "[k.hls_lightness(images[0], images[1], images[2]), k.hls_lightness(images[0], images[1], images[3])]"
    none = np.zeros([0], np.int32)
    baseline = _without_avx2(tmp_path, [batch, tables, levels, none], calls)
    np.testing.assert_array_equal(kernels.hls_lightness(batch, tables, levels), baseline[0])
    np.testing.assert_array_equal(kernels.hls_lightness(batch, tables, none), baseline[1])


def test_zoom_blur_vector_loop_equals_scalar_loop():
    """ZoomBlur's AVX2 loop (float planes; RGB loads and stores eight pixels a step, the rest
    per byte; column taps gathered by permutes; zooms summed a row at a time in groups of 32)
    against the scalar loop the non-AVX2 CPUs run, bit for bit: widths on either side of the
    eight- and ten-pixel steps, 1, 3 and 4 channels, 1 x 1, no zoom, 60 zooms (two groups), a
    factor of 3 (crops of a third). On CPUs without AVX2 both calls run the scalar loop."""
    rng = np.random.default_rng(21)
    shapes = [(37, 53, 3), (20, 9, 3), (16, 10, 3), (12, 18, 3), (64, 17, 1), (33, 40, 4), (5, 300, 3), (1, 1, 3)]
    factors = np.array([1.31, 1.6, 1.0, 3.0]), np.array([0.013, 0.01, 0.1, 0.5])
    for shape in shapes:
        images = rng.integers(0, 256, (4,) + shape, dtype=np.uint8)
        images[1] = fixtures.photo(*shape, seed=shape[0])
        np.testing.assert_array_equal(kernels.zoom_blur(images, *factors),
                                      kernels.zoom_blur(images, *factors, scalar=True), err_msg=str(shape))


@pytest.mark.skipif(not _cpu_has("avx2"), reason="the vector loops need an AVX2 CPU")
def test_radial_remap_vector_loops_equal_baseline(tmp_path):
    """ChromaticAberration's per-channel radial remap with its AVX2 pieces (the map entries'
    clone, taps within 15 bytes read by two loads and byte shuffles in place of gathers, the RGB
    channel put back sixteen pixels a step) against the baseline loops, bit for bit: red and
    blue bent both ways, strong coefficients whose taps spread past the shuffles' reach, every
    border rule, bilinear and nearest, RGB, RGBA and one channel, widths off the 16-pixel step."""
    rng = np.random.default_rng(17)
    images = [fixtures.photo(224, 224, channels=3, seed=5), rng.integers(0, 256, (37, 53, 3), dtype=np.uint8),
              fixtures.photo(30, 41, channels=4, seed=6), rng.integers(0, 256, (19, 23, 1), dtype=np.uint8)]
    pairs = [(0.02, -0.015), (-0.02, 0.01), (0.3, -0.2), (-0.6, 0.4)]
    coefficients = [np.array([[[k1, k2] if ch != 1 else [0.0, 0.0] for ch in range(img.shape[2])]
                              for k1, k2 in pairs], np.float32) for img in images]
    calls = ("k.remap_radial(np.repeat(img[None], 4, 0), co, bilinear, border, 9.0) for img, co in "
             "zip(images, coefficients) for bilinear in (True, False) for border in (0, 1, 2)")
    np.savez(tmp_path / "co.npz", *coefficients)
    baseline = _without_avx2(tmp_path, images, calls.replace(
        "coefficients", f"[np.load({str(tmp_path / 'co.npz')!r})[f'arr_{{i}}'] for i in range({len(images)})]"))
    outputs = [kernels.remap_radial(np.repeat(img[None], 4, 0), co, bilinear, border, 9.0)
               for img, co in zip(images, coefficients) for bilinear in (True, False) for border in (0, 1, 2)]
    assert len(outputs) == len(baseline) == 24
    for i, (out, expected) in enumerate(zip(outputs, baseline)):
        np.testing.assert_array_equal(out, expected, err_msg=str(i))


@pytest.mark.skipif(not _cpu_has("avx2"), reason="the vector loops need an AVX2 CPU")
def test_spatter_vector_loops_equal_baseline(tmp_path):
    """Spatter's mud and rain with its AVX2 pieces (the noise eight lanes a step, both blurs' register
    blocks along rows and down columns, the blend 24 bytes a step with its float64 quotients)
    against the baseline loops, bit for bit: widths on either side of the 8-, 16- and 32-wide
    blocks, kernels wider than the image, sigma 0, a 0 colour level, the fallback marks, every
    pixel marked, a sample left alone."""
    rng = np.random.default_rng(23)
    shapes = [(224, 224), (37, 53), (5, 300), (1, 1), (20, 9), (33, 64)]
    sigmas = np.array([2.0, 0.0, 3.7, 0.6])
    side1, side2 = 2 * round(3 * sigmas.max()) + 1, int(round(sigmas.max() * 8 + 1)) | 1
    t1, t2 = np.zeros((4, side1)), np.zeros((4, side2), np.float32)
    for b, s in enumerate(sigmas):
        n1, n2 = (int(2 * round(3 * s) + 1), int(round(s * 8 + 1)) | 1) if s > 0 else (1, 1)
        x1, x2 = np.arange(n1) - (n1 - 1) / 2, np.arange(n2) - (n2 - 1) / 2
        g1 = np.exp(-x1 * x1 / (2 * s * s)) if s > 0 else np.ones(1)
        g2 = np.exp(-x2 * x2 / (2 * s * s)) if s > 0 else np.ones(1)
        t1[b, (side1 - n1) // 2:(side1 + n1) // 2] = g1 / g1.sum()
        t2[b, (side2 - n2) // 2:(side2 + n2) // 2] = g2 / g2.sum()
    params = np.array([[0.65, 0.3, 0.68, 0.6], [0.6, 0.3, -0.1, 1.0], [0.5, 0.2, 1.0, 0.8], [0.6, 0.3, 0.6, 0.0]])
    seeds = np.array([1, -9, 77, 5], np.int32)
    colours = [np.array([20.0, 42.0, 63.0]), np.array([0.0, 255.0, 7.0])]
    batches = [rng.integers(0, 256, (4, h, w, 3), dtype=np.uint8) for h, w in shapes]
    batches[0][1] = fixtures.photo(224, 224, seed=3)
    count = len(batches)
    args = [params, seeds, t1, t2] + colours
    calls = (f"k.spatter_mud(images[i], *images[{count}:{count + 4}], images[{count + 4} + c]) "
             f"for i in range({count}) for c in range(2)")
    baseline = _without_avx2(tmp_path, batches + args, calls)
    outputs = [kernels.spatter_mud(batch, params, seeds, t1, t2, colour) for batch in batches for colour in colours]
    assert len(outputs) == len(baseline) == 2 * count
    for i, (out, expected) in enumerate(zip(outputs, baseline)):
        np.testing.assert_array_equal(out, expected, err_msg=str(i))
    np.testing.assert_array_equal(outputs[0][3], batches[0][3])  # intensity 0: left alone
    rain_calls = (f"k.spatter_rain(images[i], *images[{count}:{count + 3}], images[{count + 4}]) "
                  f"for i in range({count})")
    rain_baseline = _without_avx2(tmp_path, batches + args, rain_calls)
    for i, batch in enumerate(batches):
        np.testing.assert_array_equal(kernels.spatter_rain(batch, params, seeds, t1, colours[0]), rain_baseline[i],
                                      err_msg=f"rain {i}")
