"""MaskDropout (issue 36; Albumentations' MaskDropout on instance-id masks): the erased pixels
are exactly those of the drawn objects (image = fill, mask = fill_mask there, unchanged
elsewhere), the number erased per sample is within max_objects (all where fewer exist), the
draw covers every object over seeds; boxes lose what the erasure hides by the pixel count of
a numpy oracle; keypoints on erased pixels go; no mask or inference: nothing changes."""
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
