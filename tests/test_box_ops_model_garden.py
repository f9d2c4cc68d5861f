"""tga.boxes against TF Model Garden's `official.vision.ops.box_ops` on the same boxes (issue
#20): IoU, clipping, format conversions, normalization and the horizontal flip of a pipeline.
Model Garden is a benchmark anchor, not a test dependency: these tests run where
tf-models-official is installed (the development machine) and skip elsewhere (CI)."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import boxes as bx

box_ops = pytest.importorskip("official.vision.ops.box_ops")

H, W = 120.0, 200.0


def close(a, b, atol):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), atol=atol)


def random_yxyx(n: int, seed: int, spill: float = 0.0) -> np.ndarray:
    """Valid yxyx pixel boxes; `spill` lets them leave the image by that fraction."""
    rng = np.random.default_rng(seed)
    y0 = rng.uniform(-spill * H, H * 0.8, n)
    x0 = rng.uniform(-spill * W, W * 0.8, n)
    return np.stack([y0, x0, y0 + rng.uniform(1, H * 0.6, n), x0 + rng.uniform(1, W * 0.6, n)], 1).astype(np.float32)


def test_iou_equals_bbox_overlap():
    a, b = random_yxyx(30, 1), random_yxyx(20, 2)
    ours = np.asarray(bx.iou(a, b, format="yxyx"))
    close(ours, box_ops.bbox_overlap(a[None], b[None])[0], atol=1e-6)
    assert (ours > 0).mean() > 0.1  # overlapping pairs were compared


def test_clip_equals_clip_boxes():
    b = random_yxyx(50, 3, spill=0.5)
    close(bx.clip_to_image(b, H, W, format="yxyx"),
                               box_ops.clip_boxes(b, [H, W]), atol=1e-5)


def test_conversions_equal_box_ops():
    b = random_yxyx(40, 4)
    close(bx.convert_format(b, "yxyx", "xywh"), box_ops.yxyx_to_xywh(b),
                               atol=1e-4)
    close(bx.convert_format(b, "yxyx", "center_yxhw"),
                               box_ops.yxyx_to_cycxhw(b), atol=1e-4)
    centre = np.asarray(box_ops.yxyx_to_cycxhw(b))
    close(bx.convert_format(centre, "center_yxhw", "yxyx"),
                               box_ops.cycxhw_to_yxyx(centre), atol=1e-4)
    close(bx.convert_format(b, "yxyx", "rel_yxyx", H, W),
                               box_ops.normalize_boxes(b, [H, W]), atol=1e-6)
    rel = np.asarray(box_ops.normalize_boxes(b, [H, W]))
    close(bx.convert_format(rel, "rel_yxyx", "yxyx", H, W),
                               box_ops.denormalize_boxes(rel, [H, W]), atol=1e-4)


def test_pipeline_flip_equals_horizontal_flip_boxes():
    b = np.asarray(box_ops.clip_boxes(random_yxyx(6, 5), [H, W]))  # inside: the pipeline clips, box_ops does not
    rel = np.asarray(box_ops.normalize_boxes(b, [H, W]))
    element = {"images": tf.zeros([1, int(H), int(W), 3], tf.uint8),
               "bounding_boxes": {"boxes": tf.ragged.constant([rel.tolist()], ragged_rank=1, dtype=tf.float32),
                                  "labels": tf.ragged.constant([list(range(6))], dtype=tf.int32)}}
    ds = tf.data.Dataset.from_tensors(element).apply(tga.gpu_augment(
        [tga.RandomFlip(1.0)], seed=1, device="/cpu:0", bounding_box_format="rel_yxyx"))
    ours = next(iter(ds))["bounding_boxes"]["boxes"][0].numpy()
    close(ours, box_ops.horizontal_flip_boxes(rel), atol=1e-6)
