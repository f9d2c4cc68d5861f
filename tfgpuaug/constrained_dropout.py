"""Albumentations' ConstrainedCoarseDropout: rectangular holes placed on the objects of
interest only, inside the boxes of chosen labels or on the connected components of chosen mask
values, sized as fractions of each object; the image (and optionally the mask) filled there, and
with `min_box_visibility` the boxes and keypoints the holes hide dropped."""
from __future__ import annotations

import warnings
from typing import Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug import targets as tg
from tfgpuaug._types import Seed
from tfgpuaug.augment.photometric import check_range
from tfgpuaug.mask_dropout import _box_visibility, dense_with_masks, drop_covered_keypoints
from tfgpuaug.transforms import Transform, TransformInput, TransformOutput

Fill = Union[float, Sequence[float], str]


def _covered(n, h, w, x1, y1, x2, y2, used) -> tf.Tensor:
    """[B, H, W] bool: pixels inside any used hole [x1, x2) x [y1, y2) (int32 [B, R] each,
    already within the image), by a difference image and two cumulative sums (any number of
    holes in two passes over the batch)."""
    batch = tf.broadcast_to(tf.range(n)[:, None], tf.shape(x1))
    corners = [(y1, x1, 1.0), (y1, x2, -1.0), (y2, x1, -1.0), (y2, x2, 1.0)]
    indices = tf.concat([tf.reshape(tf.stack([batch, y, x], -1), [-1, 3]) for y, x, _ in corners], 0)
    weight = tf.cast(used & (x2 > x1) & (y2 > y1), tf.float32)
    updates = tf.concat([tf.reshape(weight * s, [-1]) for _, _, s in corners], 0)
    steps = tf.tensor_scatter_nd_add(tf.zeros(tf.stack([n, h + 1, w + 1])), indices, updates)
    return tf.cumsum(tf.cumsum(steps, axis=1), axis=2)[:, :h, :w] > 0.5


def _holes_in_boxes(targets: tg.Targets, labels: Sequence[int], count: tf.Tensor, slots: int, heights, widths,
                    applied, seed):
    """Albumentations' get_holes_from_boxes per sample: `count` holes in every box whose label
    is one of `labels`, each a fraction of the box's height and width (truncated to whole
    pixels) at a uniform offset inside it; corners truncated to whole pixels."""
    if targets.boxes is None or "labels" not in targets.box_fields:
        raise ValueError("ConstrainedCoarseDropout(bbox_labels=...) needs boxes with 'labels' in the element")
    boxes = tf.cast(targets.boxes.to_tensor(0.0), tf.float32)  # [B, N, 4] xyxy
    box_labels = targets.box_fields["labels"].to_tensor(-1)
    if box_labels.shape.rank != 2:
        raise ValueError(f"ConstrainedCoarseDropout needs one integer label per box, got labels of rank "
                         f"{box_labels.shape.rank}")
    chosen = tf.reduce_any(tf.equal(tf.cast(box_labels, tf.int64)[..., None],
                                    tf.constant(list(labels), tf.int64)), axis=-1)
    chosen &= tf.sequence_mask(targets.boxes.row_lengths(), tf.shape(boxes)[1])
    shape = tf.concat([tf.shape(boxes)[:2], [slots]], 0)
    s_h, s_w, s_x, s_y = tf.unstack(tf.random.experimental.stateless_split(seed, 4))
    bw = (boxes[..., 2] - boxes[..., 0])[..., None]
    bh = (boxes[..., 3] - boxes[..., 1])[..., None]
    hole_h = tf.floor(tf.random.stateless_uniform(shape, s_h, heights[0], heights[1]) * bh)
    hole_w = tf.floor(tf.random.stateless_uniform(shape, s_w, widths[0], widths[1]) * bw)
    x1 = boxes[..., 0:1] + tf.random.stateless_uniform(shape, s_x) * (bw - hole_w)
    y1 = boxes[..., 1:2] + tf.random.stateless_uniform(shape, s_y) * (bh - hole_h)
    corners = [tf.floor(v) for v in (x1, y1, x1 + hole_w, y1 + hole_h)]  # astype(int32) of non-negative values
    used = chosen[..., None] & (tf.range(slots)[None, None, :] < count[:, None, None]) & applied[:, None, None]
    return corners, used


