"""PlasmaBrightnessContrast and PlasmaShadow (Albumentations'): the byte formulas against
Albumentations' apply functions on the same fractal, the PlasmaPattern op against a numpy
restatement of the diamond-square steps fed the op's hashed noise (bit for bit), the fractal's
statistics against Albumentations' generator (same roughness, same size), its shape and
normalisation, probability, inference, config and the refusals."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
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


def numpy_plasma(seed, h, w, roughness):
    """The op's fractal restated in numpy float32: noise (2u - 1) scale for the counter-hash
    uniform u of (seed + step 0x632BE5AB, point); old points plus noise, diamonds from their
    diagonal neighbours, edge points from their side neighbours (zero past the border), each
    mean ((a + b) + (c + d)) / 4 taking noise where positive, else 0; min-max per step; crop,
    min-max, clip."""
    f32 = np.float32

    def noise(step, index, scale):
        u = fixtures.hash_uniform(np.uint32((seed + step * 0x632BE5AB) & 0xFFFFFFFF), np.asarray(index, np.uint32))
        return (u * f32(2) - f32(1)) * f32(scale)

    def point(a, b, c, d, z):
        mean = ((a + b) + (c + d)) * f32(0.25)
        return np.where(mean > 0, mean + z, f32(0)).astype(f32)

    def normalised(x):
        lo, span = x.min(), f32(x.max() - x.min())
        scale = f32(1) / max(span, f32(1e-30)) if span > f32(2.220446049250313e-16) else f32(0)
        return ((x - lo) * scale).astype(f32)

    grid, g = noise(0, np.arange(9), 1.0).reshape(3, 3), 3
    for s in range(plasma_steps(h, w)):
        n = 2 * g - 1
        z = noise(s + 1, np.arange(n * n).reshape(n, n), f32(float(f32(roughness)) ** s))
        nxt = np.zeros((n, n), f32)
        nxt[::2, ::2] = grid + z[::2, ::2]
        nxt[1::2, 1::2] = point(nxt[:-1:2, :-1:2], nxt[:-1:2, 2::2], nxt[2::2, :-1:2], nxt[2::2, 2::2], z[1::2, 1::2])
        p = np.pad(nxt, 1)
        edges = point(p[:-2, 1:-1], p[1:-1, :-2], p[1:-1, 2:], p[2:, 1:-1], z)
        nxt = np.where(np.add.outer(np.arange(n), np.arange(n)) % 2 == 1, edges, nxt)
        grid, g = normalised(nxt), n
    return np.clip(normalised(grid[:h, :w]), 0, 1)


@pytest.mark.parametrize("h, w, roughness", [(224, 224, 3.0), (17, 40, 0.5), (3, 2, 3.0), (1, 1, 1.0), (65, 64, 1.7)])
def test_pattern_op_equals_the_numpy_statement(h, w, roughness):
    seeds = np.array([0, 7, -123456, 2 ** 31 - 1], np.int32)
    got = tga._loader.ops().tf_gpu_aug_plasma_pattern(seeds, [h, w], roughness=roughness).numpy()
    assert got.shape == (4, h, w)
    for i, seed in enumerate(seeds):
        np.testing.assert_array_equal(got[i], numpy_plasma(int(seed), h, w, roughness))
    assert h * w == 1 or not np.array_equal(got[0], got[1])  # a single pixel normalises to 0


def test_pattern_op_refusals():
    ops = tga._loader.ops()
    with pytest.raises(tf.errors.InvalidArgumentError, match="size"):
        ops.tf_gpu_aug_plasma_pattern([1], [40000, 3], roughness=3.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[0, 8192\], got 3, 8193"):
        ops.tf_gpu_aug_plasma_pattern([1], [3, 8193], roughness=3.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="roughness"):
        ops.tf_gpu_aug_plasma_pattern([1], [4, 3], roughness=-1.0)
    assert ops.tf_gpu_aug_plasma_pattern(np.zeros([0], np.int32), [4, 3], roughness=3.0).shape == (0, 4, 3)


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


def test_blend_op_equals_the_numpy_statement():
    """The PatternBlend op bit for bit: the shadow's float32 product truncated; the
    brightness-contrast with its mean summed in 2^-24 steps (rint(x 2^24) in 64 bits), signed
    factors and untouched samples included."""
    f32 = np.float32
    x = _images(5, 21, 30, 3, seed=4)
    pattern = plasma_pattern(5, 21, 30, 3.0, tf.constant([1, 9])).numpy()
    intensity = f32([0.3, 0.7, 0.0, 1.0, 0.5])
    shadow = shadow_from_pattern(tf.constant(x), tf.constant(intensity), tf.constant(pattern)).numpy()
    want = np.clip(x.astype(f32) * (f32(1) - pattern * intensity[:, None, None])[..., None], 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(shadow, want)
    b, c = f32([0.2, -0.3, 0.0, 0.3, 1.0]), f32([0.25, 0.3, 0.0, -0.3, -1.0])
    got = brightness_contrast_from_pattern(tf.constant(x), tf.constant(b), tf.constant(c),
                                           tf.constant(pattern)).numpy()
    for i in range(5):
        p = pattern[i][..., None]
        v = np.clip(x[i].astype(f32) / f32(255) + p * b[i], 0, 1).astype(f32)
        total = int(np.floor(v.astype(f32) * f32(2 ** 24) + f32(0.5)).astype(np.uint64).sum())
        mean = f32(total / 2 ** 24 / v.size)
        w = p * c[i] + f32(1)
        y = np.clip(np.clip(v * w, 0, 1) + mean * (f32(1) - w), 0, 1)
        np.testing.assert_array_equal(got[i], np.rint(y * f32(255)).astype(np.uint8), err_msg=str(i))
    np.testing.assert_array_equal(got[2], x[2])  # b = c = 0: the bytes as they are


def test_blend_op_refusals():
    ops = tga._loader.ops()
    images, pattern = np.zeros((2, 4, 5, 3), np.uint8), np.zeros((2, 4, 5), np.float32)
    with pytest.raises((tf.errors.InvalidArgumentError, ValueError), match="patterns|Dimension"):
        ops.tf_gpu_aug_pattern_blend(images, pattern[:, :3], np.zeros((2, 2), np.float32), mode="shadow")
    with pytest.raises((tf.errors.InvalidArgumentError, ValueError), match="factors|Dimension|2"):
        ops.tf_gpu_aug_pattern_blend(images, pattern, np.zeros((2, 3), np.float32), mode="shadow")


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


def test_oversized_images_refused_with_a_message():
    @tf.function(input_signature=[tf.TensorSpec([1, 8193, 16, 3], tf.uint8)])
    def contrast(images):
        return plasma_brightness_contrast(images, seed=1)

    with pytest.raises(ValueError, match="up to 8192 pixels on a side"):
        contrast.get_concrete_function()
