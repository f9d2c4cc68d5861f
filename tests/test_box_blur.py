"""Blur (issue 36; Albumentations' transform of that name, OpenCV's blur): a box filter of odd
side, reflect-101 border, rounded to the nearest level, a stage of the fused augment kernel.
Against a numpy oracle exactly (every side, 1/3/4 channels, images smaller than the window),
against cv2.blur and Albumentations 2.0.8 exactly where installed; per-sample sides,
probability, inference, refusals. The CPU loop against the per-pixel function the GPU runs:
tests/test_kernels_module.py."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga


def oracle(img: np.ndarray, side: int) -> np.ndarray:
    """numpy's "reflect" pad is reflect-101 (it repeats for pads wider than the image)."""
    r = side // 2
    padded = np.pad(img.astype(np.int64), ((r, r), (r, r), (0, 0)), mode="reflect")
    sums = np.lib.stride_tricks.sliding_window_view(padded, (side, side), axis=(0, 1)).sum(axis=(-1, -2))
    n = side * side
    return ((2 * sums + n) // (2 * n)).astype(np.uint8)


def photos(channels: int, n: int = 3, h: int = 29, w: int = 41) -> np.ndarray:
    return np.random.default_rng(channels + h).integers(0, 256, (n, h, w, channels), dtype=np.uint8)


@pytest.mark.parametrize("channels", [1, 3, 4])
@pytest.mark.parametrize("side", [3, 5, 7, 9, 15])
def test_equals_the_rounded_window_mean(channels, side):
    for x in (photos(channels), photos(channels, h=2, w=3)):
        out = tga.augment.random_blur(tf.constant(x), (side, side), probability=1.0, seed=[1, side]).numpy()
        for i in range(len(x)):
            np.testing.assert_array_equal(out[i], oracle(x[i], side), err_msg=f"{side} {x.shape}")


def test_equals_opencv_and_albumentations_where_installed():
    cv2 = pytest.importorskip("cv2")
    x = photos(3, n=2, h=64, w=77)
    for side in (3, 5, 7):
        out = tga.Blur((side, side), probability=1.0)(tf.constant(x), seed=[2, side]).numpy()
        for i in range(len(x)):
            np.testing.assert_array_equal(out[i], cv2.blur(x[i], (side, side)), err_msg=str(side))
    A = pytest.importorskip("albumentations")
    theirs = A.Blur(blur_limit=(5, 5), p=1.0)(image=x[0])["image"]
    np.testing.assert_array_equal(tga.Blur((5, 5), probability=1.0)(tf.constant(x), seed=[3, 3]).numpy()[0],
                                  theirs)


def test_sides_drawn_per_sample_probability_and_inference():
    x = photos(3, n=48)
    out = tga.Blur((3, 7), probability=1.0)(tf.constant(x), seed=[4, 4]).numpy()
    sides = []
    for i in range(len(x)):
        match = [s for s in (3, 5, 7) if np.array_equal(out[i], oracle(x[i], s))]
        assert len(match) == 1, i
        sides += match
    assert set(sides) == {3, 5, 7}
    half = tga.Blur(probability=0.5)(tf.constant(x), seed=[5, 5]).numpy()
    changed = np.any(half != x, axis=(1, 2, 3))
    assert abs(changed.mean() - 0.5) < 5 * np.sqrt(0.25 / len(x))
    np.testing.assert_array_equal(tga.Blur()(tf.constant(x), training=False).numpy(), x)
    layer = tga.keras.Blur(size=(3, 9), probability=0.7, seed=1)
    assert layer.get_config()["size"] == (3, 9)


@pytest.mark.parametrize("size", [(2, 4), (3, 17), (5, 3), (3,)])
def test_refusals(size):
    with pytest.raises(ValueError, match="odd window sides with 3 <= min <= max <= 15"):
        tga.Blur(size)
    with pytest.raises(ValueError, match="odd window sides"):
        tga.augment.random_blur(tf.zeros([1, 4, 4, 3], tf.uint8), size)
