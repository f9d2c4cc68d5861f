"""ConstrainedCoarseDropout (Albumentations'): holes only inside the boxes of the chosen labels
(sides the fractions of the box, truncated, as Albumentations' holes measure: checked against
Albumentations itself where installed) or centred on the connected components of the chosen
mask values (sides twice the floored half of fraction * sqrt(area)); fills, mask fill, the
boxes and keypoints a hole hides, probability, inference and the refusals."""
import warnings

import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug import targets as tg

H, W = 64, 96
BOXES = [(4, 4, 44, 36), (60, 8, 90, 60), (10, 50, 30, 64)]  # x1, y1, x2, y2; mask holes stay apart
LABELS = [1, 2, 1]
FILL = (255, 0, 255)


def _ragged(rows, dtype=np.float32):
    return tf.RaggedTensor.from_row_lengths(np.concatenate([np.asarray(r, dtype) for r in rows]),
                                            [len(r) for r in rows])


def _element(n=4, boxes=BOXES, labels=LABELS):
    images = np.stack([fixtures.photo(H, W, 3, seed=i) for i in range(n)])
    masks = np.zeros((n, H, W, 1), np.uint8)
    for x1, y1, x2, y2 in boxes:
        masks[:, y1:y2, x1:x2] = LABELS[boxes.index((x1, y1, x2, y2))] if boxes is BOXES else 1
    targets = tg.Targets(boxes=_ragged([boxes] * n), box_fields={"labels": _ragged([labels] * n, np.int32)},
                         keypoints=_ragged([[[10.5, 10.5], [80.0, 5.0]]] * n), masks=tf.constant(masks))
    return images, masks, targets


def _changed(out, images):
    return (out != images).any(axis=-1)


def _rect_of(region):
    rows, cols = np.nonzero(region)
    return rows.min(), cols.min(), rows.max() + 1, cols.max() + 1


@pytest.mark.parametrize("fractions", [((0.25, 0.25), (0.5, 0.5)), ((0.6, 0.6), (0.3, 0.3))])
def test_box_holes_inside_the_chosen_boxes_with_albumentations_sides(fractions):
    heights, widths = fractions
    images, masks, targets = _element()
    t = tga.ConstrainedCoarseDropout((1, 1), heights, widths, fill=FILL, bbox_labels=[1], probability=1.0)
    for seed in range(4):
        out = t.apply(tf.constant(images), targets, seed=tf.constant([seed, 3]))[0].numpy()
        for i in range(len(images)):
            changed = _changed(out[i], images[i])
            assert np.all(out[i][changed] == FILL)
            for (x1, y1, x2, y2), label in zip(BOXES, LABELS):
                inside = changed[y1:y2, x1:x2]
                if label != 1:
                    assert not inside.any()
                    continue
                top, left, bottom, right = _rect_of(inside)
                # one hole of floor(f * side); a photo byte equal to the fill would shrink it, none here
                assert (bottom - top, right - left) == (int(heights[0] * (y2 - y1)), int(widths[0] * (x2 - x1)))
                assert inside[top:bottom, left:right].all()
            in_boxes = np.zeros_like(changed)
            for x1, y1, x2, y2 in BOXES:
                in_boxes[y1:y2, x1:x2] = True
            assert not changed[~in_boxes].any()
    A = pytest.importorskip("albumentations")
    compose = A.Compose([A.ConstrainedCoarseDropout((1, 1), heights, widths, fill=FILL, bbox_labels=[1], p=1.0)],
                        bbox_params=A.BboxParams(format="pascal_voc", label_fields=["labels"]))
    theirs = compose(image=images[0], bboxes=np.array(BOXES, np.float32), labels=LABELS)["image"]
    for (x1, y1, x2, y2), label in zip(BOXES, LABELS):
        inside = _changed(theirs, images[0])[y1:y2, x1:x2]
        if label == 1:
            top, left, bottom, right = _rect_of(inside)
            assert (bottom - top, right - left) == (int(heights[0] * (y2 - y1)), int(widths[0] * (x2 - x1)))
        else:
            assert not inside.any()


def test_number_of_holes_per_box():
    """num_holes_range (2, 2) with sides of one pixel's worth: two one-pixel-or-larger holes per
    chosen box (fewer changed rectangles only where they overlap), never more area than two."""
    images, _, targets = _element()
    t = tga.ConstrainedCoarseDropout((2, 2), (0.1, 0.1), (0.1, 0.1), fill=FILL, bbox_labels=[1, 2], probability=1.0)
    out = t.apply(tf.constant(images), targets, seed=tf.constant([5, 3]))[0].numpy()
    for i in range(len(images)):
        changed = _changed(out[i], images[i])
        for x1, y1, x2, y2 in BOXES:
            area = int(0.1 * (y2 - y1)) * int(0.1 * (x2 - x1))
            got = changed[y1:y2, x1:x2].sum()
            assert area <= got <= 2 * area, (i, got, area)


