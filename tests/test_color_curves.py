"""HueSaturationValue (op hsv_shift) and RandomToneCurve (op tone_curve) against independent
numpy ports of their references: OpenCV's 8-bit HSV conversions (cv2.COLOR_RGB2HSV's fixed
point; COLOR_HSV2RGB's float vector loop with its fused multiply-adds, truncated) under
Albumentations 2.0.8's shift rules, and Albumentations' Bezier tone curve. Tolerance: exact (0 levels) everywhere.
Where albumentations and cv2 are installed (a dev venv, not CI), also against them."""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug.augment import ops

F32 = np.float32


def rgb_to_hsv_opencv(img: np.ndarray) -> np.ndarray:
    """cv2.COLOR_RGB2HSV for uint8: 12-bit fixed point with rounded reciprocal tables."""
    r, g, b = (img[..., k].astype(np.int64) for k in range(3))
    v = np.maximum(np.maximum(r, g), b)
    diff = v - np.minimum(np.minimum(r, g), b)
    i = np.arange(1, 256)
    sdiv = np.concatenate([[0], np.round((255 << 12) / i)]).astype(np.int64)
    hdiv = np.concatenate([[0], np.round((180 << 12) / (6.0 * i))]).astype(np.int64)
    s = (diff * sdiv[v] + (1 << 11)) >> 12
    h = np.where(v == r, g - b, np.where(v == g, b - r + 2 * diff, r - g + 4 * diff))
    h = (h * hdiv[diff] + (1 << 11)) >> 12
    return np.stack([np.where(h < 0, h + 180, h), s, v], -1)


def fma32(a, b, c):
    """float32 a * b + c rounded once (the float64 product of two float32s is exact)."""
    return (a.astype(np.float64) * b.astype(np.float64) + c).astype(F32)


def hsv_to_rgb_opencv(hsv: np.ndarray) -> np.ndarray:
    h = hsv[..., 0].astype(F32) * F32(6.0 / 180.0)
    s = hsv[..., 1].astype(F32) * F32(1.0 / 255.0)
    v = hsv[..., 2].astype(F32) * F32(1.0 / 255.0)
    sector = np.floor(h)
    frac = (h - sector).astype(F32)
    one = F32(1.0)
    tab = np.stack([v, v * (one - s), v * fma32(-s, frac, one), v * fma32(-s, one - frac, one)], -1)
    rgb_of = np.array([[0, 3, 1], [2, 0, 1], [1, 0, 3], [1, 2, 0], [3, 1, 0], [0, 1, 2]])
    rgb = np.take_along_axis(tab, rgb_of[sector.astype(np.int64) % 6], -1)
    rgb = np.where(hsv[..., 1:2] == 0, v[..., None], rgb)
    return np.clip(np.trunc(rgb * F32(255.0)), 0, 255).astype(np.uint8)


def hsv_shift_reference(img: np.ndarray, hue: float, sat: float, val: float) -> np.ndarray:
    """Albumentations 2.0.8's shift_hsv on uint8 RGB: a hue table np.mod(h + hue, 180) cast to
    uint8, saturation and value + int(shift) clipped, saturation 0 kept."""
    if hue == 0 and sat == 0 and val == 0:
        return img
    hsv = rgb_to_hsv_opencv(img)
    h = np.mod(np.arange(256) + np.float64(hue), 180).astype(np.uint8)[hsv[..., 0]].astype(np.int64)
    s = np.where(hsv[..., 1] == 0, 0, np.clip(hsv[..., 1] + int(sat), 0, 255))
    v = np.clip(hsv[..., 2] + int(val), 0, 255)
    return hsv_to_rgb_opencv(np.stack([h, s, v], -1))


def tone_curve_reference(img: np.ndarray, low: float, high: float) -> np.ndarray:
    t = np.linspace(0.0, 1.0, 256)
    u = 1 - t
    curve = (3 * u ** 2 * t * low + 3 * u * t ** 2 * high + t ** 3) * 255
    return np.clip(np.rint(curve), 0, 255).astype(np.uint8)[img]


@pytest.fixture(scope="module")
def images():
    """Three photos and a 64x96 patch of random colours (every hue sector, gray pixels too)."""
    rng = np.random.default_rng(5)
    colours = rng.integers(0, 256, (64, 96, 3), dtype=np.uint8)
    colours[:8] = colours[:8, :, :1]  # gray rows: saturation 0
    return np.stack([fixtures.photo(64, 96, seed=s) for s in range(3)] + [colours])


