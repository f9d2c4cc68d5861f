"""GlassBlur (issue 36; Albumentations' transform of that name, "fast" mode). The GlassSwaps op
against a numpy statement of Albumentations' fancy assignment fed the op's draws restated in
numpy (exact, including pixels chosen by several interior pixels and the interior's edges); the
whole effect against Albumentations' own function with those displacements where installed
(byte for byte; its Gaussian is tests/test_opencv_gaussian.py's); the draws' law, probability,
inference, config, refusals."""
import importlib

import numpy as np
import pytest
import tensorflow as tf

import fixtures
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


def hash_displacements(seed, h, w, m, iterations):
    """The op's draws restated: int32 `[(H - 2 m)(W - 2 m), iterations, 2]` (dy, dx) in
    Albumentations' pixel order, each min(int(u 2m), 2m - 1) - m for the counter-hash uniform u
    of (seed, (round interior + pixel) 2 + axis) (float32 product, as the kernel)."""
    total = max(h - 2 * m, 0) * max(w - 2 * m, 0)
    index = ((np.arange(iterations)[None, :, None] * total + np.arange(total)[:, None, None]) * 2
             + np.arange(2)[None, None, :]).astype(np.uint32)
    u = fixtures.hash_uniform(np.uint32(seed & 0xFFFFFFFF), index)
    return np.minimum((u * np.float32(2 * m)).astype(np.int32), 2 * m - 1) - m


@pytest.mark.parametrize("h, w, c, m, iterations", [(20, 26, 3, 4, 2), (11, 9, 1, 2, 3), (15, 17, 4, 1, 1),
                                                    (9, 40, 3, 4, 2), (14, 12, 1, 3, 2), (13, 16, 4, 2, 1)])
def test_swaps_equal_numpy_fancy_assignment(h, w, c, m, iterations):
    rng = np.random.default_rng(h * w + m)
    images = rng.integers(0, 256, (4, h, w, c), dtype=np.uint8)
    seeds = np.array([7, -3, 2 ** 31 - 1, 12345], np.int32)
    apply = np.array([True, True, False, True])
    got = gb.glass_swaps(images, seeds, apply, m, iterations).numpy()
    for b in range(4):
        if not apply[b]:
            np.testing.assert_array_equal(got[b], images[b])
            continue
        want = numpy_swaps(images[b], m, hash_displacements(int(seeds[b]), h, w, m, iterations))
        np.testing.assert_array_equal(got[b], want)
        assert not np.array_equal(want, images[b])  # the swaps moved pixels


def test_swaps_leave_images_without_an_interior_and_empty_batches():
    images = np.random.default_rng(1).integers(0, 256, (2, 8, 30, 3), dtype=np.uint8)
    same = gb.glass_swaps(images, [1, 2], [True, True], 4, 2).numpy()  # 8 rows: no interior at m = 4
    np.testing.assert_array_equal(same, images)
    empty = gb.glass_swaps(np.zeros((0, 20, 20, 3), np.uint8), np.zeros([0], np.int32), np.zeros([0], bool), 2, 1)
    assert empty.shape == (0, 20, 20, 3)


def test_the_draws_are_uniform_over_the_window():
    dxy = hash_displacements(99, 230, 230, 4, 2)
    for axis in range(2):
        counts = np.bincount(dxy[..., axis].ravel() + 4, minlength=8)
        assert counts.shape == (8,) and np.abs(counts / counts.sum() - 1 / 8).max() < 0.005, counts
    assert np.abs(np.corrcoef(dxy[:, 0, 0], dxy[:, 0, 1])[0, 1]) < 0.02
    assert np.abs(np.corrcoef(dxy[:, 0, 0], dxy[:, 1, 0])[0, 1]) < 0.02


def test_the_op_refuses_mismatched_seeds_and_bad_attributes():
    images = np.zeros((2, 20, 20, 3), np.uint8)
    with pytest.raises(tf.errors.InvalidArgumentError, match="seeds must be"):
        tga._loader.ops().tf_gpu_aug_glass_swaps(images, tf.constant([1, 2, 3]), tf.constant([True, True]),
                                                 max_delta=2, iterations=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="max_delta must be"):
        tga._loader.ops().tf_gpu_aug_glass_swaps(images, tf.constant([1, 2]), tf.constant([True, True]),
                                                 max_delta=65, iterations=1)
    with pytest.raises((tf.errors.InvalidArgumentError, ValueError), match="rank|must be"):
        tga._loader.ops().tf_gpu_aug_glass_swaps(images[0], tf.constant([1]), tf.constant([True]),
                                                 max_delta=2, iterations=1)


def test_glass_blur_equals_albumentations():
    pytest.importorskip("cv2")
    fblur = pytest.importorskip("albumentations.augmentations.blur.functional")
    images = natural_images(3, 40, 52, 3)
    seeds = np.array([4, 5, 6], np.int32)
    for sigma, m, iterations in ((0.7, 4, 2), (1.5, 2, 1)):
        got = gb.glassed(tf.constant(images), sigma, m, iterations, seeds, tf.ones([3], tf.bool)).numpy()
        for b in range(3):
            dxy = hash_displacements(int(seeds[b]), 40, 52, m, iterations).astype(np.int64)
            want = fblur.glass_blur(images[b], sigma, m, iterations, dxy, "fast")
            np.testing.assert_array_equal(got[b], want)


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


def test_channel_counts_known_only_at_run_time_work():
    fn = tf.function(lambda x: gb.glass_blur(x, probability=1.0, seed=1),
                     input_signature=[tf.TensorSpec([None, 20, 20, None], tf.uint8)])
    for c in (1, 3, 4):
        images = natural_images(2, 20, 20, c, seed=c)
        out = fn(images).numpy()
        assert out.shape == images.shape and not np.array_equal(out, images)
