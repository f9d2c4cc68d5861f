"""UnsharpMask (Albumentations' UnsharpMask): the kernel op against a numpy restatement of the
float32 formula (exact), OpenCV's Gaussian kernels, Albumentations' own function where installed
(within stated tolerances), the per-sample draws, probability, inference and the refusals."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug.augment.unsharp_mask import gaussian_kernels, unsharp_mask, unsharp_mask_op


def _blur(plane, w):
    """The separable blur of a float32 [H, W, C] plane: rows then columns, reflect-101 (numpy's
    'reflect'), each sum the centre tap, then w[r + d] times the pair d apart, outwards."""
    r = len(w) // 2
    w = w.astype(np.float32)

    def along(x, axis):
        pad = [(0, 0)] * x.ndim
        pad[axis] = (r, r)
        p = np.pad(x, pad, mode="reflect")
        n = x.shape[axis]
        take = lambda s: np.take(p, np.arange(s, s + n), axis=axis)  # noqa: E731
        acc = w[r] * take(r)
        for d in range(1, r + 1):
            acc = acc + w[r + d] * (take(r - d) + take(r + d))
        return acc

    return along(along(plane, 1), 0)


def numpy_unsharp(image, w, alpha, threshold):
    level = image.astype(np.float32) / np.float32(255)
    blur = _blur(level, w)
    mask = (np.abs(level - blur) * np.float32(255) > np.float32(threshold)).astype(np.float32)
    soft = _blur(mask, w)
    sharp = np.clip(level + np.float32(alpha) * (level - blur), 0, 1)
    mixed = np.clip(sharp * soft + level * (np.float32(1) - soft), 0, 1)
    return np.rint(mixed * np.float32(255)).astype(np.uint8)


def _kernel(side, sigma=0.0, taps=None):
    taps = taps or side
    return gaussian_kernels(tf.constant([side]), tf.constant([sigma]), taps).numpy()[0]


@pytest.mark.parametrize("shape, side, sigma, alpha, threshold", [
    ((37, 41, 3), 3, 0.0, 0.4, 10), ((37, 41, 3), 7, 0.0, 0.5, 0), ((20, 33, 1), 5, 1.3, 0.9, 5),
    ((9, 6, 4), 15, 2.5, 1.0, 3), ((64, 48, 3), 9, 0.0, 0.2, 20),
])
def test_op_is_the_float32_formula(shape, side, sigma, alpha, threshold):
    """Bytes equal to the numpy restatement, exactly (the same float32 operations in the same
    order), on photos and on a tiny image narrower than the kernel (reflections wrap twice)."""
    image = fixtures.photo(shape[0], shape[1], channels=shape[2], seed=side)
    w = _kernel(side, sigma, taps=side + 4)  # zero taps past the side change nothing
    out = unsharp_mask_op(tf.constant(image[None]), tf.constant(w[None]), tf.constant([alpha]),
                          tf.constant([float(threshold)])).numpy()[0]
    ref = numpy_unsharp(image, w, alpha, threshold)
    np.testing.assert_array_equal(out, ref)
    assert (out != image).mean() > 0.05


def test_kernels_match_opencv():
    """cv2.getGaussianKernel for sides 3 .. 31, sigma 0 (its fixed tables up to 9) and given
    sigmas: equal to 1e-6 relative (OpenCV's bit-exact soft-float exponential against the C
    library's; the far tails, below 1e-12, differ by a few float32 steps)."""
    cv2 = pytest.importorskip("cv2")
    for side in range(3, 32, 2):
        for sigma in (0.0, 0.7, 2.0, 5.5):
            ours = _kernel(side, sigma)
            theirs = cv2.getGaussianKernel(side, sigma, cv2.CV_32F)[:, 0]
            np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-12, err_msg=f"side {side} sigma {sigma}")


def test_kernels_without_opencv():
    """The fixed tables, and the computed rule: exp(-x^2 / (2 s^2)) normalised, with OpenCV's
    sigma for the side when sigma is 0 (side 11: 0.3 (5 - 1) + 0.8 = 2)."""
    np.testing.assert_array_equal(_kernel(5), np.float32([0.0625, 0.25, 0.375, 0.25, 0.0625]))
    x = np.arange(11) - 5.0
    t = np.exp(-0.5 / 2.0 ** 2 * x * x)
    np.testing.assert_allclose(_kernel(11), t / t.sum(), rtol=1e-6)
    np.testing.assert_array_equal(_kernel(3, taps=7), np.float32([0, 0, 0.25, 0.5, 0.25, 0, 0]))
    np.testing.assert_array_equal(_kernel(9) * 256, np.float32([4, 13, 30, 51, 60, 51, 30, 13, 4]))


