"""RandomResize (torchvision v2), SmallestMaxSize and LongestMaxSize (Albumentations): the new
size against each library's rule written out here in Python (and against Albumentations 2.0.8
itself where installed), the pixels against tf.image.resize, the annotations against the scale,
the per-batch draws, inference and the refusals."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug import targets as tg
from tfgpuaug.shortest_size import scaled_size, shorter_side_size

SHAPES = [(480, 640), (640, 480), (375, 500), (1000, 200), (333, 333), (7, 1000), (1, 3), (427, 640)]


def torchvision_resize_int(h, w, size):
    """torchvision.transforms.v2.functional._geometry._compute_resized_output_size, int size."""
    short, long = (w, h) if w <= h else (h, w)
    new_short, new_long = size, int(size * long / short)
    return (new_long, new_short) if w <= h else (new_short, new_long)


def albumentations_size(h, w, max_size, smallest):
    scale = max_size / (min(h, w) if smallest else max(h, w))
    return max(1, round(h * scale)), max(1, round(w * scale))


@pytest.mark.parametrize("h, w", SHAPES)
@pytest.mark.parametrize("size", [1, 224, 256, 333, 800])
def test_size_rules_are_the_libraries(h, w, size):
    got = shorter_side_size(tf.constant(h), tf.constant(w), tf.constant(size)).numpy().tolist()
    assert got == list(torchvision_resize_int(h, w, size))
    for smallest in (True, False):
        side = min(h, w) if smallest else max(h, w)
        got = scaled_size(tf.constant(h), tf.constant(w), tf.constant(size / side, tf.float64)).numpy().tolist()
        assert got == list(albumentations_size(h, w, size, smallest))


def test_random_resize_draws_one_size_per_batch_from_the_half_open_range():
    images = tf.zeros([2, 30, 40, 3], tf.uint8)
    t = tga.RandomResize(10, 13)
    counts = {}
    for s in range(300):
        out = t(images, seed=[s, 1])
        counts[out.shape[1]] = counts.get(out.shape[1], 0) + 1
        assert out.shape[2] == int(out.shape[1] * 40 / 30)
    assert sorted(counts) == [10, 11, 12]  # 13 excluded, as torchvision's randint
    assert all(abs(c / 300 - 1 / 3) < 0.09 for c in counts.values()), counts
    assert t(images, training=False).shape[1:3] == (12, 16)


def test_pixels_match_tf_image_resize():
    images = np.stack([fixtures.photo(60, 80, seed=s) for s in range(3)])
    for t, hw, antialias in ((tga.RandomResize(40, 41), (40, 53), True), (tga.SmallestMaxSize(90), (90, 120), False),
                             (tga.LongestMaxSize(50), (38, 50), False)):  # round(60 * 50 / 80) = round(37.5) = 38
        out = t(tf.constant(images), seed=1).numpy()
        assert out.shape[1:3] == hw, type(t).__name__
        reference = tf.image.resize(tf.constant(images, tf.float32), hw, antialias=antialias).numpy()
        assert np.abs(out.astype(float) - np.clip(np.round(reference), 0, 255)).max() <= 1.0, type(t).__name__


def test_max_size_lists_and_max_size_hw():
    images = tf.zeros([1, 30, 40, 3], tf.uint8)
    seen = {tga.SmallestMaxSize((15, 60))(images, seed=[s, 0]).shape[1] for s in range(40)}
    assert seen == {15, 60}
    assert tga.SmallestMaxSize((15, 60))(images, training=False).shape[1:3] == (60, 80)
    # SmallestMaxSize: the larger scale (at least both); LongestMaxSize: the smaller (fits in both)
    assert tga.SmallestMaxSize(None, max_size_hw=(60, 60))(images).shape[1:3] == (60, 80)
    assert tga.LongestMaxSize(None, max_size_hw=(60, 60))(images).shape[1:3] == (45, 60)
    assert tga.LongestMaxSize(None, max_size_hw=(None, 20))(images).shape[1:3] == (15, 20)
    assert tga.SmallestMaxSize(None, max_size_hw=(45, None))(images).shape[1:3] == (45, 60)


def test_matches_albumentations_sizes_where_installed():
    A = pytest.importorskip("albumentations")
    for h, w in SHAPES[:6]:
        image = np.zeros((h, w, 3), np.uint8)
        for ours, theirs in ((tga.SmallestMaxSize(256), A.SmallestMaxSize(max_size=256)),
                             (tga.LongestMaxSize(300), A.LongestMaxSize(max_size=300)),
                             (tga.LongestMaxSize(None, max_size_hw=(200, 150)),
                              A.LongestMaxSize(max_size=None, max_size_hw=(200, 150))),
                             (tga.SmallestMaxSize(None, max_size_hw=(None, 90)),
                              A.SmallestMaxSize(max_size=None, max_size_hw=(None, 90)))):
            assert ours(image[None]).shape[1:3] == theirs(image=image)["image"].shape[:2], (h, w, type(ours))


def test_boxes_masks_and_keypoints_follow_the_scale():
    images = np.stack([fixtures.photo(30, 40, seed=1)] * 2)
    masks = np.zeros((2, 30, 40, 1), np.uint8)
    masks[:, 6:18, 8:24] = 1
    boxes = tf.ragged.constant([[[8.0, 6.0, 24.0, 18.0]]] * 2, ragged_rank=1)
    points = tf.ragged.constant([[[10.0, 20.0]]] * 2, ragged_rank=1)
    for t in (tga.RandomResize(60, 61), tga.SmallestMaxSize(60), tga.LongestMaxSize(80)):  # all x2
        out, got = t.apply(images, tg.Targets(boxes=boxes, masks=masks, keypoints=points), seed=3)
        assert out.shape == (2, 60, 80, 3)
        np.testing.assert_allclose(got.boxes.to_tensor().numpy()[:, 0], [[16.0, 12.0, 48.0, 36.0]] * 2)
        np.testing.assert_allclose(got.keypoints.to_tensor().numpy()[:, 0], [[20.0, 40.0]] * 2)
        ys, xs = np.nonzero(got.masks.numpy()[0, ..., 0])
        assert (ys.min(), ys.max(), xs.min(), xs.max()) == (12, 35, 16, 47)


@pytest.mark.parametrize("make, message", [
    (lambda: tga.RandomResize(20, 20), "must exceed min_size"),
    (lambda: tga.RandomResize(0, 20), "min_size must be a positive int"),
    (lambda: tga.SmallestMaxSize(None), "exactly one of max_size and max_size_hw"),
    (lambda: tga.LongestMaxSize(10, max_size_hw=(5, 5)), "exactly one of max_size and max_size_hw"),
    (lambda: tga.LongestMaxSize(None, max_size_hw=(None, None)), "max_size_hw must be"),
    (lambda: tga.SmallestMaxSize([]), "max_size must be a positive int"),
    (lambda: tga.LongestMaxSize(10, method="lanczos"), "method"),
])
def test_bad_arguments_fail_at_construction(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_ragged_batches_are_refused_with_the_fix():
    ragged = tf.ragged.stack([tf.zeros([4, 5, 3], tf.uint8), tf.zeros([6, 5, 3], tf.uint8)])
    with pytest.raises(ValueError, match="LongestMaxSize resizes a dense batch"):
        tga.LongestMaxSize(10)(ragged)