def _holes_on_components(masks: tf.Tensor, indices: Sequence[int], count: tf.Tensor, slots: int, heights, widths,
                         applied, seed):
    """Albumentations' get_holes_from_mask per sample: the connected components (8 neighbours)
    of the pixels whose mask value is one of `indices`; `count` holes each, centred on pixels of
    the component drawn uniformly (with replacement), sides a fraction of sqrt(its area), half
    sides floored, clipped to the image."""
    n, h, w = tf.shape(masks)[0], tf.shape(masks)[1], tf.shape(masks)[2]
    values = tf.cast(masks[..., 0], tf.int64)
    chosen = tf.reduce_any(tf.equal(values[..., None], tf.constant(list(indices), tf.int64)), axis=-1)
    ids, counts = _loader.ops().tf_gpu_aug_mask_components(tf.cast(chosen, tf.uint8))
    m = tf.reduce_max(counts) + 1  # component slots per sample, 0 the background
    segment = tf.reshape(ids + m * tf.range(n)[:, None, None], [-1])
    flat = tf.range(h * w)
    pixel = tf.reshape(tf.broadcast_to(flat[None, :], tf.stack([n, h * w])), [-1])
    area = tf.math.unsorted_segment_sum(tf.ones_like(segment, tf.float32), segment, n * m)
    seeds = tf.unstack(tf.random.experimental.stateless_split(seed, slots + 2))
    picks = []
    for slot in range(slots):  # one uniform pixel of each component: the greatest uniform key
        key = tf.random.stateless_uniform(tf.shape(segment), seeds[slot])
        best = tf.math.unsorted_segment_max(key, segment, n * m)
        at = tf.math.unsorted_segment_max(tf.where(key >= tf.gather(best, segment), pixel, -1), segment, n * m)
        picks.append(tf.maximum(at, 0))
    picks = tf.reshape(tf.stack(picks, -1), tf.stack([n, m, slots]))
    cx, cy = tf.cast(picks % w, tf.float32), tf.cast(picks // w, tf.float32)
    size = tf.sqrt(tf.reshape(area, tf.stack([n, m, 1])))
    shape = tf.stack([n, m, slots])
    half_h = tf.floor(tf.random.stateless_uniform(shape, seeds[-2], heights[0], heights[1]) * size / 2.0)
    half_w = tf.floor(tf.random.stateless_uniform(shape, seeds[-1], widths[0], widths[1]) * size / 2.0)
    wf, hf = tf.cast(w, tf.float32), tf.cast(h, tf.float32)
    corners = [tf.clip_by_value(cx - half_w, 0.0, wf - 1.0), tf.clip_by_value(cy - half_h, 0.0, hf - 1.0),
               tf.clip_by_value(cx + half_w, 0.0, wf), tf.clip_by_value(cy + half_h, 0.0, hf)]
    component = tf.range(m)[None, :, None]
    used = ((component >= 1) & (component <= counts[:, None, None])
            & (tf.range(slots)[None, None, :] < count[:, None, None]) & applied[:, None, None])
    return corners, used


class ConstrainedCoarseDropout(Transform):
    """Albumentations' ConstrainedCoarseDropout: per sample, with probability `probability`,
    holes only on the objects of interest: `num_holes` (uniform in `num_holes_range`, drawn per
    sample) in every box whose label is in `bbox_labels`, sides `hole_height_range` /
    `hole_width_range` times the box's, at a uniform place inside it; or, with `mask_indices`,
    on every connected component (8 neighbours) of the mask pixels with those values, centred on
    uniformly drawn pixels of it, sides those fractions of sqrt(its area). Holes are filled with
    `fill` in the image and, unless `fill_mask` is None, `fill_mask` in the mask. With
    `min_box_visibility` (a number in [0, 1]) boxes less visible than that and keypoints under a
    hole are dropped with their fields; None (default) lets them pass, as RandomErasing does.
    Images and masks must be decoded and of one size. Images without any annotations pass
    through with a warning (Albumentations does the same); annotations without the boxes or
    masks asked for are refused. Inference leaves everything alone.

    Args:
      num_holes_range: (min, max) holes per object, min >= 1.
      hole_height_range: (min, max) hole height as a fraction of the object's (box height, or
        sqrt of the component's area), within [0, 1].
      hole_width_range: the same for the width.
      fill: the image's fill: a level, one level per channel, or "random" (uniform levels per
        pixel). Albumentations' "random_uniform" and inpainting are not offered.
      fill_mask: the mask's fill, or None to leave masks alone.
      mask_indices: the mask values whose components take holes (one of this and
        `bbox_labels`).
      bbox_labels: the integer box labels whose boxes take holes.
      min_box_visibility: None, or the share of a box that must stay visible for it to be kept.
      probability: probability that a sample is changed.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> tga.ConstrainedCoarseDropout((1, 3), (0.2, 0.4), (0.2, 0.4), bbox_labels=[1], min_box_visibility=0.3)
    """

    decodes = True

    def __init__(self, num_holes_range: Tuple[int, int] = (1, 1), hole_height_range: Tuple[float, float] = (0.1, 0.1),
                 hole_width_range: Tuple[float, float] = (0.1, 0.1), fill: Fill = 0.0,
                 fill_mask: Optional[float] = None, mask_indices: Optional[Sequence[int]] = None,
                 bbox_labels: Optional[Sequence[int]] = None, min_box_visibility: Optional[float] = None,
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(seed)
        holes = tuple(num_holes_range)
        if len(holes) != 2 or not all(isinstance(v, int) for v in holes) or not 1 <= holes[0] <= holes[1] <= 64:
            raise ValueError(f"num_holes_range must be (min, max) integers with 1 <= min <= max <= 64, got "
                             f"{num_holes_range}")
        self.num_holes_range = holes
        self.hole_height_range = check_range("hole_height_range", hole_height_range, 0.0, 1.0)
        self.hole_width_range = check_range("hole_width_range", hole_width_range, 0.0, 1.0)
        if (mask_indices is None) == (bbox_labels is None):
            raise ValueError("give exactly one of mask_indices (holes on mask components) and bbox_labels (holes in "
                             "boxes)")
        for name, values in (("mask_indices", mask_indices), ("bbox_labels", bbox_labels)):
            if values is not None and (len(values) == 0 or not all(isinstance(v, int) for v in values)):
                raise ValueError(f"{name} must be a non-empty list of integers, got {values} (string labels: encode "
                                 f"them as the dataset's integer labels)")
        if mask_indices is not None and not all(0 <= v <= 255 for v in mask_indices):
            raise ValueError(f"mask_indices must be mask values in [0, 255], got {mask_indices}")
        self.mask_indices = None if mask_indices is None else [int(v) for v in mask_indices]
        self.bbox_labels = None if bbox_labels is None else [int(v) for v in bbox_labels]
        if isinstance(fill, str):
            if fill != "random":
                raise ValueError(f'fill must be a level, one level per channel or "random", got {fill!r} '
                                 '("random_uniform" and inpainting are not offered)')
            self.fill = fill
        else:
            levels = (float(fill),) if isinstance(fill, (int, float)) else tuple(float(v) for v in fill)
            if not levels or not all(0.0 <= v <= 255.0 for v in levels):
                raise ValueError(f"fill levels must be in [0, 255], got {fill}")
            self.fill = levels[0] if len(levels) == 1 else levels
        if fill_mask is not None and not 0.0 <= float(fill_mask) <= 255.0:
            raise ValueError(f"fill_mask must be None or in [0, 255], got {fill_mask}")
        self.fill_mask = None if fill_mask is None else float(fill_mask)
        if min_box_visibility is not None and not 0.0 <= min_box_visibility <= 1.0:
            raise ValueError(f"min_box_visibility must be None or in [0, 1], got {min_box_visibility}")
        self.min_box_visibility = None if min_box_visibility is None else float(min_box_visibility)
        if not 0.0 <= probability <= 1.0:
            raise ValueError(f"probability must be in [0, 1], got {probability}")
        self.probability = float(probability)

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def _fill_values(self, images: tf.Tensor, seed) -> tf.Tensor:
        if self.fill == "random":
            return tf.cast(tf.random.stateless_uniform(tf.shape(images), seed, 0, 256, dtype=tf.int32), images.dtype)
        levels = self.fill if isinstance(self.fill, tuple) else (self.fill,)
        if len(levels) > 1 and images.shape[-1] is not None and len(levels) != images.shape[-1]:
            raise ValueError(f"fill has {len(levels)} levels for images of {images.shape[-1]} channels")
        return tf.cast(tf.constant(levels, tf.float32), images.dtype)

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if not training:
            return images, targets
        if targets is None or not targets.moves:
            warnings.warn("ConstrainedCoarseDropout got images without boxes or masks: no holes (as Albumentations)",
                          stacklevel=2)
            return images, targets
        images, targets = dense_with_masks("ConstrainedCoarseDropout", images, targets)
        s_count, s_apply, s_holes, s_fill = tf.unstack(tf.random.experimental.stateless_split(self._next_seed(seed), 4))
        n, h, w = tf.shape(images)[0], tf.shape(images)[1], tf.shape(images)[2]
        low, high = self.num_holes_range
        count = tf.random.stateless_uniform([n], s_count, low, high + 1, dtype=tf.int32)
        applied = tf.random.stateless_uniform([n], s_apply) < self.probability
        if self.mask_indices is not None:
            if targets.masks is None:
                raise ValueError("ConstrainedCoarseDropout(mask_indices=...) needs segmentation masks in the element")
            if targets.masks.dtype != tf.uint8:
                raise ValueError(f"ConstrainedCoarseDropout takes uint8 masks, got {targets.masks.dtype.name}")
            corners, used = _holes_on_components(targets.masks, self.mask_indices, count, high,
                                                 self.hole_height_range, self.hole_width_range, applied, s_holes)
        else:
            corners, used = _holes_in_boxes(targets, self.bbox_labels, count, high, self.hole_height_range,
                                            self.hole_width_range, applied, s_holes)
        limits = tf.cast(tf.stack([w, h, w, h]), tf.float32)
        x1, y1, x2, y2 = (tf.cast(tf.clip_by_value(tf.reshape(c, [n, -1]), 0.0, limits[i]), tf.int32)
                          for i, c in enumerate(corners))
        covered = _covered(n, h, w, x1, y1, x2, y2, tf.reshape(used, [n, -1]))
        out = tf.where(covered[..., None], self._fill_values(images, s_fill), images)
        if self.fill_mask is not None and targets.masks is not None:
            masks = targets.masks
            targets = targets.replace(masks=tf.where(covered[..., None], tf.cast(self.fill_mask, masks.dtype), masks))
        if self.min_box_visibility is not None:
            if targets.boxes is not None:
                visible = _box_visibility(targets.boxes, covered)
                keep = tf.RaggedTensor.from_tensor(visible >= self.min_box_visibility,
                                                   lengths=targets.boxes.row_lengths())
                targets = targets.keep_boxes(keep)
            targets = drop_covered_keypoints(targets, covered)
        return out, targets

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return tuple(input_shape)

    def get_config(self) -> dict:
        return dict(num_holes_range=self.num_holes_range, hole_height_range=self.hole_height_range,
                    hole_width_range=self.hole_width_range, fill=self.fill, fill_mask=self.fill_mask,
                    mask_indices=self.mask_indices, bbox_labels=self.bbox_labels,
                    min_box_visibility=self.min_box_visibility, probability=self.probability, seed=self.seed)

