"""Bounding boxes: Keras 3's formats, conversion, clipping, area, IoU and padding.

Boxes are float tensors whose last axis has 4 values: `[N, 4]`, a dense batch `[B, N, 4]` or a
ragged batch `[B, (N), 4]`. Formats use Keras 3's names (`keras.utils.bounding_boxes`):

    xyxy         [left, top, right, bottom]          pixels
    yxyx         [top, left, bottom, right]          pixels (TF Model Garden, tf.image)
    xywh         [left, top, width, height]          pixels (COCO)
    center_xywh  [center_x, center_y, width, height] pixels (YOLO, in pixels)
    center_yxhw  [center_y, center_x, height, width] pixels
    rel_xyxy, rel_yxyx, rel_xywh, rel_center_xywh    the same as fractions of the image size

Pixel coordinates are continuous, pixel k covering [k, k + 1): a box around a whole
`H x W` image is `[0, 0, W, H]` in xyxy. Relative formats need the image `height` and
`width` (scalars, or one per image of a batch). Padded batches mark empty slots with -1
(labels -1), as Keras 3's `MaxNumBoundingBoxes` does.
"""
from __future__ import annotations

from typing import Optional, Tuple, Union

import tensorflow as tf

__all__ = ["FORMATS", "convert_format", "clip_to_image", "area", "iou", "pad", "unpad", "sanitize"]

FORMATS = ("xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw",
           "rel_xyxy", "rel_yxyx", "rel_xywh", "rel_center_xywh")

Boxes = Union[tf.Tensor, tf.RaggedTensor]
Dim = Union[int, float, tf.Tensor, None]


def check_format(name: str, argument: str = "format") -> str:
    if name not in FORMATS:
        raise ValueError(f"{argument} must be one of {', '.join(FORMATS)}; got {name!r}")
    return name


def _check_boxes(boxes: Boxes) -> Boxes:
    if not isinstance(boxes, tf.RaggedTensor):
        boxes = tf.convert_to_tensor(boxes)
    if boxes.shape.rank is not None and boxes.shape.rank not in (2, 3):
        raise ValueError(f"boxes must be [N, 4], [B, N, 4] or ragged [B, None, 4], got shape {boxes.shape}")
    if boxes.shape[-1] is not None and boxes.shape[-1] != 4:
        raise ValueError(f"boxes need 4 values on the last axis, got shape {boxes.shape}")
    if not boxes.dtype.is_floating:
        boxes = tf.cast(boxes, tf.float32)
    return boxes


def _apply(boxes: Boxes, fn, *per_image: Dim) -> Boxes:
    """fn(values [..., 4], *per-box dims) over a dense or ragged batch; per-image dims are
    scalars or one per image (broadcast to each image's boxes)."""
    if isinstance(boxes, tf.RaggedTensor):
        rows = boxes.value_rowids() if boxes.ragged_rank == 1 else None
        if rows is None:
            raise ValueError("ragged boxes must be [B, (N), 4]")
        dims = [None if d is None else _per_row(d, rows, boxes.flat_values.dtype) for d in per_image]
        return boxes.with_flat_values(fn(boxes.flat_values, *dims))
    dims = []
    for d in per_image:
        if d is None:
            dims.append(None)
            continue
        d = tf.cast(d, boxes.dtype)
        if d.shape.rank == 1 and boxes.shape.rank == 3:
            d = d[:, tf.newaxis]  # one per image of [B, N, 4]
        dims.append(d)
    return fn(boxes, *dims)


def _per_row(d, rows, dtype) -> tf.Tensor:
    d = tf.cast(d, dtype)
    return tf.gather(d, rows) if d.shape.rank == 1 else d


def _to_xyxy(v: tf.Tensor, source: str, height, width) -> tf.Tensor:
    a, b, c, d = tf.unstack(v, axis=-1)
    base = source[4:] if source.startswith("rel_") else source
    if base == "xyxy":
        x0, y0, x1, y1 = a, b, c, d
    elif base == "yxyx":
        y0, x0, y1, x1 = a, b, c, d
    elif base == "xywh":
        x0, y0, x1, y1 = a, b, a + c, b + d
    elif base == "center_xywh":
        x0, y0, x1, y1 = a - c / 2, b - d / 2, a + c / 2, b + d / 2
    else:  # center_yxhw
        x0, y0, x1, y1 = b - d / 2, a - c / 2, b + d / 2, a + c / 2
    if source.startswith("rel_"):
        x0, x1, y0, y1 = x0 * width, x1 * width, y0 * height, y1 * height
    return tf.stack([x0, y0, x1, y1], axis=-1)


