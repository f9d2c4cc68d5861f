"""What travels with a batch of images through geometric transforms: bounding boxes (with
their labels and other per-box fields), segmentation masks and keypoints.

Inside the pipeline boxes are ragged `[B, (N), 4]` float32 `xyxy` in pixels of the current
images (continuous coordinates, pixel k covering [k, k + 1)), keypoints `[B, (K), 2]` `xy`
pixels, masks images of the same size as the images (dense or ragged uint8, or encoded
PNG/JPEG bytes until the first decoding transform). A geometric transform maps them with the
per-image affine map it applied to the pixels (`Targets.affine`): boxes become the enclosing
box of their moved corners (as Keras 3 and TF Model Garden do), are clipped to the new image
and dropped with their fields when too little of them is left (`BoxFilter`).
"""
from __future__ import annotations

import dataclasses
from typing import Dict, Optional

import tensorflow as tf

from tfgpuaug import _loader

Ragged = tf.RaggedTensor


@dataclasses.dataclass(frozen=True)
class BoxFilter:
    """Which boxes survive a transform: a clipped box is kept when its area is more than
    `min_area` pixels and at least `min_visibility` of its area before clipping."""

    min_area: float = 0.0
    min_visibility: float = 0.0

    def __post_init__(self):
        if self.min_area < 0 or not 0.0 <= self.min_visibility <= 1.0:
            raise ValueError(f"need min_area >= 0 and 0 <= min_visibility <= 1, got {self}")


@dataclasses.dataclass
class Targets:
    boxes: Optional[Ragged] = None                     # [B, (N), 4] xyxy pixels
    box_fields: Dict[str, Ragged] = dataclasses.field(default_factory=dict)  # labels, ...: [B, (N), ...]
    masks: Optional[tf.Tensor] = None                  # images: dense/ragged uint8 or encoded bytes
    keypoints: Optional[Ragged] = None                 # [B, (K), 2] xy pixels
    sizes: Optional[tf.Tensor] = None                  # [B, 2] (h, w) after the last geometric transform
    box_filter: BoxFilter = dataclasses.field(default_factory=BoxFilter)

    @property
    def moves(self) -> bool:
        """Whether anything here must follow the pixels."""
        return self.boxes is not None or self.masks is not None or self.keypoints is not None

    def replace(self, **changes) -> "Targets":
        return dataclasses.replace(self, **changes)

    def take(self, indices: tf.Tensor) -> "Targets":
        """The annotations of images `indices` (a gather over the batch)."""
        gather = lambda v: None if v is None else tf.gather(v, indices)  # noqa: E731
        return self.replace(boxes=gather(self.boxes), box_fields={k: gather(v) for k, v in self.box_fields.items()},
                            masks=gather(self.masks), keypoints=gather(self.keypoints), sizes=gather(self.sizes))

    @staticmethod
    def concat(parts: list, masks, box_filter: "BoxFilter") -> "Targets":
        """Per image, the boxes (fields, keypoints) of every part one after another."""
        first = parts[0]
        cat = lambda vs: None if vs[0] is None else tf.concat(vs, axis=1)  # noqa: E731
        return Targets(boxes=cat([p.boxes for p in parts]),
                       box_fields={k: cat([p.box_fields[k] for p in parts]) for k in first.box_fields},
                       masks=masks, keypoints=cat([p.keypoints for p in parts]), sizes=first.sizes,
                       box_filter=box_filter)

    def keep_boxes(self, keep: Ragged) -> "Targets":
        """Only the boxes (and their fields) where `keep` [B, (N)] bool is set."""
        return self.replace(boxes=tf.ragged.boolean_mask(self.boxes, keep),
                            box_fields={k: tf.ragged.boolean_mask(v, keep) for k, v in self.box_fields.items()})

    def affine(self, matrices: tf.Tensor, out_hw: tf.Tensor) -> "Targets":
        """Maps boxes and keypoints by per-image affine maps `[B, 2, 3]` (output xy = M @
        [x, y, 1], continuous pixels) or homographies `[B, 3, 3]` (divided by the third
        row), then clips and filters boxes to the output images of sizes `out_hw` `[B, 2]`
        (or `[2]` for all); a box becomes the enclosing box of its moved corners. Masks are
        the transform's business."""
        matrices = tf.cast(matrices, tf.float32)
        out_hw = tf.cast(out_hw, tf.float32)
        if out_hw.shape.rank == 1:
            out_hw = tf.tile(out_hw[tf.newaxis], [tf.shape(matrices)[0], 1])
        keypoints = self.keypoints
        if keypoints is not None:
            keypoints = keypoints.with_flat_values(
                _map_points(keypoints.flat_values, tf.gather(matrices, keypoints.value_rowids())))
        if self.boxes is None:
            return self.replace(keypoints=keypoints, sizes=out_hw)
        f = self.box_filter
        splits = self.boxes.row_splits
        moved, moved_splits, kept = _loader.ops().tf_gpu_aug_move_boxes(
            self.boxes.flat_values, tf.cast(splits, tf.int64), matrices, out_hw,
            min_area=float(f.min_area), min_visibility=float(f.min_visibility))
        moved_splits = tf.cast(moved_splits, splits.dtype)
        boxes = tf.RaggedTensor.from_row_splits(moved, moved_splits, validate=False)
        return self.replace(boxes=boxes, box_fields={k: _take_rows(v, kept, moved_splits)
                                                     for k, v in self.box_fields.items()},
                            keypoints=keypoints, sizes=out_hw)


