"""ISONoise (the fused kernel's iso_noise stage, issue 36) against Albumentations 2.0.8's
iso_noise: a numpy port of its formula over numpy ports of OpenCV's float HLS conversions
(checked against cv2 itself where installed), fed the kernel's own Poisson counts, which the
test regenerates from the seed with a numpy port of the kernel's counter hash; the hue noise's
deviation statistically; Albumentations itself where installed."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
from fixtures import hash_uniform, poisson_counts
import tfgpuaug as tga
from tfgpuaug.augment import ops
from tfgpuaug.geometry import _seed_tensor

F = np.float32


def rgb_to_hls(rgb):
    """OpenCV's float RGB2HLS, hue in degrees."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    vmax, vmin = np.maximum(r, np.maximum(g, b)), np.minimum(r, np.minimum(g, b))
    diff, light = vmax - vmin, (vmax + vmin) * F(0.5)
    some = diff > F(1.1920929e-7)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(light < F(0.5), diff / (vmax + vmin), diff / (F(2) - vmax - vmin))
        d = F(60) / diff
        h = np.where(vmax == r, (g - b) * d, np.where(vmax == g, (b - r) * d + F(120), (r - g) * d + F(240)))
    h = np.where(h < 0, h + F(360), h)
    return np.where(some, h, F(0)), light, np.where(some, s, F(0))


def hls_to_rgb(h, light, s):
    """OpenCV's float HLS2RGB (hue in degrees, wrapped into [0, 360))."""
    p2 = np.where(light <= F(0.5), light * (F(1) + s), light + s - light * s)
    p1 = F(2) * light - p2
    h = h * F(1 / 60)
    h = np.where(h < 0, h + F(6), np.where(h >= 6, h - F(6), h))
    sector = np.clip(np.floor(h).astype(np.int32), 0, 5)
    f = h - sector
    tab = np.stack([p2, p1, p1 + (p2 - p1) * (F(1) - f), p1 + (p2 - p1) * f], -1)
    order = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])[sector]  # b, g, r
    pick = np.take_along_axis(tab, order, -1)
    rgb = np.stack([pick[..., 2], pick[..., 1], pick[..., 0]], -1)
    return np.where((s == 0)[..., None], light[..., None], rgb)


