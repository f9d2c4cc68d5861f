"""CLAHE (the fused kernel's clahe stage, issue 36) against Albumentations 2.0.8's CLAHE, which is
cv2.createCLAHE(...).apply on the L of cv2.cvtColor(RGB2LAB), converted back with LAB2RGB.

The references: a numpy port of OpenCV's 8-bit L*a*b* conversions over the generated tables
(checked against the CIE formulas here, and against cv2 on all 2^24 inputs each way where cv2
is installed), and a numpy port of cv::CLAHE's tiles, clipping and interpolation (checked
against cv2 where installed). The kernel must equal them bit for bit."""
import importlib.util
import os
import sys

import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug.augment import ops

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
F = np.float32


def _generator():
    spec = importlib.util.spec_from_file_location("gen_lab_tables", os.path.join(ROOT, "build_tools",
                                                                                  "gen_lab_tables.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()
GAMMA, CBRT, INV_GAMMA, LIGHTNESS = (GEN.gamma_table(), GEN.cbrt_table(), GEN.inverse_gamma_table(),
                                     GEN.lightness_table())
TO_XYZ = np.array([[1777, 1541, 778], [871, 2929, 296], [73, 448, 3575]], np.int64)
TO_RGB = np.array([[12615, -6296, -2223], [-3773, 7684, 185], [217, -836, 4715]], np.int64)


def descale(x, n):
    return (x + (1 << (n - 1))) >> n


def lab_from_rgb(rgb):
    """OpenCV's RGB2Lab_b in numpy, int64."""
    lin = GAMMA[rgb.astype(np.int64)]
    f = [CBRT[descale(lin @ TO_XYZ[k], 12)] for k in range(3)]
    lab = [descale(296 * f[1] - 1336934, 15), descale(500 * (f[0] - f[1]) + (128 << 15), 15),
           descale(200 * (f[1] - f[2]) + (128 << 15), 15)]
    return np.clip(np.stack(lab, -1), 0, 255).astype(np.uint8)


def _xz_from_f(f):
    return np.where(f <= 3390, np.trunc(f * 108 / 841).astype(np.int64) - 290, f * f // 16384 * f // 16384)


def rgb_from_lab(lab):
    """OpenCV's bit-exact integer Lab2RGB_b in numpy."""
    lab = lab.astype(np.int64)
    light, a, b = lab[..., 0], lab[..., 1], lab[..., 2]
    y, fy = LIGHTNESS[2 * light], LIGHTNESS[2 * light + 1]
    x = _xz_from_f(fy + ((5 * a * 53687 + 128) >> 13) - 4194)
    z = _xz_from_f(fy - (((b * 41943 + 16) >> 9) - 10485 + 1))
    xyz = np.stack([x, y, z], -1)
    out = [INV_GAMMA[np.clip(descale(xyz @ TO_RGB[k], 14), 0, 4095)] for k in range(3)]
    return np.clip(np.stack(out, -1), 0, 255).astype(np.uint8)


def _reflect101(i, n):
    if n == 1:
        return np.zeros_like(i)
    period = 2 * (n - 1)
    i = np.mod(i, period)
    return np.where(i < n, i, period - i)


def clahe_plane(src, clip, tiles_x, tiles_y):
    """cv::CLAHE on one uint8 plane, in numpy: OpenCV's grid extension, int clip count,
    redistribution, float32 table scale and float32 bilinear blend, rounded half to even."""
    h, w = src.shape
    if w % tiles_x == 0 and h % tiles_y == 0:
        th, tw = h // tiles_y, w // tiles_x
    else:
        th, tw = (h + tiles_y - h % tiles_y) // tiles_y, (w + tiles_x - w % tiles_x) // tiles_x
    total = th * tw
    limit = max(int(float(clip) * total / 256), 1) if clip > 0 else 0
    scale = F(255) / F(total)
    luts = np.zeros((tiles_y, tiles_x, 256), np.uint8)
    for ty in range(tiles_y):
        for tx in range(tiles_x):
            ys = _reflect101(np.arange(ty * th, (ty + 1) * th), h)
            xs = _reflect101(np.arange(tx * tw, (tx + 1) * tw), w)
            hist = np.bincount(src[np.ix_(ys, xs)].ravel(), minlength=256).astype(np.int64)
            if limit > 0:
                clipped = int(np.maximum(hist - limit, 0).sum())
                hist = np.minimum(hist, limit) + clipped // 256
                residual, i = clipped % 256, 0
                step = max(256 // residual, 1) if residual else 256
                while i < 256 and residual > 0:
                    hist[i] += 1
                    i, residual = i + step, residual - 1
            luts[ty, tx] = np.clip(np.rint(np.cumsum(hist).astype(F) * scale), 0, 255)

    def taps(n, tile, tiles):
        f = np.arange(n, dtype=F) * (F(1) / F(tile)) - F(0.5)
        t = np.floor(f).astype(np.int64)
        w2 = (f - t.astype(F)).astype(F)
        return np.maximum(t, 0), np.minimum(t + 1, tiles - 1), F(1) - w2, w2

    y1, y2, wy1, wy2 = taps(h, th, tiles_y)
    x1, x2, wx1, wx2 = taps(w, tw, tiles_x)
    v = src.astype(np.int64)

    def lut(ty, tx):
        return luts[ty[:, None], tx[None, :], v].astype(F)

    upper, lower = lut(y1, x1) * wx1 + lut(y1, x2) * wx2, lut(y2, x1) * wx1 + lut(y2, x2) * wx2
    res = upper * wy1[:, None] + lower * wy2[:, None]
    return np.clip(np.rint(res), 0, 255).astype(np.uint8)


def clahe_reference(image, clip, tiles):
    """Albumentations' clahe: gray planes directly, RGB through L*a*b* (alpha kept)."""
    if image.shape[-1] < 3:
        out = image.copy()
        out[..., 0] = clahe_plane(image[..., 0], clip, *tiles)
        return out
    lab = lab_from_rgb(image[..., :3])
    lab[..., 0] = clahe_plane(lab[..., 0], clip, *tiles)
    return np.concatenate([rgb_from_lab(lab), image[..., 3:]], -1)


@pytest.fixture(scope="module")
def photos():
    files = fixtures.shared_sample_files(2)
    if files:
        from PIL import Image
        real = [np.asarray(Image.open(f).convert("RGB").resize((61, 47))) for f in files]
    else:
        real = [fixtures.photo(47, 61, seed=9), fixtures.photo(47, 61, seed=10)]
    return np.stack(real + [fixtures.photo(47, 61, seed=s) for s in range(2)])


def test_lab_tables_header_is_generated_from_the_definitions():
    with open(GEN.HEADER) as f:
        assert f.read() == GEN.render(), "cc/kernels/augment/opencv_lab_tables.h is stale: rerun the generator"


def test_lab_ports_agree_with_the_cie_formulas():
    """Independent of OpenCV: the fixed-point conversion is CIE L*a*b* (D65, sRGB) to within
    two levels, and the round trip returns colours to within a level on average."""
    rng = np.random.default_rng(0)
    rgb = rng.integers(0, 256, (20000, 3)).astype(np.uint8)
    c = rgb / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    xyz = lin @ np.array([[0.412453, 0.357580, 0.180423], [0.212671, 0.715160, 0.072169],
                          [0.019334, 0.119193, 0.950227]]).T / np.array([0.950456, 1.0, 1.088754])
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), xyz * 841 / 108 + 16 / 116)
    expected = np.stack([(116 * f[:, 1] - 16) * 255 / 100, 500 * (f[:, 0] - f[:, 1]) + 128,
                         200 * (f[:, 1] - f[:, 2]) + 128], -1)
    lab = lab_from_rgb(rgb).astype(float)
    error = np.abs(lab - np.clip(expected, 0, 255))
    # OpenCV's 8-bit path rounds the linear light to 1/2040 and the cube root to 2^-15: its L is
    # within 1.23 levels of the formula (a within 1.88, b within 1.2) on these colours
    assert np.all(error.max(0) <= [1.5, 2.0, 2.0]) and error.mean() < 0.4
    # the round trip: 8-bit a and b are coarse for dark saturated colours, so a few move far
    trip = np.abs(rgb_from_lab(lab_from_rgb(rgb)).astype(int) - rgb)
    assert trip.mean() < 1.0 and np.quantile(trip, 0.95) <= 2 and np.quantile(trip, 0.995) <= 10


def test_lab_ports_equal_opencv_on_every_colour_where_installed():
    cv2 = pytest.importorskip("cv2")
    every = np.arange(1 << 24, dtype=np.uint32)
    img = np.stack([(every >> 16) & 255, (every >> 8) & 255, every & 255], -1).astype(np.uint8).reshape(4096, 4096, 3)
    np.testing.assert_array_equal(lab_from_rgb(img), cv2.cvtColor(img, cv2.COLOR_RGB2LAB))
    np.testing.assert_array_equal(rgb_from_lab(img), cv2.cvtColor(img, cv2.COLOR_LAB2RGB))


def test_linear_branch_multiply_equals_the_division_for_every_reachable_f():
    """The CPU loops compute the conversion back's f * 108 / 841 (C division, toward zero) as f
    times the float 108/841, truncated (clahe_avx2.cc's XzFromF). Every f it can see: the
    lightness table's f(Y) plus a*'s term or minus b*'s, for every L, a and b, where f <= 3390
    (above, the cube is taken). float32 products round as the vector multiply does."""
    fy = LIGHTNESS[1::2].astype(np.int64)[:, None]
    code = np.arange(256, dtype=np.int64)[None, :]
    f = np.concatenate([(fy + ((5 * code * 53687 + 128) >> 13) - 4194).ravel(),
                        (fy - (((code * 41943 + 16) >> 9) - 10485 + 1)).ravel()])
    f = np.unique(f[f <= 3390])
    assert f.min() < -8000 and f.max() == 3390  # both signs, up to the branch
    product = f * 108
    division = np.where(product >= 0, product // 841, -(-product // 841))
    multiply = np.trunc(f.astype(F) * (F(108) / F(841))).astype(np.int64)
    np.testing.assert_array_equal(multiply, division)


def test_clahe_port_equals_opencv_where_installed(photos):
    cv2 = pytest.importorskip("cv2")
    gray = [p[..., 1] for p in photos] + [np.random.default_rng(1).integers(0, 256, s, dtype=np.uint8)
                                          for s in ((7, 9), (1, 40), (5, 1), (64, 64))]
    for k, plane in enumerate(gray):
        for tiles, clip in (((8, 8), 4.0), ((3, 5), 1.5), ((1, 1), 0.0), ((16, 2), 40.0)):
            expected = cv2.createCLAHE(clipLimit=clip, tileGridSize=tiles).apply(plane)
            np.testing.assert_array_equal(clahe_plane(plane, clip, *tiles), expected, err_msg=f"{k} {tiles} {clip}")


@pytest.mark.parametrize("tiles", [(8, 8), (3, 5), (1, 1), (16, 16), (7, 2)])
@pytest.mark.parametrize("channels", [1, 3, 4])
def test_kernel_equals_the_reference(photos, tiles, channels):
    """Bit for bit, on grids that divide the image and ones that make OpenCV extend it (47 x 61
    with every grid here but (1, 1)), per-sample clip limits including none (0) and ones that
    saturate (300 caps at 256)."""
    if channels == 1:
        images = photos[..., 1:2]
    elif channels == 4:
        images = np.concatenate([photos, photos[..., :1][:, ::-1]], -1)
    else:
        images = photos
    clips = np.array([4.0, 1.0, 0.0, 300.0], np.float32)[: len(images)]
    out = ops.clahe(images, clips, tiles).numpy()
    for i in range(len(images)):
        np.testing.assert_array_equal(out[i], clahe_reference(images[i], min(float(clips[i]), 256.0), tiles),
                                      err_msg=f"sample {i}")


def test_kernel_on_the_full_size_sample_equals_the_reference():
    files = fixtures.shared_sample_files(1)
    if not files:
        pytest.skip("../shared/data/imagenet-sample is not here")
    from PIL import Image
    image = np.asarray(Image.open(files[0]).convert("RGB"))[None]
    out = ops.clahe(image, 2.0).numpy()[0]
    np.testing.assert_array_equal(out, clahe_reference(image[0], 2.0, (8, 8)))
    assert np.abs(out.astype(int) - image[0]).mean() > 1.0  # it did equalise


def test_matches_albumentations_clahe_where_installed(photos):
    A = pytest.importorskip("albumentations")
    for i, tiles in enumerate(((8, 8), (4, 2))):
        clip = 2.5 + i
        expected = A.CLAHE(clip_limit=(clip, clip), tile_grid_size=tiles, p=1.0)(image=photos[i])["image"]
        np.testing.assert_array_equal(ops.clahe(photos[i:i + 1], clip, tiles).numpy()[0], expected)


def test_transform_draws_per_sample_and_leaves_inference_alone(photos):
    t = tga.CLAHE(clip_limit=(1.0, 6.0), probability=1.0, seed=3)
    out = t(tf.constant(photos)).numpy()
    changed = [not np.array_equal(out[i], photos[i]) for i in range(len(photos))]
    assert all(changed)
    # per-sample limits: each sample equals the reference at one of the limits in range, and
    # not all samples at the same limit (compare sample 0's limit on the others)
    np.testing.assert_array_equal(t(tf.constant(photos), training=False).numpy(), photos)
    none = tga.CLAHE(probability=0.0, seed=3)(tf.constant(photos)).numpy()
    np.testing.assert_array_equal(none, photos)
    images, op_ids, params = tga.augment.random_clahe(photos, (1.0, 6.0), probability=1.0, seed=4,
                                                      return_plan=True)
    limits = params.numpy()[:, 0]
    assert np.all((limits >= 1.0) & (limits <= 6.0)) and np.ptp(limits) > 0.1
    for i in range(len(photos)):
        np.testing.assert_array_equal(images.numpy()[i], clahe_reference(photos[i], float(limits[i]), (8, 8)))
    layer = tga.keras.CLAHE(clip_limit=3.0, tile_grid_size=(4, 4), probability=1.0, seed=1)
    assert layer.get_config()["tile_grid_size"] == (4, 4)


def test_policies_can_draw_clahe(photos):
    """The registry's clahe: clip limit 1 .. 4 over the magnitude bins, the default 8 x 8 grid
    (the policy's uniform aux numbers are below 1)."""
    out, _, params = tga.augment.rand_augment(photos, num_ops=1, magnitude=9, augmentations=["clahe"], seed=2,
                                              return_plan=True)
    limit = float(np.float32(1.0 + 3.0 * 9 / 30))
    np.testing.assert_allclose(params.numpy(), limit, rtol=1e-6)
    for i in range(len(photos)):
        np.testing.assert_array_equal(out.numpy()[i], clahe_reference(photos[i], float(params.numpy()[i, 0]), (8, 8)))


@pytest.mark.parametrize("kwargs, message", [
    (dict(tile_grid_size=(0, 8)), "tile_grid_size"),
    (dict(tile_grid_size=(8, 17)), "tile_grid_size"),
    (dict(tile_grid_size=(8.0, 8)), "tile_grid_size"),
    (dict(tile_grid_size=(8,)), "tile_grid_size"),
    (dict(clip_limit=(4.0, 1.0)), "clip_limit"),
    (dict(clip_limit=(-1.0, 2.0)), "clip_limit"),
    (dict(clip_limit=300.0), "clip_limit"),
    (dict(probability=1.5), "probability"),
])
def test_bad_arguments_fail_at_construction(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tga.CLAHE(**kwargs)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v"]))
