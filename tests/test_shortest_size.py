"""RandomShortestSize (issue 36's multi-scale per batch): the new size against torchvision v2's
rule computed here in Python, the pixels against tf.image.resize, the annotations against the
scale they must follow, the per-batch draw, inference and the refusals."""
import math

import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug import targets as tg
from tfgpuaug.shortest_size import shortest_size


def torchvision_size(h, w, shorter, max_size):
    """torchvision.transforms.v2.RandomShortestSize._get_params, in Python floats."""
    r = shorter / min(h, w)
    if max_size is not None:
        r = min(r, max_size / max(h, w))
    return int(h * r), int(w * r)


@pytest.mark.parametrize("h, w, shorter, max_size", [
    (480, 640, 800, 1333), (640, 480, 800, 1333), (375, 500, 608, None), (1000, 200, 640, 1000),
    (333, 333, 512, None), (427, 640, 480, 1000), (7, 1000, 800, 1333), (1, 1, 3, None)])
def test_size_rule_is_torchvisions(h, w, shorter, max_size):
    got = shortest_size(tf.constant(h), tf.constant(w), tf.constant(shorter), max_size).numpy().tolist()
    assert got == [max(v, 1) for v in torchvision_size(h, w, shorter, max_size)]


def test_pixels_match_tf_image_resize_with_antialias():
    images = np.stack([fixtures.photo(60, 80, seed=s) for s in range(3)])
    t = tga.RandomShortestSize(40, seed=1)  # downscale: antialias matters
    out = t(tf.constant(images)).numpy()
    assert out.shape == (3, 40, 53, 3)  # int(80 * 40 / 60) = 53
    reference = tf.image.resize(tf.constant(images, tf.float32), (40, 53), antialias=True).numpy()
    diff = np.abs(out.astype(float) - np.clip(np.round(reference), 0, 255))
    assert diff.max() <= 1.0, diff.max()
    up = tga.RandomShortestSize(90, max_size=100)(tf.constant(images)).numpy()
    assert up.shape == (3, 75, 100, 3)  # 90 / 60 would make the width 120 > 100: r = 100 / 80
    reference = tf.image.resize(tf.constant(images, tf.float32), (75, 100)).numpy()
    assert np.abs(up.astype(float) - np.clip(np.round(reference), 0, 255)).max() <= 1.0


def test_one_size_per_batch_drawn_uniformly_from_the_list():
    images = tf.zeros([2, 30, 40, 3], tf.uint8)
    t = tga.RandomShortestSize((10, 20, 30))
    counts = {}
    for s in range(300):
        out = t(images, seed=[s, 7])
        counts[out.shape[1]] = counts.get(out.shape[1], 0) + 1
        assert out.shape[2] == {10: 13, 20: 26, 30: 40}[out.shape[1]]
    assert sorted(counts) == [10, 20, 30]
    assert all(abs(c / 300 - 1 / 3) < 0.09 for c in counts.values()), counts
    # the same seed gives the same size; inference takes the largest
    assert t(images, seed=[3, 3]).shape == t(images, seed=[3, 3]).shape
    assert t(images, training=False).shape[1:3] == (30, 40)


def test_boxes_masks_and_keypoints_follow_the_scale():
    images = tf.constant(np.stack([fixtures.photo(50, 100, seed=s) for s in range(2)]))
    masks = np.zeros((2, 50, 100, 1), np.uint8)
    masks[:, 10:30, 20:60] = 1
    boxes = tf.ragged.constant([[[20.0, 10.0, 60.0, 30.0]], [[0.0, 0.0, 100.0, 50.0], [50.0, 25.0, 75.0, 40.0]]],
                               ragged_rank=1)
    keypoints = tf.ragged.constant([[[20.0, 10.0]], [[99.0, 49.0]]], ragged_rank=1)
    targets = tg.Targets(boxes=boxes, masks=tf.constant(masks), keypoints=keypoints)
    out, moved = tga.RandomShortestSize(20, seed=0).apply(images, targets)
    assert out.shape == (2, 20, 40, 3)
    sy, sx = 20 / 50, 40 / 100
    np.testing.assert_allclose(moved.boxes.flat_values.numpy(),
                               boxes.flat_values.numpy() * np.array([sx, sy, sx, sy]), atol=1e-4)
    np.testing.assert_allclose(moved.keypoints.flat_values.numpy(),
                               keypoints.flat_values.numpy() * np.array([sx, sy]), atol=1e-4)
    m = moved.masks.numpy()
    assert m.shape == (2, 20, 40, 1)
    assert m[:, 4:12, 8:24].all() and m.sum() == 2 * 8 * 16  # rows 10..30 -> 4..12, columns 20..60 -> 8..24


def test_layer_and_config():
    layer = tga.keras.RandomShortestSize(min_size=(16, 24), max_size=64, seed=2)
    assert layer.get_config()["min_size"] == (16, 24)
    out = layer(tf.zeros([1, 32, 48, 3], tf.uint8), training=True)
    assert out.shape[1] in (16, 24) and out.shape[2] == math.floor(48 * out.shape[1] / 32)


@pytest.mark.parametrize("kwargs, message", [
    (dict(min_size=()), "min_size"),
    (dict(min_size=(0, 10)), "min_size"),
    (dict(min_size=12.5), "min_size"),
    (dict(min_size=10, max_size=0), "max_size"),
    (dict(min_size=10, method="lanczos9"), "method"),
])
def test_bad_arguments_fail_at_construction(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tga.RandomShortestSize(**kwargs)


def test_ragged_and_encoded_batches_are_refused_with_what_to_do():
    ragged = tf.ragged.constant([np.zeros((4, 5, 3), np.uint8), np.zeros((6, 5, 3), np.uint8)], ragged_rank=1)
    with pytest.raises(ValueError, match="dense batch"):
        tga.RandomShortestSize(8)(ragged)
    with pytest.raises(ValueError, match="Letterbox"):
        tga.RandomShortestSize(8)(tf.constant([fixtures.jpeg_bytes(fixtures.photo(8, 8))]))


def test_runs_in_a_gpu_augment_pipeline_with_a_size_per_batch():
    images = np.stack([fixtures.photo(24, 32, seed=s) for s in range(8)])
    ds = tf.data.Dataset.from_tensor_slices(images).batch(2)
    ds = ds.apply(tga.gpu_augment([tga.RandomShortestSize((12, 16, 20)), tga.RandomFlip()], seed=3))
    shapes = [tuple(b.shape) for b in ds]
    assert len(shapes) == 4 and all(s[0] == 2 and s[1] in (12, 16, 20) and s[2] == s[1] * 4 // 3 for s in shapes)