def test_mask_holes_centred_on_the_chosen_components():
    """Value 1's components (two boxes labelled 1 in the mask) take holes centred on their pixels,
    sides 2 floor(f sqrt(area) / 2); value 2's component takes none; fill_mask writes the mask."""
    images, masks, targets = _element()
    t = tga.ConstrainedCoarseDropout((1, 1), (0.5, 0.5), (0.5, 0.5), fill=FILL, fill_mask=9, mask_indices=[1],
                                     probability=1.0)
    for seed in range(4):
        out, moved = t.apply(tf.constant(images), targets, seed=tf.constant([seed, 8]))
        out, new_masks = out.numpy(), moved.masks.numpy()
        for i in range(len(images)):
            changed = _changed(out[i], images[i])
            np.testing.assert_array_equal(new_masks[i][changed], 9)
            np.testing.assert_array_equal(new_masks[i][~changed], masks[i][~changed])
            for (x1, y1, x2, y2), label in zip(BOXES, LABELS):
                side = 2 * int(0.5 * np.sqrt((y2 - y1) * (x2 - x1)) / 2)
                m = side // 2  # a hole reaches this far past its component; the boxes are farther apart
                near = changed[max(y1 - m, 0):y2 + m, max(x1 - m, 0):x2 + m]
                if label != 1:
                    assert not changed[y1:y2, x1:x2].any()
                    continue
                top, left, bottom, right = _rect_of(near)
                cy, cx = (top + bottom) // 2 + max(y1 - m, 0), (left + right) // 2 + max(x1 - m, 0)
                assert y1 <= cy < y2 and x1 <= cx < x2  # centred on a pixel of the component
                assert bottom - top <= side and right - left <= side  # clipped only by the image
                assert (bottom - top == side) or top + max(y1 - m, 0) == 0 or bottom + max(y1 - m, 0) == H


def test_hidden_boxes_and_keypoints_drop_with_min_box_visibility():
    """Holes the whole size of the chosen boxes: those boxes (and their labels, and the keypoint
    inside the first) go with min_box_visibility 0.5; with None everything passes."""
    images, _, targets = _element()
    t = tga.ConstrainedCoarseDropout((1, 1), (1.0, 1.0), (1.0, 1.0), bbox_labels=[1], min_box_visibility=0.5,
                                     probability=1.0)
    out, moved = t.apply(tf.constant(images), targets, seed=tf.constant([1, 1]))
    for i in range(len(images)):
        assert moved.boxes[i].numpy().tolist() == [list(map(float, BOXES[1]))]
        assert moved.box_fields["labels"][i].numpy().tolist() == [2]
        assert moved.keypoints[i].numpy().tolist() == [[80.0, 5.0]]
    loose = tga.ConstrainedCoarseDropout((1, 1), (1.0, 1.0), (1.0, 1.0), bbox_labels=[1], probability=1.0)
    _, same = loose.apply(tf.constant(images), targets, seed=tf.constant([1, 1]))
    assert same.boxes.row_lengths().numpy().tolist() == [3] * len(images)
    assert same.keypoints.row_lengths().numpy().tolist() == [2] * len(images)


def test_random_fill_probability_inference_and_images_alone():
    images, _, targets = _element(n=200)
    t = tga.ConstrainedCoarseDropout((1, 1), (0.5, 0.5), (0.5, 0.5), fill="random", bbox_labels=[2], probability=0.3)
    out = t.apply(tf.constant(images), targets, seed=tf.constant([2, 2]))[0].numpy()
    changed = _changed(out, images).any(axis=(1, 2))
    assert 0.22 < changed.mean() < 0.38
    x1, y1, x2, y2 = BOXES[1]
    hole = out[changed][:, y1:y2, x1:x2].reshape(-1, 3)
    assert len(np.unique(hole)) > 200  # random levels per pixel
    same, _ = t.apply(tf.constant(images[:2]), targets.take(tf.range(2)), training=False)
    np.testing.assert_array_equal(same.numpy(), images[:2])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.testing.assert_array_equal(t(tf.constant(images[:2]), seed=tf.constant([1, 1])).numpy(), images[:2])
    assert any("without boxes or masks" in str(w.message) for w in caught)


def test_config_round_trip():
    images, _, targets = _element()
    t = tga.ConstrainedCoarseDropout((1, 3), (0.1, 0.3), (0.2, 0.4), fill=(1, 2, 3), fill_mask=0, bbox_labels=[1],
                                     min_box_visibility=0.2, probability=0.9, seed=4)
    again = tga.ConstrainedCoarseDropout(**t.get_config())
    assert again.get_config() == t.get_config()
    a = t.apply(tf.constant(images), targets, seed=tf.constant([1, 2]))[0].numpy()
    np.testing.assert_array_equal(a, again.apply(tf.constant(images), targets, seed=tf.constant([1, 2]))[0].numpy())


@pytest.mark.parametrize("kwargs, message", [
    (dict(), "exactly one of mask_indices"),
    (dict(mask_indices=[1], bbox_labels=[1]), "exactly one of mask_indices"),
    (dict(bbox_labels=["car"]), "non-empty list of integers"),
    (dict(bbox_labels=[1], num_holes_range=(0, 2)), "num_holes_range"),
    (dict(bbox_labels=[1], hole_height_range=(0.5, 1.5)), "hole_height_range"),
    (dict(bbox_labels=[1], fill="random_uniform"), "not offered"),
    (dict(bbox_labels=[1], fill=300), "fill levels"),
    (dict(bbox_labels=[1], min_box_visibility=1.5), "min_box_visibility"),
    (dict(mask_indices=[300]), "mask_indices"),
    (dict(bbox_labels=[1], probability=-1.0), "probability"),
])
def test_refusals(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tga.ConstrainedCoarseDropout(**kwargs)


def test_missing_annotations_refused():
    images, _, targets = _element()
    with pytest.raises(ValueError, match="needs segmentation masks"):
        tga.ConstrainedCoarseDropout(mask_indices=[1]).apply(tf.constant(images), targets.replace(masks=None), seed=1)
    with pytest.raises(ValueError, match="needs boxes with 'labels'"):
        tga.ConstrainedCoarseDropout(bbox_labels=[1]).apply(tf.constant(images), targets.replace(box_fields={}),
                                                            seed=1)