def _take_rows(field: Ragged, kept: tf.Tensor, splits: tf.Tensor) -> Ragged:
    """A per-box field `[B, (N), ...]` at the kept boxes' rows (MoveBoxes' `kept`), split as the
    kept boxes are."""
    if field.ragged_rank == 1:
        return tf.RaggedTensor.from_row_splits(tf.gather(field.values, kept), splits, validate=False)
    rows = tf.cast(field.row_splits[-1:], tf.int64)
    keep = tf.scatter_nd(kept[:, tf.newaxis], tf.ones_like(kept, tf.bool), rows)
    return tf.ragged.boolean_mask(field, tf.RaggedTensor.from_row_splits(keep, field.row_splits, validate=False))


def _map_points(points: tf.Tensor, m: tf.Tensor) -> tf.Tensor:
    """xy points [..., 2] through affine matrices broadcastable to [..., 2, 3], or
    homographies [..., 3, 3]."""
    x, y = points[..., 0], points[..., 1]
    u = m[..., 0, 0] * x + m[..., 0, 1] * y + m[..., 0, 2]
    v = m[..., 1, 0] * x + m[..., 1, 1] * y + m[..., 1, 2]
    if m.shape[-2] == 3:
        w = m[..., 2, 0] * x + m[..., 2, 1] * y + m[..., 2, 2]
        u, v = u / w, v / w
    return tf.stack([u, v], axis=-1)


def crop_resize_matrices(boxes_yxhw: tf.Tensor, out_h, out_w) -> tf.Tensor:
    """The maps of resizing each image's box `[y, x, h, w]` (input pixels) to `out_h x out_w`."""
    b = tf.cast(boxes_yxhw, tf.float32)
    sy, sx = tf.cast(out_h, tf.float32) / b[:, 2], tf.cast(out_w, tf.float32) / b[:, 3]
    zero = tf.zeros_like(sx)
    return tf.stack([tf.stack([sx, zero, -b[:, 1] * sx], -1),
                     tf.stack([zero, sy, -b[:, 0] * sy], -1)], axis=1)


def flip_matrices(horizontal: Optional[tf.Tensor], vertical: Optional[tf.Tensor], hw: tf.Tensor,
                  n) -> tf.Tensor:
    """The maps of flipping images of sizes `hw` [B, 2] where the [B] flags are set."""
    hw = tf.cast(hw, tf.float32)
    ones = tf.ones([n], tf.float32)
    fx = ones if horizontal is None else tf.where(horizontal, -1.0, 1.0)
    fy = ones if vertical is None else tf.where(vertical, -1.0, 1.0)
    tx = (1.0 - fx) / 2.0 * hw[:, 1]  # x -> w - x where flipped
    ty = (1.0 - fy) / 2.0 * hw[:, 0]
    zero = tf.zeros([n], tf.float32)
    return tf.stack([tf.stack([fx, zero, tx], -1), tf.stack([zero, fy, ty], -1)], axis=1)


def compose(second: tf.Tensor, first: tf.Tensor) -> tf.Tensor:
    """second after first, for [B, 2, 3] affine maps."""
    bottom = tf.broadcast_to(tf.constant([[0.0, 0.0, 1.0]]), [tf.shape(first)[0], 1, 3])
    return tf.matmul(second, tf.concat([first, bottom], axis=1))


def image_sizes(images) -> tf.Tensor:
    """[B, 2] (height, width) of a dense or ragged batch of decoded images."""
    if isinstance(images, tf.RaggedTensor):
        from tfgpuaug.geometry import _image_dims
        return tf.cast(_image_dims(images), tf.float32)
    shape = tf.shape(images)
    return tf.cast(tf.tile(shape[tf.newaxis, 1:3], [shape[0], 1]), tf.float32)