def test_the_rgb_to_hsv_port_is_close_to_the_textbook_hsv():
    """The numpy port (the oracle below) against the textbook HSV on every 7th of the 2^24
    colours: value exact, saturation within 0.6 of a level (the fixed point's reciprocal tables
    add to the rounding), hue within one 2-degree step (cyclically). This checks the oracle, not
    the kernel; the kernel is checked against the oracle."""
    c = np.arange(0, 1 << 24, 7, dtype=np.uint32)
    img = np.stack([(c >> 16) & 255, (c >> 8) & 255, c & 255], -1).astype(np.uint8)
    hsv = rgb_to_hsv_opencv(img)
    x = img.astype(np.float64)
    mx, mn = x.max(-1), x.min(-1)
    np.testing.assert_array_equal(hsv[..., 2], mx)
    sat = np.divide(255 * (mx - mn), mx, out=np.zeros_like(mx), where=mx > 0)
    assert np.abs(hsv[..., 1] - sat).max() <= 0.6
    d = np.where(mx > mn, mx - mn, 1)
    hue = np.where(mx == x[..., 0], (x[..., 1] - x[..., 2]) / d,
                   np.where(mx == x[..., 1], 2 + (x[..., 2] - x[..., 0]) / d, 4 + (x[..., 0] - x[..., 1]) / d)) * 30
    err = np.abs(np.mod(hsv[..., 0] - hue + 90, 180) - 90)
    assert err[mx > mn].max() <= 1.0


@pytest.mark.parametrize("hue,sat,val", [(7.0, 0.0, 0.0), (-33.0, 0.0, 0.0), (0.0, 40.0, 0.0), (0.0, -60.0, 0.0),
                                         (0.0, 0.0, 35.0), (0.0, 0.0, -50.0), (12.6, -17.9, 23.4),
                                         (-0.4, 0.7, -0.9), (179.0, 255.0, -255.0), (0.0, 0.0, 0.0)])
def test_hsv_shift_equals_the_reference(images, hue, sat, val):
    got = ops.hsv_shift(images, hue, sat, val).numpy()
    want = np.stack([hsv_shift_reference(i, hue, sat, val) for i in images])
    np.testing.assert_array_equal(got, want)


def test_hsv_shift_per_sample_gray_and_alpha(images):
    """Per-sample shifts in one batch; a gray image gets the value shift alone (saturated); the
    alpha channel of RGBA is kept."""
    hue, sat, val = [5.0, -20.0, 90.0, 0.0], [10.0, 0.0, -30.0, 50.0], [-5.0, 30.0, 0.0, 12.0]
    got = ops.hsv_shift(images, hue, sat, val).numpy()
    for i in range(4):
        np.testing.assert_array_equal(got[i], hsv_shift_reference(images[i], hue[i], sat[i], val[i]))
    gray = images[:, :, :, :1]
    np.testing.assert_array_equal(ops.hsv_shift(gray, 40.0, 50.0, 100.0).numpy(),
                                  np.clip(gray.astype(int) + 100, 0, 255))
    alpha = np.arange(images[..., :1].size, dtype=np.uint8).reshape(images[..., :1].shape)
    rgba = np.concatenate([images, alpha], -1)
    out = ops.hsv_shift(rgba, 20.0, 10.0, -10.0).numpy()
    np.testing.assert_array_equal(out[..., 3], alpha[..., 0])
    np.testing.assert_array_equal(out[..., :3], ops.hsv_shift(images, 20.0, 10.0, -10.0).numpy())


@pytest.mark.parametrize("low,high", [(0.25, 0.75), (0.1, 0.9), (0.4, 0.6), (0.0, 1.0), (1.0, 0.0), (0.31, 0.66)])
def test_tone_curve_equals_albumentations_formula(images, low, high):
    np.testing.assert_array_equal(ops.tone_curve(images, low, high).numpy(), tone_curve_reference(images, low, high))


def test_tone_curve_clamps_its_control_points(images):
    np.testing.assert_array_equal(ops.tone_curve(images, -0.5, 1.7).numpy(), tone_curve_reference(images, 0.0, 1.0))
    np.testing.assert_array_equal(ops.tone_curve(images, float("nan"), 0.75).numpy(),
                                  tone_curve_reference(images, 0.0, 0.75))


def test_random_hsv_shift_draws_in_its_ranges(images):
    """Each sample's output equals the reference at its drawn shifts (return_plan), and the draws
    lie in the ranges; probability 0 keeps every image; the transform at inference too."""
    batch = np.concatenate([images] * 4)
    out, op_ids, params = tga.augment.random_hsv_shift(batch, (-10.0, 10.0), 30.0, (5.0, 20.0), probability=0.7,
                                                       seed=3, return_plan=True)
    assert np.all(np.abs(params.numpy()) <= 10.0)
    applied = op_ids.numpy()[:, 0] == ops.OP_IDS["hsv_shift"]
    assert 0 < applied.sum() < len(batch)
    np.testing.assert_array_equal(out.numpy()[~applied], batch[~applied])
    for i in np.flatnonzero(applied):
        differs = (out.numpy()[i] != batch[i]).mean()
        assert differs > 0.3, (i, differs)  # a value shift of at least 5 moves most pixels
    np.testing.assert_array_equal(tga.augment.random_hsv_shift(images, probability=0.0, seed=1).numpy(), images)
    t = tga.HueSaturationValue(10, 20, 20, probability=1.0, seed=4)
    np.testing.assert_array_equal(t(tf.constant(images), training=False).numpy(), images)


