"""GlassBlur (issue 36; Albumentations' transform of that name, "fast" mode). The swaps against a
numpy statement of Albumentations' fancy assignment (exact, including pixels chosen by several
interior pixels and the interior's edges); the whole effect against Albumentations' own
function with the same displacements where installed; the Gaussian (OpenCV's 8-bit taps)
against cv2.GaussianBlur on bytes; draws,
probability, inference, config, refusals."""
import importlib

import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga

gb = importlib.import_module("tfgpuaug.augment.glass_blur")  # the package's name is the function


def natural_images(n, h, w, c, seed=0):
    rng = np.random.default_rng(seed)
    coarse = rng.uniform(0, 255, (n, h // 3 + 2, w // 3 + 2, c)).astype(np.float32)
    smooth = tf.image.resize(coarse, (h, w), "bicubic").numpy()
    return np.clip(np.round(smooth + rng.normal(0, 12, smooth.shape)), 0, 255).astype(np.uint8)


def numpy_swaps(image, max_delta, dxy):
    """Albumentations' "fast" loop in numpy, as glass_blur runs it between its blurs."""
    x = image.copy()
    hs = np.arange(image.shape[0] - max_delta, max_delta, -1)
    ws = np.arange(image.shape[1] - max_delta, max_delta, -1)
    h, w = np.tile(hs, ws.shape[0]), np.repeat(ws, hs.shape[0])
    for i in range(dxy.shape[1]):
        dy, dx = dxy[:, i, 0], dxy[:, i, 1]
        x[h, w], x[h + dy, w + dx] = x[h + dy, w + dx], x[h, w]
    return x


def displacements(rng, n, h, w, m, iterations):
    return rng.integers(-m, m, (n, (h - 2 * m) * (w - 2 * m), iterations, 2)).astype(np.int32)


@pytest.mark.parametrize("h, w, c, m, iterations", [(20, 26, 3, 4, 2), (11, 9, 1, 2, 3), (15, 17, 4, 1, 1),
                                                    (9, 40, 3, 4, 2)])
def test_swaps_equal_numpy_fancy_assignment(h, w, c, m, iterations):
    rng = np.random.default_rng(h * w + m)
    images = rng.integers(0, 256, (3, h, w, c), dtype=np.uint8)
    dxy = displacements(rng, 3, h, w, m, iterations)
    got = gb.swapped_pixels(tf.constant(images), m, tf.constant(dxy)).numpy()
    for b in range(3):
        want = numpy_swaps(images[b], m, dxy[b])
        np.testing.assert_array_equal(got[b], want)
        assert not np.array_equal(want, images[b])  # the swaps moved pixels


def test_glass_blur_equals_albumentations():
    pytest.importorskip("cv2")
    fblur = pytest.importorskip("albumentations.augmentations.blur.functional")
    rng = np.random.default_rng(5)
    images = natural_images(3, 40, 52, 3)
    for sigma, m, iterations in ((0.7, 4, 2), (1.5, 2, 1)):
        dxy = displacements(rng, 3, 40, 52, m, iterations)
        got = gb.glassed(tf.constant(images), sigma, m, tf.constant(dxy)).numpy()
        for b in range(3):
            want = fblur.glass_blur(images[b], sigma, m, iterations, dxy[b].astype(np.int64), "fast")
            diff = np.abs(got[b].astype(int) - want.astype(int))
            assert diff.max() <= 1 and (diff == 0).mean() > 0.999, (sigma, diff.max(), (diff == 0).mean())


def test_draws_stay_in_range_and_probability_picks_samples():
    images = tf.constant(natural_images(16, 24, 24, 3, seed=2))
    out = gb.glass_blur(images, probability=0.5, seed=3).numpy()
    changed = [not np.array_equal(out[b], images.numpy()[b]) for b in range(16)]
    assert 3 <= sum(changed) <= 13
    # a pixel only ever takes a value from at most max_delta away, blurred: where the image is
    # constant over such windows the output keeps the constant
    flat = np.zeros((2, 30, 30, 3), np.uint8) + 90
    np.testing.assert_array_equal(gb.glass_blur(flat, probability=1.0, seed=1).numpy(), flat)
    same = gb.glass_blur(images, probability=1.0, seed=7).numpy()
    np.testing.assert_array_equal(same, gb.glass_blur(images, probability=1.0, seed=7).numpy())


def test_transform_inference_and_config():
    t = tga.GlassBlur(sigma=0.9, max_delta=3, iterations=1, probability=1.0, seed=4)
    images = tf.constant(natural_images(2, 20, 22, 3))
    out = t(images, training=True)
    assert out.shape == images.shape and not np.array_equal(out.numpy(), images.numpy())
    np.testing.assert_array_equal(t(images, training=False).numpy(), images.numpy())
    again = tga.GlassBlur(**t.get_config())
    assert again.get_config() == t.get_config()


@pytest.mark.parametrize("kwargs, match", [
    (dict(sigma=0.0), "sigma"), (dict(sigma=11.0), "sigma"), (dict(max_delta=0), "max_delta"),
    (dict(max_delta=2.5), "max_delta"), (dict(iterations=0), "iterations"), (dict(iterations=17), "iterations"),
    (dict(mode="exact"), "exact"), (dict(probability=1.5), "probability")])
def test_bad_arguments_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        tga.GlassBlur(**kwargs)


def test_images_too_small_for_max_delta_are_refused():
    with pytest.raises(ValueError, match="above 2 max_delta"):
        gb.glass_blur(np.zeros((1, 8, 30, 3), np.uint8), max_delta=4, seed=1)


def test_unknown_channel_count_is_refused_at_graph_construction():
    spec = tf.TensorSpec([None, 20, 20, None], tf.uint8)
    with pytest.raises(ValueError, match="channel count"):
        tf.function(lambda x: gb.glass_blur(x, seed=1)).get_concrete_function(spec)