def albumentations_iso_noise(img, intensity, counts, hue_noise=None):
    """Albumentations 2.0.8's iso_noise on a uint8 RGB image with given Poisson counts."""
    h, light, s = rgb_to_hls(img.astype(F) / F(255))
    if hue_noise is not None:
        h = h + hue_noise
    light = light + (counts * intensity * (1.0 - light)).astype(F)
    rgb = np.clip(hls_to_rgb(h, light, s), 0, 1)
    return np.clip(np.rint(rgb * F(255)), 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def photos():
    return np.stack([fixtures.photo(37, 51, seed=s) for s in range(3)])


def kernel_counts(img, intensity, stream):
    """The Poisson counts the kernel draws for one image: lambda = std(L) * intensity."""
    l2 = img.max(-1).astype(np.int64) + img.min(-1)
    std_l = np.sqrt(max(np.mean(l2.astype(np.float64) ** 2) - np.mean(l2) ** 2, 0.0)) / 510
    lam = F(F(std_l) * F(intensity))
    seed = np.uint32(F(stream) * F(4294967040.0))
    index = np.arange(img.shape[0] * img.shape[1], dtype=np.uint32) * np.uint32(3)
    return poisson_counts(hash_uniform(seed, index), lam).reshape(img.shape[:2]), lam


@pytest.mark.parametrize("intensity", [0.3, 1.0, 4.0])
def test_lightness_noise_matches_the_formula_for_the_kernels_counts(photos, intensity):
    """color_shift 0 (no hue noise): every pixel equals Albumentations' formula fed the counts
    the kernel drew (regenerated here), to 1 level; a rounding-stalled p0 may flip a count in
    rare pixels (at most 1 in 10^4 may differ more). Mutants caught: lambda from the RGB
    deviation instead of L's; (1 - L) dropped; counts not scaled by intensity."""
    seed = tf.constant([4, 7], tf.int64)
    out = ops.iso_noise(photos, intensity, 0.0, seed=seed).numpy()
    stream = tf.random.stateless_uniform([len(photos)], _seed_tensor(seed)).numpy()
    moved = 0
    for i, img in enumerate(photos):
        counts, lam = kernel_counts(img, intensity, stream[i])
        assert 0.0 < lam
        expected = albumentations_iso_noise(img, intensity, counts)
        diff = np.abs(out[i].astype(int) - expected)
        assert (diff > 1).mean() < 1e-4, (i, np.argwhere(diff > 1)[:5])
        moved += int((counts > 0).sum())
    assert moved > 100  # the counts were not all zero


def test_hls_ports_match_opencv_where_installed(photos):
    cv2 = pytest.importorskip("cv2")
    x = photos.reshape(-1, photos.shape[2], 3).astype(F) / F(255)
    hls = cv2.cvtColor(x, cv2.COLOR_RGB2HLS)
    h, light, s = rgb_to_hls(x)
    np.testing.assert_allclose(np.stack([h, light, s], -1), hls, atol=1e-4)
    hls[..., 0] = (hls[..., 0] + 17.3) % 360  # a hue moved, back to RGB
    np.testing.assert_allclose(hls_to_rgb(hls[..., 0], hls[..., 1], hls[..., 2]),
                               cv2.cvtColor(hls, cv2.COLOR_HLS2RGB), atol=1e-5)


def test_matches_albumentations_iso_noise_where_installed(photos):
    """Albumentations' own function, its generator replaced by the kernel's counts and no hue noise."""
    fpixel = pytest.importorskip("albumentations.augmentations.pixel.functional")
    seed, intensity = tf.constant([9, 2], tf.int64), 0.8
    out = ops.iso_noise(photos, intensity, 0.0, seed=seed).numpy()
    stream = tf.random.stateless_uniform([len(photos)], _seed_tensor(seed)).numpy()
    for i, img in enumerate(photos):
        counts, lam = kernel_counts(img, intensity, stream[i])

        class Draws:
            def poisson(self, mean, size):
                np.testing.assert_allclose(mean, lam, rtol=1e-4)
                return counts

            def normal(self, loc, scale, size):
                return np.zeros(size)

        theirs = fpixel.iso_noise(img, 0.0, intensity, Draws())
        diff = np.abs(out[i].astype(int) - theirs)
        assert (diff > 1).mean() < 1e-4


def test_hue_noise_has_the_deviation_color_shift_times_intensity():
    """On a flat image (no lightness deviation, so no Poisson noise) only the hue moves: its
    change is N(0, color_shift * intensity) degrees (checked to 8%, uint8 rounding included).
    Mutant caught: the deviation scaled by 360 (Albumentations 1.x)."""
    img = np.zeros((1, 96, 96, 3), np.uint8)
    img[...] = (200, 90, 40)
    h0 = rgb_to_hls(img[0, 0, 0].astype(F) / F(255))[0]
    for shift, intensity in ((1.0, 6.0), (0.5, 4.0)):
        out = ops.iso_noise(img, intensity, shift, seed=[1, 5]).numpy()[0]
        h = rgb_to_hls(out.reshape(-1, 3).astype(F) / F(255))[0]
        dh = (h - h0 + 180) % 360 - 180
        assert abs(dh.mean()) < 0.3
        np.testing.assert_allclose(dh.std(), shift * intensity, rtol=0.08)


def test_transform_draws_per_sample_keeps_alpha_and_refuses_gray(photos):
    rgba = np.concatenate([photos, np.full(photos.shape[:3] + (1,), 77, np.uint8)], -1)
    out = tga.ISONoise(intensity=(2.0, 3.0), probability=1.0)(rgba, seed=[3, 3]).numpy()
    np.testing.assert_array_equal(out[..., 3], 77)
    assert (out[..., :3] != photos).mean() > 0.05
    twins = np.stack([photos[0], photos[0]])
    out = tga.ISONoise(intensity=(2.0, 3.0), probability=1.0)(twins, seed=[3, 4]).numpy()
    assert (out[0] != out[1]).mean() > 0.05
    np.testing.assert_array_equal(tga.ISONoise(probability=0.0)(photos, seed=[1, 1]).numpy(), photos)
    np.testing.assert_array_equal(tga.ISONoise(probability=1.0)(photos, training=False), photos)
    with pytest.raises(ValueError, match="RGB or RGBA"):
        tga.ISONoise(probability=1.0)(photos[..., :1], seed=[1, 1])
    for kwargs in (dict(intensity=(0.5, 11.0)), dict(color_shift=(-0.1, 0.2)), dict(probability=1.5)):
        with pytest.raises(ValueError):
            tga.ISONoise(**kwargs)
