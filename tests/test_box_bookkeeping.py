"""Targets.affine's boxes through the TfGpuAug>MoveBoxes op (cc/kernels/boxes), against the
TensorFlow graph it replaced (kept here as the reference): random boxes (degenerate, partly and
wholly outside), affine maps with rotation, shear, flips and translation, homographies, per-image
output sizes and box filters. Boxes, fields and row splits must be bit-identical.

Mutants checked against: clipping before taking the corners' extent; `>=` for min_area."""
import numpy as np
import pytest
import tensorflow as tf

from tfgpuaug import targets as tg


def reference_affine(boxes: tf.RaggedTensor, fields: dict, matrices, out_hw, f: tg.BoxFilter):
    rows = boxes.value_rowids()
    m = tf.gather(matrices, rows)
    x0, y0, x1, y1 = tf.unstack(boxes.flat_values, axis=-1)
    corners = tf.stack([tf.stack([x0, y0], -1), tf.stack([x1, y0], -1),
                        tf.stack([x0, y1], -1), tf.stack([x1, y1], -1)], axis=1)
    moved = tg._map_points(corners, m[:, tf.newaxis])
    lo, hi = tf.reduce_min(moved, axis=1), tf.reduce_max(moved, axis=1)
    size_xy = tf.reverse(tf.gather(out_hw, rows), axis=[-1])
    clipped_lo, clipped_hi = tf.clip_by_value(lo, 0.0, size_xy), tf.clip_by_value(hi, 0.0, size_xy)
    before = tf.reduce_prod(tf.maximum(hi - lo, 0.0), axis=-1)
    after = tf.reduce_prod(tf.maximum(clipped_hi - clipped_lo, 0.0), axis=-1)
    keep = boxes.with_flat_values((after > f.min_area) & (after >= f.min_visibility * before))
    out = boxes.with_flat_values(tf.concat([clipped_lo, clipped_hi], axis=-1))
    return tf.ragged.boolean_mask(out, keep), {k: tf.ragged.boolean_mask(v, keep) for k, v in fields.items()}


def random_matrices(rng, n, homography):
    out = []
    for _ in range(n):
        a = rng.uniform(-np.pi, np.pi)
        s = rng.uniform(0.5, 2.0, 2) * rng.choice([-1, 1], 2)
        shear = rng.uniform(-0.5, 0.5)
        m = np.array([[s[0] * np.cos(a), -np.sin(a) + shear, rng.uniform(-80, 80)],
                      [np.sin(a), s[1] * np.cos(a), rng.uniform(-80, 80)], [0, 0, 1]])
        if homography:
            m[2, :2] = rng.uniform(-1e-3, 1e-3, 2)
        out.append(m if homography else m[:2])
    return tf.constant(np.array(out, np.float32))


@pytest.mark.parametrize("homography", [False, True])
@pytest.mark.parametrize("area,visibility", [(0.0, 0.0), (20.0, 0.3), (0.0, 0.9)])
def test_move_boxes_equals_the_graph_it_replaced(homography, area, visibility):
    rng = np.random.default_rng(int(homography) * 10 + int(area))
    for _ in range(5):
        counts = rng.integers(0, 9, rng.integers(1, 7))
        n = len(counts)
        xy0 = rng.uniform(-60, 260, (counts.sum(), 2))
        wh = rng.uniform(0, 90, (counts.sum(), 2)) * (rng.random((counts.sum(), 1)) > 0.1)  # some empty
        flat = np.concatenate([xy0, xy0 + wh], 1).astype(np.float32)
        boxes = tf.RaggedTensor.from_row_lengths(flat, counts)
        fields = {"labels": tf.RaggedTensor.from_row_lengths(np.arange(counts.sum(), dtype=np.int32), counts),
                  "is_crowd": tf.RaggedTensor.from_row_lengths(rng.random(counts.sum()) > 0.5, counts)}
        matrices = random_matrices(rng, n, homography)
        out_hw = tf.constant(rng.uniform(50, 300, (n, 2)).astype(np.float32))
        f = tg.BoxFilter(area, visibility)
        got = tg.Targets(boxes=boxes, box_fields=fields, box_filter=f).affine(matrices, out_hw)
        want_boxes, want_fields = reference_affine(boxes, fields, matrices, out_hw, f)
        np.testing.assert_array_equal(got.boxes.row_splits.numpy(), want_boxes.row_splits.numpy())
        np.testing.assert_array_equal(got.boxes.flat_values.numpy(), want_boxes.flat_values.numpy())
        for k in fields:
            np.testing.assert_array_equal(got.box_fields[k].flat_values.numpy(), want_fields[k].flat_values.numpy())
            np.testing.assert_array_equal(got.box_fields[k].row_splits.numpy(), want_fields[k].row_splits.numpy())


def test_move_boxes_keeps_fields_with_inner_ragged_dimensions():
    boxes = tf.ragged.constant([[[0.0, 0.0, 10.0, 10.0], [500.0, 500.0, 510.0, 510.0]], [[5.0, 5.0, 8.0, 9.0]]],
                               ragged_rank=1)
    polygons = tf.ragged.constant([[[1, 2, 3], [4]], [[5, 6]]])  # ragged per box
    t = tg.Targets(boxes=boxes, box_fields={"polygons": polygons}).affine(
        tf.constant([[[1.0, 0, 0], [0, 1.0, 0]]] * 2), tf.constant([[100.0, 100.0]] * 2))
    assert t.boxes.to_list() == [[[0.0, 0.0, 10.0, 10.0]], [[5.0, 5.0, 8.0, 9.0]]]
    assert t.box_fields["polygons"].to_list() == [[[1, 2, 3]], [[5, 6]]]


def test_move_boxes_refuses_bad_shapes():
    from tfgpuaug import _loader
    ops = _loader.ops()
    ok = dict(boxes=tf.zeros([3, 4]), row_splits=tf.constant([0, 1, 3], tf.int64),
              matrices=tf.zeros([2, 2, 3]), out_hw=tf.ones([2, 2]))
    assert ops.tf_gpu_aug_move_boxes(**ok)[0].shape == (0, 4)
    for bad, words in [(dict(row_splits=tf.constant([0, 1, 2], tf.int64)), "end at 3"),
                       (dict(row_splits=tf.constant([0, 2, 1, 3], tf.int64), matrices=tf.zeros([3, 2, 3]),
                             out_hw=tf.ones([3, 2])), "must not decrease"),
                       (dict(matrices=tf.zeros([2, 4, 3])), r"matrices must be \[2, 2 or 3, 3\]"),
                       (dict(out_hw=tf.ones([3, 2])), r"out_hw must be \[2, 2\]")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=words):
            ops.tf_gpu_aug_move_boxes(**dict(ok, **bad))
