"""random_erasing (issue #21) against timm's RandomErasing: the reported rectangles are filled
and nothing else moves (exact); the rectangles' areas, aspects and positions follow timm's
sampling law (chi-square); the erase probability is binomial; the fills follow the mode."""
import math

import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga

CHI2_P001 = {9: 27.88, 19: 43.82}  # chi-square critical values at p = 0.001


def chi2_uniform(values, lo, hi, bins) -> float:
    counts, _ = np.histogram(values, bins=bins, range=(lo, hi))
    expected = len(values) / bins
    return float(((counts - expected) ** 2 / expected).sum())


@pytest.mark.parametrize("mode", ["const", "rand", "pixel"])
def test_rectangles_are_filled_and_nothing_else_moves(mode):
    images = np.stack([fixtures.photo(40, 48, seed=s) for s in range(16)])
    out, rects = tga.augment.random_erasing(images, probability=1.0, mode=mode, value=7, count=(1, 3),
                                            seed=[1, 2], return_plan=True)
    out, rects = out.numpy(), rects.numpy().astype(int)
    for i in range(len(images)):
        inside = np.zeros((40, 48), bool)
        for y, x, h, w in rects[i]:
            inside[y:y + h, x:x + w] = True
        assert inside.any()
        np.testing.assert_array_equal(out[i][~inside], images[i][~inside])
        filled = out[i][inside]
        if mode == "const":
            assert (filled == 7).all()
        elif mode == "pixel":  # independent uniform levels: many distinct values
            assert len(np.unique(filled)) > min(50, filled.size // 4)
    if mode == "rand":  # one colour per rectangle: a single-rectangle region has one colour
        y, x, h, w = rects[0][0]
        single = out[0][y:y + h, x:x + w].reshape(-1, 3)
        overlap = any(r[2] > 0 and r is not rects[0][0] for r in rects[0][1:])
        if not overlap:
            assert len(np.unique(single, axis=0)) == 1


def test_float_images_get_standard_normal_fills():
    images = tf.zeros([64, 32, 32, 3])
    out, rects = tga.augment.random_erasing(images, probability=1.0, mode="pixel", seed=[3, 4], return_plan=True)
    values = out.numpy()[out.numpy() != 0]
    assert values.size > 10000
    assert abs(values.mean()) < 0.05 and abs(values.std() - 1.0) < 0.05


def test_sampling_law_matches_timm():
    """count=1 on 200x200 images with area up to 0.1: every first attempt fits, so areas are
    uniform in [0.02, 0.1] of the image, log-aspects uniform in [log 0.3, log 1/0.3], and
    positions uniform over the room left (chi-square at p = 0.001, on the integer h and w
    timm rounds to)."""
    n = 4000
    images = tf.zeros([n, 200, 200, 1], tf.uint8)
    _, rects = tga.augment.random_erasing(images, probability=1.0, area=(0.02, 0.1), seed=[5, 6],
                                          return_plan=True)
    y, x, h, w = rects.numpy()[:, 0].T
    assert (h > 0).all()
    area = h * w / 40000.0
    assert chi2_uniform(area, 0.02, 0.1, 10) < CHI2_P001[9]  # measured 9.4
    log_aspect = np.log(h / w)
    # measured 16.9; a uniform (not log-uniform) aspect gives ~1700
    assert chi2_uniform(log_aspect, math.log(0.3), -math.log(0.3), 10) < CHI2_P001[9]
    assert abs(log_aspect.mean()) < 0.05
    position = y / (200 - h + 1)  # uniform in [0, 1)
    assert chi2_uniform(position, 0.0, 1.0, 20) < CHI2_P001[19]
    assert (y + h <= 200).all() and (x + w <= 200).all()


def test_probability_and_count():
    n = 2000
    images = tf.zeros([n, 30, 30, 1], tf.uint8)
    _, rects = tga.augment.random_erasing(images, probability=0.3, count=(1, 3), seed=[7, 8], return_plan=True)
    used = rects.numpy()[..., 2] > 0
    erased = used.any(axis=1)
    assert abs(erased.mean() - 0.3) < 4 * math.sqrt(0.3 * 0.7 / n)
    per_sample = used[erased].sum(axis=1)
    assert set(np.unique(per_sample)) <= {1, 2, 3} and len(np.unique(per_sample)) == 3


def test_transform_passes_boxes_and_inference_is_identity():
    images = tf.constant(np.stack([fixtures.photo(20, 24, seed=s) for s in range(3)]))
    erase = tga.RandomErasing(probability=1.0, seed=1)
    np.testing.assert_array_equal(erase(images, training=False).numpy(), images.numpy())
    assert not np.array_equal(erase(images, seed=[1, 1]).numpy(), images.numpy())
    with pytest.raises(ValueError, match="mode"):
        tga.RandomErasing(mode="noise")
    with pytest.raises(ValueError, match="area"):
        tga.augment.random_erasing(images, area=(0.5, 0.2))


def test_min_box_visibility_drops_erased_boxes_and_keypoints():
    """With `min_box_visibility`, a box keeps only if that much of it stays unerased, and a
    keypoint only if no rectangle covers it (Albumentations' CoarseDropout): checked against
    the rectangles the same seed draws (return_plan), computed in numpy. Without it (the
    default), boxes and keypoints pass through as in timm."""
    from tfgpuaug import targets as tg
    images = tf.zeros([3, 40, 50, 3], tf.uint8)
    rng = np.random.default_rng(0)
    xy = rng.uniform(0, 30, (3, 12, 2)).astype(np.float32)
    wh = rng.uniform(3, 20, (3, 12, 2)).astype(np.float32)
    boxes = np.concatenate([xy, np.minimum(xy + wh, [50, 40])], -1).reshape(-1, 4).astype(np.float32)
    points = rng.uniform(0, 40, (3 * 20, 2)).astype(np.float32)
    targets = tg.Targets(boxes=tf.RaggedTensor.from_row_lengths(boxes, [12, 12, 12]),
                         box_fields={"labels": tf.RaggedTensor.from_row_lengths(np.arange(36), [12, 12, 12])},
                         keypoints=tf.RaggedTensor.from_row_lengths(points, [20, 20, 20]))
    dropped_boxes = dropped_points = 0
    for seed in range(6):
        t = tga.RandomErasing(probability=1.0, area=(0.1, 0.4), count=(1, 2), min_box_visibility=0.6)
        s = tf.constant([seed, 5])
        _, got = t.apply(images, targets, seed=s)
        _, rects = tga.augment.random_erasing(images, 1.0, (0.1, 0.4), count=(1, 2), seed=s, return_plan=True)
        rects = rects.numpy()
        for i in range(3):
            b = boxes[12 * i:12 * (i + 1)]
            erased = np.zeros(12)
            for y, x, h, w in rects[i]:
                ow = np.clip(np.minimum(b[:, 2], x + w) - np.maximum(b[:, 0], x), 0, None)
                oh = np.clip(np.minimum(b[:, 3], y + h) - np.maximum(b[:, 1], y), 0, None)
                erased += ow * oh
            area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
            keep = 1 - erased / area >= 0.6
            np.testing.assert_allclose(got.boxes[i].numpy(), b[keep], rtol=1e-6)
            np.testing.assert_array_equal(got.box_fields["labels"][i].numpy(), np.arange(12 * i, 12 * (i + 1))[keep])
            p = points[20 * i:20 * (i + 1)]
            covered = np.zeros(20, bool)
            for y, x, h, w in rects[i]:
                covered |= (p[:, 0] >= x) & (p[:, 0] < x + w) & (p[:, 1] >= y) & (p[:, 1] < y + h)
            np.testing.assert_array_equal(got.keypoints[i].numpy(), p[~covered])
            dropped_boxes += int((~keep).sum())
            dropped_points += int(covered.sum())
    assert dropped_boxes > 5 and dropped_points > 5  # the case is exercised
    _, same = tga.RandomErasing(probability=1.0).apply(images, targets, seed=tf.constant([1, 2]))
    assert same is targets  # the default passes annotations through
    with pytest.raises(ValueError, match="min_box_visibility"):
        tga.RandomErasing(min_box_visibility=1.5)