def test_random_tone_curve_plan_matches_its_lut(images):
    out, op_ids, params = tga.augment.random_tone_curve(images, scale=0.2, probability=1.0, seed=9,
                                                        return_plan=True)
    assert np.all(op_ids.numpy() == ops.OP_IDS["tone_curve"])
    assert np.all((params.numpy() >= 0.0) & (params.numpy() <= 1.0))
    assert len(np.unique(params.numpy())) == len(images)  # per-sample control points


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_tone_curve_per_channel_equals_one_curve_per_channel(images, channels):
    """ops.tone_curve with [B, C] control points: channel k through its own curve, exactly
    (Albumentations' move_tone_curve with arrays), one kernel stage per channel."""
    imgs = np.concatenate([images, images[..., :1]], -1)[..., :channels]
    rng = np.random.default_rng(3)
    low, high = rng.uniform(0, 1, (len(imgs), channels)), rng.uniform(0, 1, (len(imgs), channels))
    low, high = low.astype(np.float32), high.astype(np.float32)
    got = ops.tone_curve(imgs, low, high).numpy()
    for b in range(len(imgs)):
        for k in range(channels):
            np.testing.assert_array_equal(got[b, ..., k],
                                          tone_curve_reference(imgs[b, ..., k], float(low[b, k]), float(high[b, k])),
                                          err_msg=f"sample {b} channel {k}")


def test_random_tone_curve_per_channel_draws_per_channel(images):
    out, op_ids, params = tga.augment.random_tone_curve(images, scale=0.2, probability=1.0, seed=9,
                                                        return_plan=True, per_channel=True)
    assert op_ids.shape == (len(images), 3) and np.all(op_ids.numpy() == ops.OP_IDS["tone_curve"])
    lows = params.numpy()
    assert len(np.unique(lows)) == lows.size  # a darks' height per sample and channel
    # each channel is its own curve: its darks' height is the plan's, and some high height in
    # [0, 1] (searched on a grid) reproduces the channel within one level
    grid = np.linspace(0, 1, 201)
    for b in range(len(images)):
        for k in range(3):
            best = min(np.abs(out.numpy()[b, ..., k].astype(int)
                              - tone_curve_reference(images[b, ..., k], float(lows[b, k]), h)).max() for h in grid)
            assert best <= 1, (b, k)
    # scale 0: every curve is the mean curve, per channel or not
    same = tga.augment.random_tone_curve(images, scale=0.0, probability=1.0, seed=2, per_channel=True).numpy()
    np.testing.assert_array_equal(same, tone_curve_reference(images, 0.25, 0.75))
    none = tga.RandomToneCurve(probability=0.0, per_channel=True, seed=1)(tf.constant(images)).numpy()
    np.testing.assert_array_equal(none, images)


def test_tone_curve_per_channel_equals_albumentations_where_installed(images):
    albumentations = pytest.importorskip("albumentations")
    low, high = np.array([0.1, 0.3, 0.5], np.float32), np.array([0.9, 0.6, 0.7], np.float32)
    want = albumentations.augmentations.pixel.functional.move_tone_curve(images[0], low.astype(np.float64),
                                                                         high.astype(np.float64))
    np.testing.assert_array_equal(ops.tone_curve(images[:1], low[None], high[None]).numpy()[0], want)


@pytest.mark.parametrize("kwargs,match", [
    (dict(hue_shift=200.0), "hue_shift"), (dict(sat_shift=(10.0, -10.0)), "sat_shift"),
    (dict(val_shift=(-300.0, 0.0)), "val_shift"), (dict(probability=1.5), "probability")])
def test_hue_saturation_value_refuses_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        tga.HueSaturationValue(**kwargs)


def test_random_tone_curve_refuses_bad_arguments():
    with pytest.raises(ValueError, match="scale"):
        tga.RandomToneCurve(scale=-0.1)


def test_equal_to_albumentations_where_installed(images):
    """Dev venv only: Albumentations 2.0.8 itself (OpenCV 4.10 or 5.0) with fixed shifts: exact
    but for the last (width mod 32) pixels of each row, which OpenCV's scalar tail rounds (one
    level at most there)."""
    albumentations = pytest.importorskip("albumentations")
    body = images.shape[2] // 32 * 32
    for hue, sat, val in [(7.0, 12.0, -9.0), (-20.0, -30.0, 20.0), (13.7, 21.2, -14.8)]:
        transform = albumentations.HueSaturationValue((hue, hue), (sat, sat), (val, val), p=1.0)
        want = np.stack([transform(image=i)["image"] for i in images])
        got = ops.hsv_shift(images, hue, sat, val).numpy()
        np.testing.assert_array_equal(got[:, :, :body], want[:, :, :body])
        assert np.abs(got.astype(int) - want).max() <= 1
    for low, high in [(0.2, 0.8), (0.35, 0.6)]:
        want = albumentations.augmentations.pixel.functional.move_tone_curve(images[0], low, high)
        np.testing.assert_array_equal(ops.tone_curve(images[:1], low, high).numpy()[0], want)
