"""PlasmaBrightnessContrast and PlasmaShadow (Albumentations'): the byte formulas against
Albumentations' apply functions on the same fractal, the fractal's statistics against
Albumentations' generator (same roughness, same size), its shape and normalisation, probability,
inference, config and the refusals."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug.augment.plasma import (brightness_contrast_from_pattern, plasma_brightness_contrast, plasma_pattern,
                                     plasma_shadow, plasma_steps, shadow_from_pattern)


@pytest.fixture
def AF():
    """Albumentations' functions, the reference where it is installed (a test-only dependency)."""
    return pytest.importorskip("albumentations.augmentations.pixel.functional")


def _images(n, h, w, c, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (n, h, w, c), dtype=np.uint8)


def test_steps_reach_the_image():
    """The grid after k steps from 3 x 3 has side 2^(k+1) + 1, Albumentations' 2^ceil(log2(side - 1)) + 1."""
    for h, w, k in ((224, 224, 7), (17, 23, 4), (257, 10, 7), (258, 10, 8), (5, 3, 1), (3, 3, 0), (1, 1, 0)):
        assert plasma_steps(h, w) == k, (h, w)
        assert 2 ** (k + 1) + 1 >= max(h, w)


@pytest.mark.parametrize("h, w", [(224, 224), (17, 23), (1, 1), (40, 3)])
def test_pattern_shape_and_range(h, w):
    p = plasma_pattern(5, h, w, 3.0, tf.constant([1, 2])).numpy()
    assert p.shape == (5, h, w) and p.dtype == np.float32
    assert p.min() >= 0.0 and p.max() <= 1.0
    if h * w > 1:
        np.testing.assert_array_equal(p.reshape(5, -1).min(1), 0.0)
        np.testing.assert_allclose(p.reshape(5, -1).max(1), 1.0, atol=1e-6)  # (x - min) / span: within an ulp


@pytest.mark.parametrize("roughness", [3.0, 0.5, 1.0])
def test_pattern_statistics_match_albumentations(roughness, AF):
    """Mean, deviation, mean step between neighbours (the roughness), the coarse structure (every
    8th pixel) over 40 fractals each: within 5% (7% for the coarse step) of Albumentations' own
    generator; another roughness (0.3 or 3) is farther than that (so the test can fail)."""
    rng = np.random.default_rng(0)

    def stats(x):
        return np.array([x.mean(), x.std(), np.abs(np.diff(x, axis=1)).mean(), np.abs(np.diff(x, axis=2)).mean(),
                         np.abs(np.diff(x[:, ::8, ::8], axis=2)).mean()])

    theirs = stats(np.stack([AF.generate_plasma_pattern((160, 224), roughness, rng) for _ in range(40)]))
    ours = stats(plasma_pattern(40, 160, 224, roughness, tf.constant([5, 6])).numpy())
    assert np.all(np.abs(ours / theirs - 1) <= [0.05, 0.05, 0.05, 0.05, 0.07]), (ours, theirs)
    other = stats(plasma_pattern(40, 160, 224, 0.3 if roughness >= 1 else 3.0, tf.constant([5, 6])).numpy())
    assert np.abs(other[2:4] / theirs[2:4] - 1).max() > 0.1


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_shadow_bytes_equal_albumentations(channels, AF):
    x = _images(4, 33, 47, channels)
    pattern = plasma_pattern(4, 33, 47, 3.0, tf.constant([3, 4]))
    intensity = np.float32([0.3, 0.7, 0.0, 1.0])
    ours = shadow_from_pattern(tf.constant(x), tf.constant(intensity), pattern).numpy()
    for i in range(4):
        image = x[i] if channels > 1 else x[i, ..., 0]
        theirs = AF.apply_plasma_shadow(image, float(intensity[i]), pattern[i].numpy())
        np.testing.assert_array_equal(ours[i], theirs.reshape(ours[i].shape))


