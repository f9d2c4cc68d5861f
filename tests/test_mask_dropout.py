"""MaskDropout (issue 36; Albumentations' MaskDropout on instance-id masks): the erased pixels
are exactly those of the drawn objects (image = fill, mask = fill_mask there, unchanged
elsewhere), the number erased per sample is within max_objects (all where fewer exist), the
draw covers every object over seeds; boxes lose what the erasure hides by the pixel count of
a numpy oracle; keypoints on erased pixels go; no mask or inference: nothing changes. Objects
as Albumentations finds them: the MaskComponents op against a flood fill (and Albumentations'
own labelling where installed); components split a value, values do not."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug import targets as tg

H, W = 48, 64
RECTS = [(4, 4, 20, 30), (10, 34, 40, 60), (28, 2, 46, 24), (30, 40, 44, 50)]  # y1, x1, y2, x2; ids 1..4


def element(n=5, objects=4):
    images = np.stack([fixtures.photo(H, W, 3, seed=i) for i in range(n)])
    masks = np.zeros((n, H, W, 1), np.uint8)
    for i in range(n):
        for k, (y1, x1, y2, x2) in enumerate(RECTS[:objects if i else 1]):  # sample 0: one object
            masks[i, y1:y2, x1:x2] = k + 1
    boxes = [np.array([[x1, y1, x2, y2] for (y1, x1, y2, x2) in RECTS[:objects if i else 1]], np.float32)
             for i in range(n)]
    ragged = lambda rows: tf.RaggedTensor.from_row_lengths(np.concatenate(rows), [len(r) for r in rows])  # noqa: E731
    kps = ragged([np.array([[5.5, 5.5], [62.0, 2.0]], np.float32)] * n)  # inside object 1; on background
    return images, masks, tg.Targets(boxes=ragged(boxes), keypoints=kps, masks=tf.constant(masks))


@pytest.mark.parametrize("max_objects", [1, (2, 3), (4, 9)])
def test_erases_whole_objects(max_objects):
    images, masks, targets = element()
    t = tga.MaskDropout(max_objects, fill=7.0, fill_mask=0, min_box_visibility=0.5, probability=1.0)
    lo, hi = (1, max_objects) if isinstance(max_objects, int) else max_objects
    seen = set()
    for seed in range(8):
        out, moved = t.apply(tf.constant(images), targets, seed=tf.constant([seed, 1]))
        out, new_masks = out.numpy(), moved.masks.numpy()
        for i in range(len(images)):
            present = set(np.unique(masks[i])) - {0}
            erased = present - set(np.unique(new_masks[i]))
            assert min(lo, len(present)) <= len(erased) <= min(hi, len(present)), (seed, i, erased)
            gone = np.isin(masks[i, ..., 0], list(erased))
            np.testing.assert_array_equal(out[i][gone], 7)
            np.testing.assert_array_equal(out[i][~gone], images[i][~gone])
            np.testing.assert_array_equal(new_masks[i][~gone], masks[i][~gone])
            # boxes: the ones kept are those with at least half their pixels left (numpy count)
            kept = [tuple(b) for b in moved.boxes[i].numpy().tolist()]
            for k, (y1, x1, y2, x2) in enumerate(RECTS[:len(present)]):
                left = 1.0 - gone[y1:y2, x1:x2].mean()
                assert ((x1, y1, x2, y2) in kept) == (left >= 0.5), (seed, i, k, left)
            kps = moved.keypoints[i].numpy().tolist()
            assert ([5.5, 5.5] in kps) == (1 not in erased) and [62.0, 2.0] in kps
            if i:
                seen |= erased
    assert seen == {1, 2, 3, 4}


def test_probability_inference_and_no_mask():
    images, masks, targets = element()
    t = tga.MaskDropout(2, probability=0.0)
    out, moved = t.apply(tf.constant(images), targets, seed=tf.constant([1, 1]))
    np.testing.assert_array_equal(out.numpy(), images)
    np.testing.assert_array_equal(moved.masks.numpy(), masks)
    t = tga.MaskDropout(2, probability=1.0)
    out, same = t.apply(tf.constant(images), targets, training=False)
    np.testing.assert_array_equal(out.numpy(), images)
    np.testing.assert_array_equal(t(tf.constant(images), seed=tf.constant([1, 2])).numpy(), images)


@pytest.mark.parametrize("kwargs,match", [(dict(max_objects=(3, 1)), "max_objects"), (dict(fill=300.0), "fill"),
                                          (dict(min_box_visibility=2.0), "min_box_visibility"),
                                          (dict(probability=-0.1), "probability")])
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        tga.MaskDropout(**kwargs)


def flood_fill_components(mask: np.ndarray, eight: bool) -> np.ndarray:
    """Reference labels by breadth-first flood fill (another algorithm than the op's union-find):
    components of equal non-zero values, numbered in raster order of their first pixels."""
    h, w = mask.shape
    labels = np.zeros((h, w), np.int32)
    steps = [(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0) and (eight or dy * dx == 0)]
    count = 0
    for y in range(h):
        for x in range(w):
            if mask[y, x] == 0 or labels[y, x]:
                continue
            count += 1
            labels[y, x] = count
            queue = [(y, x)]
            while queue:
                cy, cx = queue.pop()
                for dy, dx in steps:
                    ny, nx = cy + dy, cx + dx
                    if 0 <= ny < h and 0 <= nx < w and not labels[ny, nx] and mask[ny, nx] == mask[y, x]:
                        labels[ny, nx] = count
                        queue.append((ny, nx))
    return labels


@pytest.mark.parametrize("connectivity", [8, 4])
def test_mask_components_equal_a_flood_fill(connectivity):
    """The MaskComponents op against the flood fill, exactly (labels and counts): random masks
    of 3 values at densities that make long, diagonal-touching and nested shapes, one empty
    mask, one full, a one-pixel-wide mask; and Albumentations' own `label` (OpenCV per value)
    partitions the same where it is installed."""
    from tfgpuaug import _loader
    rng = np.random.default_rng(connectivity)
    masks = [rng.choice(4, size=(37, 53), p=[p, (1 - p) / 3, (1 - p) / 3, (1 - p) / 3]).astype(np.uint8)
             for p in (0.3, 0.5, 0.7)]
    masks += [np.zeros((37, 53), np.uint8), np.full((37, 53), 9, np.uint8)]
    for mask in masks:
        labels, counts = _loader.ops().tf_gpu_aug_mask_components(mask[None], connectivity=connectivity)
        want = flood_fill_components(mask, connectivity == 8)
        np.testing.assert_array_equal(labels.numpy()[0], want)
        assert counts.numpy().tolist() == [want.max()]
    thin = rng.integers(0, 3, (1, 40, 1)).astype(np.uint8)
    labels, _ = _loader.ops().tf_gpu_aug_mask_components(thin, connectivity=connectivity)
    np.testing.assert_array_equal(labels.numpy()[0], flood_fill_components(thin[0], connectivity == 8))
    try:
        from albumentations.augmentations.dropout.functional import label
    except ImportError:
        return
    for mask in masks:
        theirs = label(mask, connectivity=2 if connectivity == 8 else 1)
        ours = flood_fill_components(mask, connectivity == 8)
        pairs = set(zip(ours.ravel().tolist(), theirs.ravel().tolist()))
        assert len(pairs) == len(set(ours.ravel().tolist())) == len(set(theirs.ravel().tolist()))


def test_components_split_a_value_values_do_not():
    """A semantic mask with class 1 in two separate blobs and class 2 in one: with
    objects="components" (Albumentations) and max_objects=1 one blob goes at a time, each of the
    three over the seeds; with objects="values" class 1's blobs go together."""
    images = np.stack([fixtures.photo(H, W, 3, seed=i) for i in range(4)])
    masks = np.zeros((4, H, W, 1), np.uint8)
    masks[:, 2:12, 2:12] = 1
    masks[:, 30:40, 40:60] = 1
    masks[:, 20:26, 20:30] = 2
    blobs = [np.pad(np.ones((10, 10), bool), [(2, 36), (2, 52)]),
             np.pad(np.ones((10, 20), bool), [(30, 8), (40, 4)]), masks[0, ..., 0] == 2]
    targets = tg.Targets(masks=tf.constant(masks))
    seen = set()
    for seed in range(10):
        out, moved = tga.MaskDropout(1, probability=1.0).apply(tf.constant(images), targets, seed=[seed, 3])
        for i in range(4):
            gone = (moved.masks.numpy()[i, ..., 0] == 0) & (masks[i, ..., 0] != 0)
            erased = [k for k, blob in enumerate(blobs) if gone[blob].all()]
            assert len(erased) == 1 and gone.sum() == blobs[erased[0]].sum(), (seed, i)
            np.testing.assert_array_equal(out.numpy()[i][gone], 0)
            seen.add(erased[0])
        out, moved = tga.MaskDropout(1, probability=1.0, objects="values").apply(tf.constant(images), targets,
                                                                                   seed=[seed, 3])
        for i in range(4):
            gone = (moved.masks.numpy()[i, ..., 0] == 0) & (masks[i, ..., 0] != 0)
            assert gone[blobs[0]].all() == gone[blobs[1]].all() and gone[blobs[0]].any() != gone[blobs[2]].any()
    assert seen == {0, 1, 2}


def test_objects_refusals():
    images, masks, targets = element()
    with pytest.raises(ValueError, match="objects"):
        tga.MaskDropout(objects="blobs")
    wide = tg.Targets(masks=tf.constant(masks.astype(np.int32)))
    with pytest.raises(ValueError, match="uint8"):
        tga.MaskDropout(probability=1.0).apply(tf.constant(images), wide, seed=[1, 1])
    out, _ = tga.MaskDropout(probability=1.0, objects="values").apply(tf.constant(images), wide, seed=[1, 1])
    assert out.shape == images.shape