def _from_xyxy(v: tf.Tensor, target: str, height, width) -> tf.Tensor:
    x0, y0, x1, y1 = tf.unstack(v, axis=-1)
    if target.startswith("rel_"):
        x0, x1, y0, y1 = x0 / width, x1 / width, y0 / height, y1 / height
    base = target[4:] if target.startswith("rel_") else target
    if base == "xyxy":
        out = [x0, y0, x1, y1]
    elif base == "yxyx":
        out = [y0, x0, y1, x1]
    elif base == "xywh":
        out = [x0, y0, x1 - x0, y1 - y0]
    elif base == "center_xywh":
        out = [(x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0]
    else:  # center_yxhw
        out = [(y0 + y1) / 2, (x0 + x1) / 2, y1 - y0, x1 - x0]
    return tf.stack(out, axis=-1)


def convert_format(boxes: Boxes, source: str, target: str, height: Dim = None,
                   width: Dim = None) -> Boxes:
    """Converts boxes between formats; `height`/`width` (scalars or one per image) are needed
    when either format is relative. Padding slots (-1) are converted like any box: pad after
    converting, or use `unpad` first."""
    check_format(source, "source")
    check_format(target, "target")
    boxes = _check_boxes(boxes)
    if source == target:
        return boxes
    if (source.startswith("rel_") or target.startswith("rel_")) and (height is None or width is None):
        raise ValueError(f"converting {source} to {target} needs the image height and width")

    def fn(v, h, w):
        return _from_xyxy(_to_xyxy(v, source, h, w), target, h, w)
    return _apply(boxes, fn, height, width)


def clip_to_image(boxes: Boxes, height: Dim, width: Dim, format: str = "xyxy") -> Boxes:
    """Clips boxes to the image `[0, width] x [0, height]` (in any format)."""
    check_format(format)
    xyxy = convert_format(boxes, format, "xyxy", height, width)

    def clip(v, h, w):
        x0, y0, x1, y1 = tf.unstack(v, axis=-1)
        cx = lambda t: tf.clip_by_value(t, 0.0, w)  # noqa: E731
        cy = lambda t: tf.clip_by_value(t, 0.0, h)  # noqa: E731
        return tf.stack([cx(x0), cy(y0), cx(x1), cy(y1)], axis=-1)
    return convert_format(_apply(xyxy, clip, height, width), "xyxy", format, height, width)


def area(boxes: Boxes, format: str = "xyxy", height: Dim = None, width: Dim = None) -> Boxes:
    """Box areas (0 for degenerate boxes), in pixels; relative formats need height and width."""
    check_format(format)
    xyxy = convert_format(boxes, format, "xyxy", height, width)

    def fn(v, *_):
        x0, y0, x1, y1 = tf.unstack(v, axis=-1)
        return tf.maximum(x1 - x0, 0.0) * tf.maximum(y1 - y0, 0.0)
    if isinstance(xyxy, tf.RaggedTensor):
        return xyxy.with_flat_values(fn(xyxy.flat_values))
    return fn(xyxy)


def iou(boxes_a: tf.Tensor, boxes_b: tf.Tensor, format: str = "xyxy") -> tf.Tensor:
    """Pairwise intersection over union: `[N, 4] x [M, 4] -> [N, M]`, or batched
    `[B, N, 4] x [B, M, 4] -> [B, N, M]` (dense). 0 where the union is empty."""
    check_format(format)
    if format.startswith("rel_"):
        format = format[4:]  # IoU is scale-free: relative boxes convert as unit-size images
    a = convert_format(tf.convert_to_tensor(boxes_a), format, "xyxy")
    b = convert_format(tf.convert_to_tensor(boxes_b), format, "xyxy")
    ax0, ay0, ax1, ay1 = [t[..., :, tf.newaxis] for t in tf.unstack(a, axis=-1)]
    bx0, by0, bx1, by1 = [t[..., tf.newaxis, :] for t in tf.unstack(b, axis=-1)]
    inter = (tf.maximum(tf.minimum(ax1, bx1) - tf.maximum(ax0, bx0), 0.0) *
             tf.maximum(tf.minimum(ay1, by1) - tf.maximum(ay0, by0), 0.0))
    union = area(a)[..., :, tf.newaxis] + area(b)[..., tf.newaxis, :] - inter
    return tf.math.divide_no_nan(inter, union)


def pad(boxes: tf.RaggedTensor, labels: Optional[tf.RaggedTensor], max_boxes: int
        ) -> Tuple[tf.Tensor, Optional[tf.Tensor]]:
    """Ragged `[B, (N), 4]` boxes (and `[B, (N)]` labels) to dense `[B, max_boxes, 4]`
    padded with -1 (labels -1). Images with more boxes keep their first `max_boxes`."""
    if max_boxes <= 0:
        raise ValueError(f"max_boxes must be positive, got {max_boxes}")
    if not isinstance(boxes, tf.RaggedTensor):
        boxes = tf.RaggedTensor.from_tensor(tf.convert_to_tensor(boxes))
    n = boxes.nrows()
    dense = boxes[:, :max_boxes].to_tensor(default_value=-1.0, shape=[n, max_boxes, 4])
    if labels is None:
        return dense, None
    if not isinstance(labels, tf.RaggedTensor):
        labels = tf.RaggedTensor.from_tensor(tf.convert_to_tensor(labels))
    return dense, labels[:, :max_boxes].to_tensor(default_value=tf.cast(-1, labels.dtype), shape=[n, max_boxes])


def unpad(boxes: tf.Tensor, labels: Optional[tf.Tensor] = None
          ) -> Tuple[tf.RaggedTensor, Optional[tf.RaggedTensor]]:
    """Dense padded boxes `[B, N, 4]` (and labels `[B, N]`) to ragged, dropping padding
    slots: label -1 when labels are given, else boxes whose 4 values are all -1."""
    boxes = tf.convert_to_tensor(boxes)
    if boxes.shape.rank != 3:
        raise ValueError(f"padded boxes must be [B, N, 4], got shape {boxes.shape}")
    if labels is not None:
        labels = tf.convert_to_tensor(labels)
        keep = tf.not_equal(labels, tf.cast(-1, labels.dtype))
    else:
        keep = tf.logical_not(tf.reduce_all(tf.equal(boxes, -1.0), axis=-1))
    ragged = tf.ragged.boolean_mask(boxes, keep)
    return ragged, (None if labels is None else tf.ragged.boolean_mask(labels, keep))


def sanitize(boxes: Boxes, labels: Optional[Boxes] = None, height: Dim = None, width: Dim = None,
             format: str = "xyxy", min_size: float = 1.0) -> Tuple[Boxes, Optional[Boxes]]:
    """torchvision's SanitizeBoundingBoxes, usable alone: clips boxes to the image (when
    `height` and `width` are given) and drops those narrower or lower than `min_size` pixels
    (degenerate, inverted or non-finite ones included), with their labels.

    Args:
      boxes: `[N, 4]` (one image) or ragged `[B, (N), 4]`, in `format`.
      labels: `[N]` or ragged `[B, (N)]`, or None.
      height: the image height (a scalar or one per image), or None: no clipping.
      width: the image width, as `height`.
      format: the boxes' format (Keras 3's names).
      min_size: the smallest width and height kept, in pixels (relative formats: after
        conversion with `height` and `width`).

    Returns:
      `(boxes, labels)` of the kept boxes, in the input's format and layout.
    """
    check_format(format)
    boxes = _check_boxes(boxes)
    if not min_size >= 0.0:
        raise ValueError(f"min_size must be >= 0, got {min_size}")
    if not isinstance(boxes, tf.RaggedTensor) and boxes.shape.rank != 2:
        raise ValueError(f"sanitize takes [N, 4] boxes or ragged [B, (N), 4], got shape {boxes.shape}; unpad a "
                         "padded batch first (tfgpuaug.boxes.unpad)")
    if (height is None) != (width is None):
        raise ValueError("give both height and width (to clip), or neither")
    if format.startswith("rel_") and height is None:
        raise ValueError(f"{format} boxes need height and width")
    xyxy = convert_format(boxes, format, "xyxy", height, width)
    if height is not None:
        xyxy = clip_to_image(xyxy, height, width)
    values = xyxy.flat_values if isinstance(xyxy, tf.RaggedTensor) else xyxy
    x0, y0, x1, y1 = tf.unstack(values, axis=-1)
    keep = (x1 - x0 >= min_size) & (y1 - y0 >= min_size) & tf.reduce_all(tf.math.is_finite(values), axis=-1)
    out = convert_format(xyxy, "xyxy", format, height, width)
    if isinstance(out, tf.RaggedTensor):
        keep = tf.RaggedTensor.from_row_splits(keep, out.row_splits)
        kept = tf.ragged.boolean_mask(out, keep)
        if labels is None:
            return kept, None
        if not isinstance(labels, tf.RaggedTensor):
            raise ValueError("ragged boxes take ragged labels [B, (N)]")
        return kept, tf.ragged.boolean_mask(labels, keep)
    kept = tf.boolean_mask(out, keep)
    return kept, (None if labels is None else tf.boolean_mask(tf.convert_to_tensor(labels), keep))