def test_against_albumentations_where_installed():
    """Albumentations 2.0.8's unsharp_mask with the same side, sigma, alpha and threshold: its
    float32 OpenCV blur sums in another order, so a byte may round the other way or a pixel fall
    on the other side of the threshold: 99% of bytes equal, 99.9% within one level."""
    pytest.importorskip("albumentations")
    from albumentations.augmentations.pixel import functional as fpixel
    image = fixtures.photo(96, 80, seed=3)
    for side, sigma, alpha, threshold in ((3, 0.0, 0.3, 10), (7, 0.0, 0.5, 10), (9, 0.0, 0.6, 10), (9, 1.5, 0.8, 4),
                                          (15, 0.0, 0.5, 10)):
        theirs = fpixel.unsharp_mask(image, side, sigma, alpha, threshold)
        w = _kernel(side, sigma)
        ours = unsharp_mask_op(tf.constant(image[None]), tf.constant(w[None]), tf.constant([alpha]),
                               tf.constant([float(threshold)])).numpy()[0]
        diff = np.abs(ours.astype(int) - theirs)
        assert (diff == 0).mean() > 0.99 and (diff <= 1).mean() > 0.999, (side, (diff == 0).mean(), diff.max())


def test_draws_and_probability():
    """Sides among the odd ones of blur_limit, the identity kernel and alpha 0 for samples left
    alone (their bytes come back as they are), about `probability` of the samples changed."""
    images = tf.constant(np.stack([fixtures.photo(24, 24, seed=s) for s in range(400)]))
    out = unsharp_mask(images, (3, 9), 0.0, (0.5, 1.0), 0, probability=0.4, seed=3).numpy()
    changed = (out != images.numpy()).any(axis=(1, 2, 3))
    assert 0.33 < changed.mean() < 0.47
    same = unsharp_mask(images[:20], probability=0.0, seed=1).numpy()
    np.testing.assert_array_equal(same, images[:20].numpy())


def test_transform_layer_and_config():
    t = tga.UnsharpMask(blur_limit=(3, 11), sigma_limit=(0.5, 2.0), alpha=0.8, threshold=5, probability=1.0, seed=2)
    again = tga.UnsharpMask(**t.get_config())
    images = tf.constant(np.stack([fixtures.photo(30, 20, seed=s) for s in range(4)]))
    np.testing.assert_array_equal(t(images, seed=[3, 4]).numpy(), again(images, seed=[3, 4]).numpy())
    np.testing.assert_array_equal(t(images, training=False).numpy(), images.numpy())
    assert t.alpha == (0.0, 0.8)


@pytest.mark.parametrize("kwargs, message", [
    (dict(blur_limit=(3, 8)), "odd sides"),
    (dict(blur_limit=1), "odd sides"),
    (dict(blur_limit=(3, 65)), "odd sides"),
    (dict(blur_limit=(7, 5)), "odd sides"),
    (dict(alpha=(0.2, 1.5)), "alpha"),
    (dict(sigma_limit=(-1.0, 1.0)), "sigma_limit"),
    (dict(threshold=300), "threshold"),
    (dict(threshold=2.5), "threshold"),
    (dict(probability=-0.1), "probability"),
])
def test_refusals(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tga.UnsharpMask(**kwargs)


def test_op_refuses_bad_arguments():
    images = tf.zeros([2, 8, 8, 3], tf.uint8)
    with pytest.raises((tf.errors.InvalidArgumentError, ValueError), match="taps"):
        unsharp_mask_op(images, tf.ones([2, 4]), tf.zeros([2]), tf.zeros([2]))
    with pytest.raises((tf.errors.InvalidArgumentError, ValueError), match="taps"):
        unsharp_mask_op(images, tf.ones([2, 65]), tf.zeros([2]), tf.zeros([2]))
    with pytest.raises(ValueError, match="uint8"):
        tga.UnsharpMask()(tf.zeros([1, 4, 4, 3]))
