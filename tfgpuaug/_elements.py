"""How a batch element holds its images and annotations, for `gpu_augment`.

Tuples and lists: images first, the rest passes through. Dicts: images under `images` (or
`image`); Keras 3's detection layout adds `bounding_boxes` (`{"boxes": [B, N, 4] or ragged,
"labels": [B, N] or ragged, other per-box fields}`), `segmentation_masks` (images of the
same size: dense, ragged or encoded) and `keypoints` (`[B, K, 2]` xy pixels, dense or
ragged); these follow every geometric transform. Other keys pass through.
"""
from __future__ import annotations

from typing import Callable, Optional, Tuple

import tensorflow as tf

from tfgpuaug import boxes as bx
from tfgpuaug import targets as tg

IMAGE_KEYS = ("image", "images")
BOXES, MASKS, KEYPOINTS = "bounding_boxes", "segmentation_masks", "keypoints"


class Layout:
    """Splits elements into (images, targets) and rebuilds them in the input's formats."""

    def __init__(self, bounding_box_format: str = "xyxy", max_boxes: Optional[int] = None,
                 box_filter: tg.BoxFilter = tg.BoxFilter()):
        bx.check_format(bounding_box_format, "bounding_box_format")
        if max_boxes is not None and max_boxes <= 0:
            raise ValueError(f"max_boxes must be positive, got {max_boxes}")
        self.format, self.max_boxes, self.box_filter = bounding_box_format, max_boxes, box_filter

    @staticmethod
    def has_targets(element_spec) -> bool:
        return isinstance(element_spec, dict) and any(k in element_spec for k in (BOXES, MASKS, KEYPOINTS))

    def split(self, element) -> Tuple[object, Optional[tg.Targets], Callable]:
        """(images, targets or None, rebuild(images, targets) -> element)."""
        if isinstance(element, dict):
            key = next((k for k in IMAGE_KEYS if k in element), None)
            if key is None:
                raise ValueError(f"dict elements need an 'image' or 'images' key, got {sorted(element)}")
            images = element[key]
            if not self.has_targets(element):
                return images, None, lambda out, _: {**element, key: out}
            targets, rebuild_targets = self._targets(element, images)
            return images, targets, lambda out, t: {**element, key: out, **rebuild_targets(t, out)}
        if isinstance(element, (tuple, list)):
            return element[0], None, lambda out, _: (out, *element[1:])
        return element, None, lambda out, _: out

    @staticmethod
    def split_images(element) -> Tuple[object, Callable]:
        """(images, rebuild(images) -> element) with every other component, annotations
        included, passing through: for a GPU-placed stage's device part, which runs only
        transforms that leave the annotations as they are."""
        if isinstance(element, dict) and Layout.has_targets(element):
            key = next((k for k in IMAGE_KEYS if k in element), None)
            if key is None:
                raise ValueError(f"dict elements need an 'image' or 'images' key, got {sorted(element)}")
            return element[key], lambda out: {**element, key: out}
        images, _, rebuild = Layout().split(element)
        return images, lambda out: rebuild(out, None)

    def _targets(self, element, images):
        dims = _LazyDims(images)
        boxes, fields, dense_boxes, boxes_in = None, {}, False, None
        if BOXES in element:
            b = element[BOXES]
            if not isinstance(b, dict) or "boxes" not in b:
                raise ValueError(f"'{BOXES}' must be a dict with 'boxes' (and 'labels'), got {type(b).__name__}")
            boxes = b["boxes"]
            fields = {k: v for k, v in b.items() if k != "boxes"}
            dense_boxes = not isinstance(boxes, tf.RaggedTensor)
            if dense_boxes:
                boxes = tf.convert_to_tensor(boxes)
                if boxes.shape.rank != 3 or boxes.shape[-1] not in (None, 4):
                    raise ValueError(f"boxes must be [B, N, 4] or ragged [B, None, 4], got {boxes.shape}")
                labels = fields.get("labels")
                keep = (tf.not_equal(labels, tf.cast(-1, labels.dtype)) if labels is not None
                        else tf.logical_not(tf.reduce_all(tf.equal(boxes, -1.0), axis=-1)))
                boxes = tf.ragged.boolean_mask(boxes, keep)
                fields = {k: tf.ragged.boolean_mask(tf.convert_to_tensor(v), keep) for k, v in fields.items()}
            boxes = tf.cast(boxes, tf.float32)
            if self.format.startswith("rel_"):  # pixel boxes read as fractions would all be dropped
                values = boxes.flat_values if isinstance(boxes, tf.RaggedTensor) else boxes
                biggest = tf.reduce_max(tf.concat([tf.reshape(values, [-1]), [0.0]], 0))
                with tf.control_dependencies([tf.debugging.assert_less_equal(
                        biggest, 1.5, message=f"bounding_box_format {self.format} means coordinates in [0, 1] "
                        f"of the image, and these boxes go beyond 1.5: boxes in pixels need format "
                        f"{self.format[4:]}. Largest coordinate")]):
                    boxes = tf.identity(boxes)
            boxes = bx.convert_format(boxes, self.format, "xyxy", *dims.hw_if(self.format))
            boxes_in = tf.shape(boxes.flat_values)[0]
        keypoints, dense_keypoints = element.get(KEYPOINTS), False
        if keypoints is not None:
            dense_keypoints = not isinstance(keypoints, tf.RaggedTensor)
            if dense_keypoints:
                keypoints = tf.RaggedTensor.from_tensor(tf.cast(keypoints, tf.float32))
            if keypoints.shape[-1] not in (None, 2):
                raise ValueError(f"keypoints must be [B, K, 2] (x, y), got {keypoints.shape}")
        targets = tg.Targets(boxes=boxes, box_fields=fields, masks=element.get(MASKS), keypoints=keypoints,
                             box_filter=self.box_filter)

        def rebuild(t: tg.Targets, out_images):
            out = {}
            if t.masks is not None:
                out[MASKS] = t.masks
            if t.keypoints is not None:
                out[KEYPOINTS] = t.keypoints.to_tensor() if dense_keypoints else t.keypoints
            if t.boxes is None:
                return out
            hw = t.sizes if t.sizes is not None else dims.hw()
            result = bx.convert_format(t.boxes, "xyxy", self.format, hw[:, 0], hw[:, 1])
            result = self._warn_all_dropped(result, boxes_in)
            fields_out = dict(t.box_fields)
            if self.max_boxes is not None:
                most = tf.reduce_max(tf.concat([result.row_lengths(), [0]], 0))
                result, _ = bx.pad(result, None, self.max_boxes)
                result = self._warn_truncated(result, most)
                fields_out = {k: _pad_field(v, self.max_boxes) for k, v in fields_out.items()}
            out[BOXES] = {"boxes": result, **fields_out}
            return out
        return targets, rebuild


    def _warn_all_dropped(self, boxes: tf.RaggedTensor, boxes_in: tf.Tensor) -> tf.RaggedTensor:
        """Warns when a batch had boxes and none is left: a wrong `bounding_box_format` or box
        filter does that to every batch, a crop now and then."""
        from tfgpuaug import _skip
        left = tf.shape(boxes.flat_values)[0]
        return _skip.warn_if(
            (boxes_in > 0) & (left == 0),
            lambda: tf.strings.join([
                "every box of a batch (", tf.strings.as_string(boxes_in), ") was dropped by the transforms "
                "(boxes left outside the crops, or under min_box_area/min_box_visibility). If this repeats, check "
                f"that the boxes are in bounding_box_format={self.format!r} and the filters' thresholds"]),
            boxes, key="all_boxes_dropped")

    def _warn_truncated(self, boxes: tf.Tensor, most: tf.Tensor) -> tf.Tensor:
        from tfgpuaug import _skip
        return _skip.warn_if(
            most > self.max_boxes,
            lambda: tf.strings.join([
                f"max_boxes={self.max_boxes} dropped boxes: an image of the batch has ",
                tf.strings.as_string(most), " boxes, and only its first ", str(self.max_boxes),
                " were kept. Raise max_boxes to the most boxes an image can have"]),
            boxes, key="max_boxes_truncated")


def _pad_field(values: tf.RaggedTensor, max_boxes: int) -> tf.Tensor:
    n = values.nrows()
    shape = tf.concat([[n, max_boxes], tf.shape(values.flat_values)[1:]], 0)
    default = False if values.dtype == tf.bool else tf.cast(-1, values.dtype)  # -1, as Keras 3's labels
    return values[:, :max_boxes].to_tensor(default_value=default, shape=shape)


class _LazyDims:
    """The input images' [B, 2] sizes, computed only when a relative format needs them."""

    def __init__(self, images):
        self.images, self._hw = images, None

    def hw(self) -> tf.Tensor:
        if self._hw is None:
            from tfgpuaug.transforms import _dims
            self._hw = _dims(self.images)
        return self._hw

    def hw_if(self, fmt: str):
        if not fmt.startswith("rel_"):
            return (None, None)
        hw = self.hw()
        return (hw[:, 0], hw[:, 1])
