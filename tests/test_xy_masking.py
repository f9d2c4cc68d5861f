"""XYMasking (issue 36; Albumentations' transform of that name): the stripes read back from the
output (counts and widths in their ranges, full height or width, the fill exactly there and
nowhere else), boxes against Albumentations' dropout rule restated on a 2-D pixel mask in numpy
(and Albumentations' own function where installed), keypoints in stripes dropped, masks filled at
the same pixels, "random_uniform" colours one per stripe, probability, inference and refusals."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import targets as tg

N, H, W = 12, 40, 56


def photos():
    # no pixel is 0, so a masked one (fill 0) is told apart
    return np.random.default_rng(3).integers(1, 256, (N, H, W, 3), dtype=np.uint8)


def runs(flags):
    """(start, end) of the runs of True in a 1-D bool array."""
    padded = np.concatenate([[False], flags, [False]])
    edges = np.flatnonzero(padded[1:] != padded[:-1])
    return list(zip(edges[::2], edges[1::2]))


def test_stripes_are_where_the_fill_is_and_in_range():
    x = photos()
    out = tga.XYMasking(num_masks_x=(1, 3), num_masks_y=(0, 2), mask_x_length=(2, 6), mask_y_length=(3, 5),
                        probability=1.0)(x, seed=[1, 2]).numpy()
    zero = np.all(out == 0, axis=-1)
    np.testing.assert_array_equal(out[~zero], x[~zero])  # untouched elsewhere
    counts = []
    for i in range(N):
        cols, rows = zero[i].all(axis=0), zero[i].all(axis=1)
        np.testing.assert_array_equal(zero[i], cols[None, :] | rows[:, None])  # stripes span the image
        col_runs, row_runs = runs(cols), runs(rows)
        assert col_runs, i  # at least one column stripe
        assert all(e - s >= 2 for s, e in col_runs) and all(e - s >= 3 for s, e in row_runs)
        counts.append(len(col_runs))
    assert max(counts) > 1  # counts vary (stripes may merge, so only the range is checked)


def numpy_rule(box, covered, min_area=0.0, min_visibility=0.0):
    """Albumentations' filter_bboxes_by_holes + resize_boxes_to_visible_area on a pixel mask
    (sides that do not move keep their fractions, as tfgpuaug documents)."""
    x1, y1, x2, y2 = (int(v) for v in box)
    region = 1 - covered[y1:y2, x1:x2]
    area, remaining = (x2 - x1) * (y2 - y1), region.sum()
    if not (remaining > 0 and remaining >= min_area and remaining / area >= min_visibility):
        return None
    ys, xs = np.nonzero(region.any(axis=1))[0], np.nonzero(region.any(axis=0))[0]
    new = [x1 + xs[0], y1 + ys[0], x1 + xs[-1] + 1, y1 + ys[-1] + 1]
    return [new[0] if new[0] > x1 else box[0], new[1] if new[1] > y1 else box[1],
            new[2] if new[2] < x2 else box[2], new[3] if new[3] < y2 else box[3]]


@pytest.mark.parametrize("min_visibility", [0.0, 0.6])
def test_boxes_follow_the_dropout_rule(min_visibility):
    x = photos()
    rng = np.random.default_rng(5)
    boxes = []
    for _ in range(N):
        xy = rng.uniform(0, [W - 8, H - 8], (6, 2))
        wh = rng.uniform(2, 20, (6, 2))
        boxes.append(np.concatenate([xy, np.minimum(xy + wh, [W, H])], 1).round(2))
    targets = tg.Targets(boxes=tf.ragged.constant(boxes, ragged_rank=1, inner_shape=(4,)),
                         box_filter=tg.BoxFilter(min_visibility=min_visibility))
    out, moved = tga.XYMasking((1, 3), (1, 2), (3, 9), (2, 7), probability=0.75).apply(
        tf.constant(x), targets, seed=tf.constant([4, 5]))
    zero = np.all(out.numpy() == 0, axis=-1).astype(np.uint8)
    got = moved.boxes.numpy()
    dropped_some = shrunk_some = False
    for i in range(N):
        if not zero[i].any():  # not applied: boxes as they were
            np.testing.assert_allclose(got[i], boxes[i], rtol=1e-6)
            continue
        expected = [b for b in (numpy_rule(b, zero[i], 0.0, min_visibility) for b in boxes[i]) if b is not None]
        dropped_some |= len(expected) < len(boxes[i])
        shrunk_some |= len(expected) == len(boxes[i]) and not np.allclose(expected, boxes[i])
        np.testing.assert_allclose(np.reshape(got[i], (-1, 4)), np.reshape(expected, (-1, 4)), rtol=1e-6,
                                   err_msg=str(i))
    assert shrunk_some and (dropped_some or min_visibility == 0.0)


def test_boxes_match_albumentations_function_where_installed():
    F = pytest.importorskip("albumentations.augmentations.dropout.functional")
    covered = np.zeros((H, W), np.uint8)
    covered[:, 10:14] = covered[:, 30:33] = covered[20:24, :] = 1
    holes = np.array([[10, 0, 14, H], [30, 0, 33, H], [0, 20, W, 24]], np.float64)
    boxes = np.array([[5, 5, 20, 30], [11, 2, 13, 9], [28, 18, 40, 26], [31, 1, 32, 39], [8, 21, 50, 23]],
                     np.float64)
    theirs = F.filter_bboxes_by_holes(boxes, holes, (H, W), 0.0, 0.0)
    ours = [b for b in (numpy_rule(b, covered) for b in boxes) if b is not None]
    np.testing.assert_allclose(np.reshape(ours, (-1, 4)), theirs)  # integer boxes: no fractions to keep


def test_masks_keypoints_and_random_uniform_colours():
    x = photos()
    masks = np.ones((N, H, W, 1), np.uint8)
    points = [[[float(c) + 0.5, 20.5] for c in range(0, W, 2)]] * N
    targets = tg.Targets(masks=tf.constant(masks), keypoints=tf.ragged.constant(points, ragged_rank=1,
                                                                                 inner_shape=(2,)))
    t = tga.XYMasking(2, 0, (4, 6), 0, fill="random_uniform", fill_mask=9, probability=1.0)
    out, moved = t.apply(tf.constant(x), targets, seed=tf.constant([6, 7]))
    out, m = out.numpy(), moved.masks.numpy()[..., 0]
    for i in range(N):
        covered = m[i] == 9
        cols = covered.all(axis=0)
        assert covered.any() and np.array_equal(covered, np.broadcast_to(cols, covered.shape))
        changed = np.any(out[i] != x[i], axis=-1)
        assert changed[covered].mean() > 0.95 and not changed[~covered].any()
        for s, e in runs(cols):  # one colour a stripe (two overlapping stripes: the later on top)
            assert len(np.unique(out[i][:, s:e].reshape(-1, 3), axis=0)) <= 2
        kept = moved.keypoints[i].numpy()
        expected = [p for p in points[i] if not cols[int(p[0])]]
        np.testing.assert_allclose(kept, np.reshape(expected, (-1, 2)))


def test_probability_inference_and_refusals():
    x = np.repeat(photos()[:1], 200, axis=0)
    out = tga.XYMasking(1, 0, 5, 0, probability=0.3)(x, seed=[8, 9]).numpy()
    changed = (out != x).reshape(200, -1).any(1)
    assert 0.2 < changed.mean() < 0.4
    np.testing.assert_array_equal(tga.XYMasking(1, 1, 3, 3, probability=1.0)(x[:2], training=False), x[:2])
    with pytest.raises(ValueError, match="mask_x_length max 60 exceeds the image width 56"):
        tga.XYMasking(1, 0, 60, 0)(x[:1], seed=[1, 1])
    with pytest.raises(ValueError, match="inpainting"):
        tga.XYMasking(fill="inpaint_telea")
    with pytest.raises(ValueError, match="num_masks_x must be"):
        tga.XYMasking(num_masks_x=(3, 1))
    with pytest.raises(ValueError, match="fill has 2 levels for 3-channel images"):
        tga.XYMasking(1, 0, 3, 0, fill=[1, 2])(x[:1], seed=[1, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="XYMasking_mask_lengths_exceed_the_image"):
        tf.function(lambda v: tga.XYMasking(1, 0, 60, 0, probability=1.0)(v, seed=[1, 1]),
                    input_signature=[tf.TensorSpec([None, None, None, 3], tf.uint8)])(x[:1])
