"""tfgpuaug.boxes.sanitize (issue 36; torchvision's SanitizeBoundingBoxes), usable alone."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga


def test_sanitize_clips_and_drops_degenerate_boxes_with_their_labels():
    """tfgpuaug.boxes.sanitize (torchvision's SanitizeBoundingBoxes) against a numpy loop: clip
    to the image, keep boxes at least min_size wide and high (finite), labels follow; ragged
    batches and other formats."""
    boxes = np.array([[5, 5, 20, 20], [-10, 3, 4, 9], [30, 30, 30.5, 40], [10, 10, 5, 20],
                      [0, 0, np.nan, 3], [40, 40, 70, 70], [-5, -5, 0.5, 60]], np.float32)
    labels = np.arange(7)

    def reference(b, lab, h, w, min_size):
        c = b.copy()
        c[:, 0::2] = np.clip(c[:, 0::2], 0, w)
        c[:, 1::2] = np.clip(c[:, 1::2], 0, h)
        with np.errstate(invalid="ignore"):
            k = (c[:, 2] - c[:, 0] >= min_size) & (c[:, 3] - c[:, 1] >= min_size) & np.isfinite(c).all(1)
        return c[k], lab[k]
    for min_size in (1.0, 5.0):
        got, got_labels = tga.boxes.sanitize(boxes, labels, 50, 64, min_size=min_size)
        want, want_labels = reference(boxes, labels, 50, 64, min_size)
        np.testing.assert_allclose(got.numpy(), want)
        np.testing.assert_array_equal(got_labels.numpy(), want_labels)
    assert list(tga.boxes.sanitize(boxes, labels, 50, 64)[1].numpy()) == [0, 1, 5]
    # no clipping without a size: the box poking out keeps its extent
    assert tga.boxes.sanitize(boxes[:2], None)[0].shape[0] == 2
    ragged = tf.ragged.constant([boxes[:3].tolist(), boxes[3:].tolist()], ragged_rank=1)
    rl = tf.ragged.constant([[0, 1, 2], [3, 4, 5, 6]])
    got, got_labels = tga.boxes.sanitize(ragged, rl, [50, 45], [64, 64])  # one size per image
    assert got_labels.to_list() == [[0, 1], [5]]
    np.testing.assert_allclose(got[1].numpy(), [[40, 40, 64, 45]])
    xywh = tga.boxes.convert_format(boxes, "xyxy", "xywh")
    got, got_labels = tga.boxes.sanitize(xywh, labels, 50, 64, format="xywh")
    assert list(got_labels.numpy()) == [0, 1, 5]
    np.testing.assert_allclose(got.numpy(), tga.boxes.convert_format(reference(boxes, labels, 50, 64, 1.0)[0],
                                                                     "xyxy", "xywh").numpy())
    with pytest.raises(ValueError, match="both height and width"):
        tga.boxes.sanitize(boxes, labels, 50)
