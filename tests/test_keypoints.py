"""ClampKeyPoints and SanitizeKeyPoints (torchvision's, issue 36): the functions against numpy
(clip to [0, w - 1] x [0, h - 1]; keep 0 <= x < w, 0 <= y < h and finite) on single images and
ragged batches with per-image sizes, labels following; the transforms on a pipeline's keypoints
after a flip moves one outside, at each image's own size."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import targets as tg
from tfgpuaug.keypoints import clamp_keypoints, sanitize_keypoints

POINTS = np.array([[5, 5], [-1, 10], [39.9, 29.9], [40, 10], [10, 30], [0, 0], [np.nan, 3], [12.5, -0.01]],
                  np.float32)


def test_functions_against_numpy_on_one_image():
    h, w = 30, 40
    np.testing.assert_array_equal(clamp_keypoints(POINTS[:6], h, w).numpy(),
                                  np.stack([np.clip(POINTS[:6, 0], 0, w - 1), np.clip(POINTS[:6, 1], 0, h - 1)], 1))
    labels = np.arange(len(POINTS))
    kept, kept_labels = sanitize_keypoints(POINTS, labels, h, w)
    inside = (POINTS[:, 0] >= 0) & (POINTS[:, 0] < w) & (POINTS[:, 1] >= 0) & (POINTS[:, 1] < h)
    np.testing.assert_array_equal(kept.numpy(), POINTS[inside])
    np.testing.assert_array_equal(kept_labels.numpy(), [0, 2, 5])


def test_ragged_batches_use_each_images_size():
    points = tf.ragged.constant([POINTS[:3].tolist(), POINTS[3:6].tolist()], ragged_rank=1, inner_shape=(2,))
    kept, _ = sanitize_keypoints(points, None, [30, 50], [40, 60])  # the second image is larger: [40, 10] fits
    assert kept.numpy()[0].tolist() == [[5, 5], POINTS[2].tolist()]
    np.testing.assert_array_equal(kept.numpy()[1], POINTS[3:6])
    clamped = clamp_keypoints(points, [30, 50], [40, 60]).numpy()
    np.testing.assert_array_equal(clamped[0], [[5, 5], [0, 10], [39, 29]])
    np.testing.assert_array_equal(clamped[1], POINTS[3:6])


def test_transforms_on_a_pipelines_keypoints():
    """After a horizontal flip of a 40-wide image, x = -1 becomes 41 (outside): the transforms
    clamp or drop it at the image's size; images pass through; inference does the same."""
    images = tf.zeros([1, 30, 40, 3], tf.uint8)
    points = tf.ragged.constant([[[-1.0, 10.0], [5.0, 5.0]]], ragged_rank=1, inner_shape=(2,))
    targets = tg.Targets(keypoints=points)
    flip = tga.RandomFlip(horizontal=1.0)
    flipped_images, flipped = flip.apply(images, targets, seed=[1, 1])
    np.testing.assert_allclose(flipped.keypoints.numpy()[0], [[41, 10], [35, 5]])
    for training in (True, False):
        out, clamped = tga.ClampKeyPoints().apply(flipped_images, flipped, training=training)
        np.testing.assert_allclose(clamped.keypoints.numpy()[0], [[39, 10], [35, 5]])
        np.testing.assert_array_equal(out, flipped_images)
        _, sane = tga.SanitizeKeyPoints().apply(flipped_images, flipped, training=training)
        np.testing.assert_allclose(sane.keypoints.numpy()[0], [[35, 5]])


def test_refusals():
    with pytest.raises(ValueError, match=r"\[K, 2\] or ragged"):
        clamp_keypoints(np.zeros((3, 3)), 10, 10)
    with pytest.raises(ValueError, match="height and width"):
        sanitize_keypoints(POINTS)
