"""MaskDropout (Albumentations): whole objects of the segmentation mask erased from the image
and the mask, per sample, with the boxes and keypoints they hide dropped."""
from __future__ import annotations

from typing import Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug._types import Seed
from tfgpuaug.transforms import Transform, TransformInput, TransformOutput, _decode_with_masks


def _choose(present: tf.Tensor, count: Tuple[int, int], u: tf.Tensor, seed) -> tf.Tensor:
    """[B, M] bool: per sample, k (uniform in `count`) of its `present` objects, drawn uniformly
    without replacement (all of them where fewer are present)."""
    k = tf.minimum(tf.floor(count[0] + u * (count[1] - count[0] + 1.0)), float(count[1]))
    score = tf.where(present, tf.random.stateless_uniform(tf.shape(present), seed), 2.0)
    rank = tf.argsort(tf.argsort(score, axis=1), axis=1)  # each object's place in a random order
    return present & (tf.cast(rank, tf.float32) < k[:, None])


def _objects(masks: tf.Tensor, objects: str) -> Tuple[tf.Tensor, tf.Tensor]:
    """Each pixel's object `[B, H, W]` int32 (0: none) and which objects exist `[B, M]` bool:
    the mask's non-zero values, or the connected components of each value (8 neighbours)."""
    n = tf.shape(masks)[0]
    if objects == "values":
        ids = tf.cast(masks[..., 0], tf.int32)
        present = tf.math.bincount(tf.reshape(ids, [n, -1]), minlength=256, maxlength=256, axis=-1) > 0
        return ids, tf.concat([tf.zeros([n, 1], tf.bool), present[:, 1:]], axis=1)  # 0 is background
    if masks.dtype != tf.uint8:
        raise ValueError(f'MaskDropout(objects="components") takes uint8 masks, got {masks.dtype.name}: cast them '
                         f'(values above 255 would wrap) or use objects="values"')
    from tfgpuaug import _loader
    ids, counts = _loader.ops().tf_gpu_aug_mask_components(masks[..., 0])
    index = tf.range(tf.reduce_max(counts) + 1)[None, :]
    return ids, (index >= 1) & (index <= counts[:, None])


def _box_visibility(boxes: tg.Ragged, dropped: tf.Tensor) -> tf.Tensor:
    """[B, N] share of each box's pixels (centres inside it) not dropped, by a summed-area table."""
    h, w = tf.shape(dropped)[1], tf.shape(dropped)[2]
    table = tf.pad(tf.cumsum(tf.cumsum(tf.cast(dropped, tf.float32), axis=1), axis=2), [[0, 0], [1, 0], [1, 0]])
    dense = tf.cast(boxes.to_tensor(0.0), tf.float32)  # [B, N, 4] xyxy pixels
    # pixel c is inside [a, b) when its centre c + 0.5 is: c from ceil(a - 0.5) to ceil(b - 0.5) - 1
    lo = tf.math.ceil(dense[..., :2] - 0.5)
    hi = tf.math.ceil(dense[..., 2:] - 0.5)
    limit = tf.cast(tf.stack([w, h]), tf.float32)
    x1, y1 = (tf.cast(tf.clip_by_value(lo[..., i], 0.0, limit[i]), tf.int32) for i in (0, 1))
    x2, y2 = (tf.cast(tf.clip_by_value(hi[..., i], 0.0, limit[i]), tf.int32) for i in (0, 1))
    x2, y2 = tf.maximum(x2, x1), tf.maximum(y2, y1)

    def at(y, x):
        return tf.gather_nd(table, tf.stack([y, x], -1), batch_dims=1)

    gone = at(y2, x2) - at(y1, x2) - at(y2, x1) + at(y1, x1)
    area = tf.cast((x2 - x1) * (y2 - y1), tf.float32)
    return tf.where(area > 0.0, 1.0 - gone / tf.maximum(area, 1.0), 1.0)


def dense_with_masks(name: str, images: TransformInput, targets: tg.Targets):
    """Images (decoded if encoded) and masks of one shape for a mask-driven transform `name`;
    ragged ones are refused with what to do."""
    images, targets = _decode_with_masks(images, targets)
    if isinstance(images, tf.RaggedTensor) or isinstance(targets.masks, tf.RaggedTensor):
        raise ValueError(f"{name} takes images and masks of one shape: put it after a resize")
    return images, targets


