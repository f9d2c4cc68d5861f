"""CopyPaste (issue 36's copy-paste of instances) against a numpy oracle of torchvision's
reference SimpleCopyPaste with instance-id masks: given which source objects were pasted (read
back from the output's unique labels), the image, the renumbered mask, the boxes (pixel
extents) and the labels must be exactly the oracle's, with and without torchvision's blending;
the selection rule's frequency; keypoints; probability 0, inference and the refusals."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug import targets as tg
from tfgpuaug.copy_paste import torchvision_selection

H, W = 32, 40


def make_batch(seed=0):
    """Three photos with instance-id masks of overlapping rectangles (box k <-> id k + 1, the
    last drawn wins where they overlap) and unique labels 100 * sample + k."""
    rng = np.random.default_rng(seed)
    images = np.stack([fixtures.photo(H, W, seed=seed * 10 + s) for s in range(3)])
    masks = np.zeros((3, H, W, 1), np.uint8)
    boxes, labels = [], []
    for b, count in enumerate((3, 4, 2)):
        rows, row_labels = [], []
        for k in range(count):
            y0, x0 = rng.integers(0, H - 8), rng.integers(0, W - 8)
            y1, x1 = y0 + rng.integers(4, 12), x0 + rng.integers(4, 14)
            masks[b, y0:y1, x0:x1, 0] = k + 1
            row_labels.append(100 * b + k)
        for k in range(count):  # boxes: each object's visible extent
            ys, xs = np.nonzero(masks[b, ..., 0] == k + 1)
            rows.append([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1] if len(ys) else [0, 0, 1, 1])
        boxes.append(rows)
        labels.append(row_labels)
    return images, masks, boxes, labels


def blurred_mask(region):
    """torchvision's gaussian_blur of a boolean mask as float64: 5x5 taps exp(-x^2 / 8) on
    -2 .. 2, normalised, reflected border (numpy's "reflect" is torch's)."""
    taps = np.exp(-0.5 * (np.arange(-2, 3) / 2.0) ** 2)
    taps /= taps.sum()
    padded = np.pad(region.astype(np.float64), 2, mode="reflect")
    h, w = region.shape
    return sum(taps[i] * taps[j] * padded[i:i + h, j:j + w] for i in range(5) for j in range(5))


def oracle(images, masks, labels, pasted_labels, original_boxes, blending=False):
    """Per sample b: the objects of sample b - 1 whose labels are in pasted_labels[b] pasted over
    it; ids renumbered (own survivors, then pasted), boxes = pixel extents, labels follow. With
    blending, the image takes the source's pixels where the blurred paste mask rounds to 1 (torch
    rounds its blurred boolean mask back to booleans), and own objects lose those pixels too."""
    out_images, out_masks, out_boxes, out_labels = [], [], [], []
    n = len(images)
    for b in range(n):
        s = (b - 1) % n
        chosen = [k for k, lab in enumerate(labels[s]) if lab in pasted_labels[b]]
        region = np.isin(masks[s, ..., 0], [k + 1 for k in chosen])
        if not region.any():  # nothing pasted: the sample as it was
            out_images.append(images[b])
            out_masks.append(masks[b])
            out_boxes.append(original_boxes[b])
            out_labels.append(list(labels[b]))
            continue
        replaced = region
        if blending:
            blurred = blurred_mask(region)
            assert not np.any(np.abs(blurred - 0.5) < 1e-4), "a pixel at the threshold: pick other fixtures"
            replaced = blurred > 0.5
        image = np.where(replaced[..., None], images[s], images[b])
        ids = np.zeros((H, W), np.int32)
        new_labels = []
        for k, lab in enumerate(labels[b]):
            visible = (masks[b, ..., 0] == k + 1) & ~region & ~replaced
            if visible.any():
                new_labels.append(lab)
                ids[visible] = len(new_labels)
        for k in chosen:
            part = (masks[s, ..., 0] == k + 1) & region
            if part.any():
                new_labels.append(labels[s][k])
                ids[part] = len(new_labels)
        boxes = []
        for i in range(1, len(new_labels) + 1):
            ys, xs = np.nonzero(ids == i)
            boxes.append([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1])
        out_images.append(image)
        out_masks.append(ids.astype(np.uint8)[..., None])
        out_boxes.append(boxes)
        out_labels.append(new_labels)
    return np.stack(out_images), np.stack(out_masks), out_boxes, out_labels


def targets_of(masks, boxes, labels, keypoints=None):
    return tg.Targets(boxes=tf.ragged.constant(boxes, ragged_rank=1, dtype=tf.float32),
                      box_fields={"labels": tf.ragged.constant(labels, dtype=tf.int32)},
                      masks=tf.constant(masks), keypoints=keypoints)


@pytest.mark.parametrize("blending", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_matches_the_oracle_for_the_objects_it_pasted(seed, blending):
    images, masks, boxes, labels = make_batch(seed)
    out, moved = tga.CopyPaste(probability=1.0, blending=blending).apply(
        tf.constant(images), targets_of(masks, boxes, labels), seed=[seed, 5])
    got_labels = moved.box_fields["labels"].to_list()
    pasted = [[lab for lab in got_labels[b] if lab // 100 != b] for b in range(3)]
    assert all(pasted[b] for b in range(3)), "torchvision's rule pastes at least one object when there is one"
    want_images, want_masks, want_boxes, want_labels = oracle(images, masks, labels, pasted, boxes, blending)
    np.testing.assert_array_equal(out.numpy(), want_images)
    np.testing.assert_array_equal(moved.masks.numpy(), want_masks)
    assert got_labels == want_labels
    assert moved.boxes.to_list() == [[[float(v) for v in box] for box in row] for row in want_boxes]


def test_blending_smooths_the_outline_as_torchvision():
    """The replaced region of a 9x9 square: its four corners rounded off (the blurred mask is
    0.39 there), its sides kept, nothing outside it taken; a lone pixel replaces nothing."""
    from tfgpuaug.copy_paste import smoothed_paste_region
    square = np.zeros((1, 20, 20), bool)
    square[0, 5:14, 5:14] = True
    got = smoothed_paste_region(tf.constant(square)).numpy()[0]
    np.testing.assert_array_equal(got, blurred_mask(square[0]) > 0.5)
    assert not got[5, 5] and not got[13, 13] and got[5, 9] and got[9, 5] and got[6, 6]
    assert not (got & ~square[0]).any()
    lone = np.zeros((1, 9, 9), bool)
    lone[0, 4, 4] = True
    assert not smoothed_paste_region(tf.constant(lone)).numpy().any()


def test_selection_follows_torchvisions_rule():
    counts = tf.constant([4, 1, 0, 7])
    taken = np.stack([torchvision_selection(counts, 7, [s, 1]).numpy() for s in range(400)])
    for b, n in enumerate((4, 1, 0, 7)):
        assert not taken[:, b, n:].any()
        if n:
            expected = 1 - (1 - 1 / n) ** n
            assert abs(taken[:, b, :n].mean() - expected) < 0.04, (n, taken[:, b, :n].mean(), expected)
            assert taken[:, b, :n].any(axis=1).all()


def test_keypoints_on_pasted_pixels_are_dropped():
    images, masks, boxes, labels = make_batch(1)
    # one keypoint at every pixel centre of sample 0
    grid = np.stack(np.meshgrid(np.arange(W) + 0.5, np.arange(H) + 0.5), -1).reshape(-1, 2).astype(np.float32)
    keypoints = tf.RaggedTensor.from_row_lengths(np.concatenate([grid, grid[:3], grid[:3]]), [H * W, 3, 3])
    out, moved = tga.CopyPaste(probability=1.0, blending=False).apply(
        tf.constant(images), targets_of(masks, boxes, labels, keypoints), seed=[4, 4])
    changed = np.any(out.numpy()[0] != images[0], axis=-1) | (moved.masks.numpy()[0, ..., 0] > len(labels[0]))
    kept = moved.keypoints.to_list()[0]
    assert len(kept) <= H * W - changed.sum()
    assert all(not changed[int(y), int(x)] for x, y in kept)


def test_probability_zero_inference_and_no_masks_leave_everything_alone():
    images, masks, boxes, labels = make_batch(2)
    targets = targets_of(masks, boxes, labels)
    out, moved = tga.CopyPaste(probability=0.0).apply(tf.constant(images), targets, seed=[1, 1])
    np.testing.assert_array_equal(out.numpy(), images)
    np.testing.assert_array_equal(moved.masks.numpy(), masks)
    assert moved.box_fields["labels"].to_list() == labels
    out, same = tga.CopyPaste().apply(tf.constant(images), targets, training=False)
    assert same is targets and out is not None
    np.testing.assert_array_equal(tga.CopyPaste(seed=1)(tf.constant(images)).numpy(), images)


def test_refusals():
    images, masks, boxes, labels = make_batch(0)
    with pytest.raises(ValueError, match="probability"):
        tga.CopyPaste(probability=2.0)
    with pytest.raises(TypeError, match="blending"):
        tga.CopyPaste(blending="yes")
    with pytest.raises(ValueError, match="boxes"):
        tga.CopyPaste().apply(tf.constant(images), tg.Targets(masks=tf.constant(masks)))