def _restated(x, b, c, p):
    """numpy restatement of the documented float32 formula, signed b and c, each step clipped."""
    f = lambda v: np.float32(v)  # noqa: E731
    x = np.clip(x.astype(np.float32) / f(255) + p * f(b), 0, 1)
    w = p * f(c) + f(1)
    mean = x.mean(dtype=np.float32)
    x = np.clip(np.clip(x * w, 0, 1) + mean * (f(1) - w), 0, 1)
    return np.rint(x * f(255)).astype(np.uint8)


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_brightness_contrast_bytes_equal_albumentations(channels, AF):
    """Non-negative factors against Albumentations' function, signed ones against the numpy
    restatement: exact but for the sample mean's summation order (numpy's pairwise float32 sum
    against TensorFlow's): at most one level, 99.9% equal."""
    x = _images(6, 33, 47, channels, seed=1)
    pattern = plasma_pattern(6, 33, 47, 3.0, tf.constant([7, 8]))
    brightness = np.float32([0.2, 0.3, 0.0, 0.05, -0.3, 0.1])
    contrast = np.float32([0.25, 0.3, 0.2, 0.0, 0.2, -0.3])
    ours = brightness_contrast_from_pattern(tf.constant(x), tf.constant(brightness), tf.constant(contrast),
                                            pattern).numpy()
    for i in range(6):
        p = pattern[i].numpy()
        if brightness[i] >= 0 and contrast[i] >= 0:
            image = x[i] if channels > 1 else x[i, ..., 0]
            theirs = AF.apply_plasma_brightness_contrast(image, float(brightness[i]), float(contrast[i]), p)
            theirs = theirs.reshape(ours[i].shape)
        else:
            theirs = _restated(x[i], brightness[i], contrast[i], p[..., None])
        diff = np.abs(ours[i].astype(np.int64) - theirs)
        assert diff.max() <= 1 and (diff == 0).mean() >= 0.999, (i, diff.max(), (diff == 0).mean())


def test_negative_factors_darken_and_flatten():
    """Where Albumentations 2.0.8 clips p b and p c at zero (its negative factors do nothing),
    negative brightness darkens and negative contrast pulls towards the mean."""
    x = tf.constant(_images(2, 40, 40, 3, seed=9))
    pattern = plasma_pattern(2, 40, 40, 3.0, tf.constant([2, 2]))
    darker = brightness_contrast_from_pattern(x, tf.constant([-0.3, 0.0]), tf.constant([0.0, -0.5]), pattern).numpy()
    xs = x.numpy().astype(np.float64)
    assert darker[0].mean() < xs[0].mean() - 10
    assert darker[1].std() < xs[1].std() * 0.95


def test_zero_factors_keep_the_bytes():
    x = tf.constant(_images(3, 20, 30, 3, seed=2))
    pattern = plasma_pattern(3, 20, 30, 3.0, tf.constant([1, 1]))
    zeros = tf.zeros([3])
    np.testing.assert_array_equal(brightness_contrast_from_pattern(x, zeros, zeros, pattern).numpy(), x.numpy())
    np.testing.assert_array_equal(shadow_from_pattern(x, zeros, pattern).numpy(), x.numpy())


def test_draws_probability_and_inference():
    x = tf.constant(np.full((600, 16, 16, 3), 200, np.uint8))
    out = plasma_shadow(x, (0.4, 0.4), probability=0.3, seed=3).numpy()
    changed = (out != 200).any(axis=(1, 2, 3))
    assert 0.24 < changed.mean() < 0.36
    # the darkest pixel of a shadowed flat image: 200 (1 - 0.4) at the fractal's maximum
    assert np.all(out[changed].reshape(changed.sum(), -1).min(1) == 120)
    bc = plasma_brightness_contrast(x, (0.1, 0.1), (0.0, 0.0), probability=1.0, seed=4).numpy()
    # brightness alone: 200 + 25.5 p, from 200 (p = 0) to 226 (p = 1, rint(225.5) is 226 half to even)
    assert bc.min() == 200 and bc.max() == 226
    layer = tga.PlasmaShadow(probability=1.0, seed=1)
    np.testing.assert_array_equal(layer(x[:3], training=False).numpy(), x[:3].numpy())
    assert (layer(x[:3]).numpy() != 200).any()


def test_configs_round_trip():
    x = tf.constant(_images(4, 24, 24, 3, seed=5))
    for t in (tga.PlasmaBrightnessContrast((-0.2, 0.1), (0.0, 0.3), 2.0, probability=0.7, seed=3),
              tga.PlasmaShadow((0.2, 0.5), 0.7, probability=0.6, seed=4)):
        again = type(t)(**t.get_config())
        assert again.get_config() == t.get_config()
        np.testing.assert_array_equal(t(x, seed=[1, 2]).numpy(), again(x, seed=[1, 2]).numpy())


@pytest.mark.parametrize("make, message", [
    (lambda: tga.PlasmaShadow((0.5, 1.5)), "shadow_intensity_range must be"),
    (lambda: tga.PlasmaShadow(roughness=0.0), "roughness must be a positive number"),
    (lambda: tga.PlasmaBrightnessContrast((0.3, -0.3)), "brightness_range must be"),
    (lambda: tga.PlasmaBrightnessContrast(contrast_range=(-2.0, 0.0)), "contrast_range must be"),
    (lambda: tga.PlasmaBrightnessContrast(probability=3.0), "probability"),
])
def test_refusals(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_dynamic_size_refused_with_a_message():
    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 3], tf.uint8)])
    def shadow(images):
        return plasma_shadow(images, seed=1)

    with pytest.raises(ValueError, match="static height and width"):
        shadow.get_concrete_function()
