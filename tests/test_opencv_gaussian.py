"""cv2.GaussianBlur's 8-bit kernels (tfgpuaug/augment/opencv_gaussian.py), the one rule GlassBlur
and RandomFog blur with: through the Filter2D op with ties_up, byte for byte with
cv2.GaussianBlur where OpenCV is installed; the rule's own invariants without it."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug.augment import opencv_gaussian as og


def random_bytes(seed, h=45, w=38):
    return np.random.default_rng(seed).integers(0, 256, (2, h, w, 3), dtype=np.uint8)


@pytest.mark.parametrize("sigma", [0.3, 0.7, 1.5, 2.0, 3.0, 6.0, 10.0])
def test_sigma_kernels_are_cv2_gaussian_blur_on_bytes(sigma):
    cv2 = pytest.importorskip("cv2")
    images = random_bytes(int(sigma * 10))
    side = og.side_for_sigma(sigma)
    got = tga.augment.filter2d(images, tf.tile(og.kernel_8bit(side, sigma), [2, 1, 1]), ties_up=True).numpy()
    want = np.stack([cv2.GaussianBlur(img, (0, 0), sigma) for img in images])
    np.testing.assert_array_equal(got, want)
    assert side == {0.3: 3, 0.7: 5, 1.5: 11, 2.0: 13, 3.0: 19, 6.0: 37, 10.0: 61}[sigma]


@pytest.mark.parametrize("side", [3, 5, 7, 9, 11, 15, 23, 31, 47, 63])
def test_side_kernels_are_cv2_gaussian_blur_on_bytes(side):
    cv2 = pytest.importorskip("cv2")
    images = random_bytes(side, 70, 66)
    kernel = og.kernel_8bit_of_side(tf.constant(side), 63)
    np.testing.assert_array_equal(kernel.numpy(), og.kernel_8bit(side).numpy()[0])
    got = tga.augment.filter2d(images, tf.tile(kernel[None], [2, 1, 1]), ties_up=True).numpy()
    want = np.stack([cv2.GaussianBlur(img, (side, side), 0) for img in images])
    np.testing.assert_array_equal(got, want)


def test_taps_are_whole_symmetric_and_sum_to_256():
    for side in range(1, 64, 2):
        for sigma in (0.0, 0.4, 2.5, 9.0):
            taps = og.taps_8bit(side, sigma)
            assert taps.sum() == 256 and (taps >= 0).all() and np.array_equal(taps, taps[::-1]), (side, sigma)
    # OpenCV's fixed tables for small sides with sigma 0; a computed side 11 for contrast
    np.testing.assert_array_equal(og.taps_8bit(5), [16, 64, 96, 64, 16])
    np.testing.assert_array_equal(og.taps_8bit(9), [4, 13, 30, 51, 60, 51, 30, 13, 4])
    exact = np.exp(-(np.arange(11) - 5.0) ** 2 / (2 * 2.0 ** 2))
    assert np.abs(og.taps_8bit(11) - 256 * exact / exact.sum()).max() < 1.0
    # the carried error keeps each outer run of taps within half a level of the float sum
    line = 256 * np.exp(-(np.arange(31) - 15.0) ** 2 / (2 * 4.7 ** 2))
    line /= line.sum() / 256
    assert np.abs(np.cumsum(og.taps_8bit(31, 4.7))[:15] - np.cumsum(line)[:15]).max() <= 0.5


def test_refuses_even_sides():
    with pytest.raises(ValueError, match="odd and positive"):
        og.taps_8bit(4)