def drop_covered_keypoints(targets: tg.Targets, covered: tf.Tensor) -> tg.Targets:
    """The targets without the keypoints on pixels `covered` `[B, H, W]` bool marks."""
    if targets.keypoints is None:
        return targets
    points = tf.cast(targets.keypoints.to_tensor(-1.0), tf.float32)
    size = tf.cast(tf.shape(covered)[1:3], tf.float32)
    cell = tf.cast(tf.floor(points[..., ::-1]), tf.int32)  # (y, x) pixel under each keypoint
    inside = tf.reduce_all((points[..., ::-1] >= 0.0) & (points[..., ::-1] < size), axis=-1)
    hit = tf.gather_nd(covered, tf.clip_by_value(cell, 0, tf.cast(size, tf.int32) - 1), batch_dims=1)
    keep = tf.RaggedTensor.from_tensor(~(inside & hit), lengths=targets.keypoints.row_lengths())
    return targets.replace(keypoints=tf.ragged.boolean_mask(targets.keypoints, keep))


class MaskDropout(Transform):
    """Albumentations' MaskDropout: per sample, with probability `probability`, between
    `max_objects[0]` and `max_objects[1]` objects of the segmentation mask are erased: their
    pixels set to `fill` in the image and `fill_mask` in the mask. The objects are, as in
    Albumentations, the connected components (8 neighbours) of each non-zero mask value
    (`objects="components"`), or the distinct non-zero values themselves (`objects="values"`:
    instance ids, as `tga.data.coco(masks="instance_ids")` makes them, whose occluded
    instances may be split in parts).
    Boxes with less than `min_box_visibility` of their pixels left, and keypoints on erased
    pixels, are dropped with their fields. Images and masks must be decoded, one shape (after a
    resize). Inference leaves everything alone.

    Args:
      max_objects: the most objects erased per sample, or (min, max).
      objects: "components" (Albumentations) or "values", what an object of the mask is.
      fill: the image value of erased pixels (0..255).
      fill_mask: the mask value of erased pixels.
      min_box_visibility: in [0, 1]; 0 keeps every box.
      probability: probability that a sample is changed.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    decodes = True

    def __init__(self, max_objects: Union[int, Tuple[int, int]] = 1, fill: float = 0.0, fill_mask: int = 0,
                 min_box_visibility: float = 0.1, probability: float = 0.5, seed: Optional[int] = None,
                 objects: str = "components"):
        super().__init__(seed)
        if objects not in ("components", "values"):
            raise ValueError(f'objects must be "components" (connected components of each mask value, as '
                             f'Albumentations) or "values" (each non-zero mask value one object), got {objects!r}')
        self.objects = objects
        count = (1, max_objects) if isinstance(max_objects, int) else tuple(int(v) for v in max_objects)
        if len(count) != 2 or not 0 <= count[0] <= count[1] <= 255:
            raise ValueError(f"max_objects must be n or (min, max) with 0 <= min <= max <= 255, got {max_objects}")
        if not 0.0 <= fill <= 255.0 or not 0 <= fill_mask <= 255:
            raise ValueError(f"fill and fill_mask must be in [0, 255], got {fill} and {fill_mask}")
        if not 0.0 <= min_box_visibility <= 1.0:
            raise ValueError(f"min_box_visibility must be in [0, 1], got {min_box_visibility}")
        if not 0.0 <= probability <= 1.0:
            raise ValueError(f"probability must be in [0, 1], got {probability}")
        self.max_objects, self.fill, self.fill_mask = count, float(fill), int(fill_mask)
        self.min_box_visibility, self.probability = float(min_box_visibility), float(probability)

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if targets is None or targets.masks is None or not training:
            return images, targets  # nothing to erase without a mask
        images, targets = dense_with_masks("MaskDropout", images, targets)
        masks = targets.masks
        s_count, s_ids, s_apply = tf.unstack(tf.random.experimental.stateless_split(self._next_seed(seed), 3))
        n = tf.shape(masks)[0]
        ids, present = _objects(masks, self.objects)
        chosen = _choose(present, self.max_objects, tf.random.stateless_uniform([n], s_count), s_ids)
        chosen &= (tf.random.stateless_uniform([n], s_apply) < self.probability)[:, None]
        dropped = tf.gather(chosen, ids, batch_dims=1)  # [B, H, W]
        out = tf.where(dropped[..., None], tf.cast(self.fill, images.dtype), images)
        targets = targets.replace(masks=tf.where(dropped[..., None], tf.cast(self.fill_mask, masks.dtype), masks))
        if targets.boxes is not None and self.min_box_visibility > 0.0:
            visible = _box_visibility(targets.boxes, dropped)
            keep = tf.RaggedTensor.from_tensor(visible >= self.min_box_visibility,
                                               lengths=targets.boxes.row_lengths())
            targets = targets.keep_boxes(keep)
        return out, drop_covered_keypoints(targets, dropped)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return tuple(input_shape)

    def get_config(self) -> dict:
        return dict(max_objects=self.max_objects, fill=self.fill, fill_mask=self.fill_mask,
                    min_box_visibility=self.min_box_visibility, probability=self.probability, seed=self.seed,
                    objects=self.objects)
