"""Albumentations' XYMasking (SpecAugment-style masking): per sample, vertical stripes (full
height) and horizontal stripes (full width) of random widths at random places take a fill; masks
can take `fill_mask` at the same places; boxes and keypoints follow Albumentations' dropout rule.

Every draw is a tensor of the slots' maximum count, the unused slots switched off, so one graph
serves every sample. The covered pixels are the union of column and row stripes, which makes a
box's visible part a product of its visible columns and rows: its area and extent come from two
1-D counts, exactly what Albumentations' pixel mask gives."""
from __future__ import annotations

from typing import NamedTuple, Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug import _checks
from tfgpuaug import targets as tg
from tfgpuaug.targeted_crops import _random_int
from tfgpuaug.transforms import TransformOutput, _PerSample

IntRange = Union[int, Tuple[int, int]]
Fill = Union[float, Sequence[float], str]
FILL_MODES = ("random", "random_uniform")


def _int_range(name: str, value: IntRange) -> Tuple[int, int]:
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair) or \
            not 0 <= pair[0] <= pair[1]:
        raise ValueError(f"{name} must be an integer >= 0 or (min, max) integers with 0 <= min <= max, got {value!r}")
    return pair


def _levels(name: str, value) -> tuple:
    levels = tuple(float(v) for v in value) if isinstance(value, (list, tuple)) else (float(value),)
    if not levels or any(not 0.0 <= v <= 255.0 for v in levels):
        raise ValueError(f"{name} must be a level in [0, 255] or one per channel, got {value!r}")
    return levels


def _image_fill(fill: Fill) -> Union[str, tuple]:
    """`fill` as levels or one of FILL_MODES; OpenCV's inpainting is refused with what to use."""
    if isinstance(fill, str):
        if fill in FILL_MODES:
            return fill
        raise ValueError(f"fill must be a level, one level per channel, 'random' or 'random_uniform', got {fill!r}"
                         + (" (OpenCV's inpainting does not run in the graph)" if fill.startswith("inpaint") else ""))
    return _levels("fill", fill)


class _Stripes(NamedTuple):
    """A sample's stripes along one axis: `[B, S]` starts and ends (pixels, ends exclusive) of
    its S slots, unused slots empty."""
    start: tf.Tensor
    end: tf.Tensor

    def hits(self, size: tf.Tensor, repeat=1) -> tf.Tensor:
        """`[B, S, size * repeat]` bool: whether slot s covers each column (or row), each position
        `repeat` times (the bytes of a row of pixels)."""
        pos = tf.floor(tf.cast(tf.range(size * repeat), tf.float32) / tf.cast(repeat, tf.float32))[None, None, :]
        return (pos >= self.start[..., None]) & (pos < self.end[..., None])

    def covered(self, size: tf.Tensor, repeat=1) -> tf.Tensor:
        """`[B, size * repeat]` bool: whether any stripe covers each position."""
        return tf.reduce_any(self.hits(size, repeat), axis=1)

    def last(self, size: tf.Tensor, offset: int) -> tf.Tensor:
        """`[B, size]` int32: the index (plus `offset`) of the last slot covering each position, -1
        where none does (a later hole paints over an earlier one, as Albumentations fills them)."""
        slots = tf.range(tf.shape(self.start)[1], dtype=tf.int32)[None, :, None] + offset
        return tf.reduce_max(tf.where(self.hits(size), slots, -1), axis=1)


def _draw_stripes(n: tf.Tensor, size: tf.Tensor, count: Tuple[int, int], length: Tuple[int, int],
                  applied: tf.Tensor, seed: tf.Tensor) -> _Stripes:
    """Albumentations' draws for one axis: a count uniform in `count`, each stripe a length
    uniform in `length` and a start uniform in [0, size - length] (integers, ends included)."""
    slots = count[1]
    if slots == 0 or length[1] == 0:
        empty = tf.zeros([n, 0], tf.float32)
        return _Stripes(empty, empty)
    u = tf.random.stateless_uniform(tf.stack([n, 1 + 2 * slots]), seed)
    k = _random_int(u[:, 0], float(count[0]), float(count[1]))
    lengths = _random_int(u[:, 1:1 + slots], float(length[0]), float(length[1]))
    starts = _random_int(u[:, 1 + slots:], 0.0, tf.cast(size, tf.float32) - lengths)
    used = (tf.cast(tf.range(slots), tf.float32)[None, :] < k[:, None]) & applied[:, None]
    return _Stripes(tf.where(used, starts, 0.0), tf.where(used, starts + lengths, 0.0))


def _visible_extent(lo: tf.Tensor, hi: tf.Tensor, covered: tf.Tensor):
    """For boxes `[B, N]` spanning pixels [int(lo), int(hi)) of one axis: how many of them no
    stripe covers, and the first and last of those (`[B, N]` each)."""
    size = tf.shape(covered)[1]
    pos = tf.cast(tf.range(size), tf.float32)[None, None, :]
    first, end = tf.floor(lo)[..., None], tf.floor(hi)[..., None]
    visible = (pos >= first) & (pos < end) & ~covered[:, None, :]
    count = tf.reduce_sum(tf.cast(visible, tf.float32), axis=2)
    index = tf.where(visible, pos, float("inf"))
    return count, tf.reduce_min(index, axis=2), -tf.reduce_min(tf.where(visible, -pos, float("inf")), axis=2)


def _boxes_after(targets: tg.Targets, cols: tf.Tensor, rows: tf.Tensor, applied: tf.Tensor) -> tg.Targets:
    """Albumentations' dropout rule on pixels [int(x1), int(x2)) x [int(y1), int(y2)) of each box:
    kept if its unmasked area is positive, at least the filter's `min_area` and `min_visibility`
    of its area; then shrunk to the extent of its unmasked pixels (a side only where it moves:
    fractions kept, where Albumentations truncates every box)."""
    boxes = targets.boxes
    dense = tf.cast(boxes.to_tensor(0.0), tf.float32)  # [B, N, 4] xyxy
    x1, y1, x2, y2 = tf.unstack(dense, axis=-1)
    nx, fx, lx = _visible_extent(x1, x2, cols)
    ny, fy, ly = _visible_extent(y1, y2, rows)
    area = (tf.floor(x2) - tf.floor(x1)) * (tf.floor(y2) - tf.floor(y1))
    remaining = nx * ny
    f = targets.box_filter
    keep = (remaining > 0) & (remaining >= f.min_area) & (remaining >= f.min_visibility * area)
    keep |= ~applied[:, None]
    moved = tf.stack([tf.where(fx > tf.floor(x1), fx, x1), tf.where(fy > tf.floor(y1), fy, y1),
                      tf.where(lx + 1 < tf.floor(x2), lx + 1, x2), tf.where(ly + 1 < tf.floor(y2), ly + 1, y2)], -1)
    moved = tf.where((applied[:, None] & (remaining > 0))[..., None], moved, dense)
    lengths = boxes.row_lengths()
    targets = targets.replace(boxes=tf.RaggedTensor.from_tensor(tf.cast(moved, boxes.dtype), lengths=lengths))
    return targets.keep_boxes(tf.RaggedTensor.from_tensor(keep, lengths=lengths))


def _points_after(targets: tg.Targets, cols: _Stripes, rows: _Stripes, h: tf.Tensor, w: tf.Tensor) -> tg.Targets:
    """Keypoints inside a stripe dropped: x in [start, end) of a column stripe and y in [0, h),
    or y in a row stripe and x in [0, w) (Albumentations' holes, which span the image)."""
    points = tf.cast(targets.keypoints.to_tensor(-1.0), tf.float32)  # [B, K, 2] xy
    x, y = points[..., 0], points[..., 1]
    inside = lambda v, s: tf.reduce_any((v[..., None] >= s.start[:, None, :]) &  # noqa: E731
                                        (v[..., None] < s.end[:, None, :]), axis=2)
    within = lambda v, size: (v >= 0.0) & (v < tf.cast(size, tf.float32))  # noqa: E731
    covered = (inside(x, cols) & within(y, h)) | (inside(y, rows) & within(x, w))
    keep = tf.RaggedTensor.from_tensor(~covered, lengths=targets.keypoints.row_lengths())
    return targets.replace(keypoints=tf.ragged.boolean_mask(targets.keypoints, keep))


def _fill_stripes(x: tf.Tensor, cols: _Stripes, row_cov: tf.Tensor, fill) -> tf.Tensor:
    """`x` `[B, H, W, C]` with the stripes' pixels taken from `fill`: levels (one, or one per
    channel) or a tensor shaped as `x`. The select runs on rows of W C bytes: a 4-D select whose
    condition has a last axis of 1 broadcasts four times slower in TensorFlow."""
    shape = tf.shape(x)
    n, h, w, c = shape[0], shape[1], shape[2], shape[3]
    row_bytes = tf.stack([n, h, w * c])
    covered = cols.covered(w, c)[:, None, :] | row_cov[:, :, None]  # [B, H, W C]
    if isinstance(fill, tf.Tensor):
        values = tf.reshape(fill, row_bytes)
    else:  # levels: one row of W C bytes, built in int32 (uint8 Gather has no GPU kernel)
        if len(fill) > 1 and x.shape[-1] not in (None, len(fill)):
            raise ValueError(f"XYMasking has {len(fill)} fill levels for {x.shape[-1]}-channel data")
        levels = tf.constant([round(v) for v in fill], tf.int32)
        values = tf.cast(tf.gather(levels, tf.range(w * c) % c if len(fill) > 1 else tf.zeros([w * c], tf.int32)),
                         x.dtype)
    out = tf.reshape(tf.where(covered, values, tf.reshape(x, row_bytes)), shape)
    out.set_shape(x.shape)
    return out


class XYMasking(_PerSample):
    """Albumentations' XYMasking: in a sample chosen with probability `probability`, a number
    uniform in `num_masks_x` of vertical stripes (full height, widths uniform in
    `mask_x_length`) and of horizontal stripes (`num_masks_y`, `mask_y_length`) at uniform
    places, filled with `fill`; masks take `fill_mask` there (None: untouched). Boxes keep
    Albumentations' dropout rule (kept while some of them shows, at least the targets'
    `min_area` and `min_visibility`; shrunk to the extent that shows) and keypoints inside a
    stripe are dropped. Inference leaves everything alone.

    Args:
      num_masks_x: stripes across the width: a count or (min, max).
      num_masks_y: stripes across the height.
      mask_x_length: a vertical stripe's width in pixels: a number or (min, max), at most the
        image width (checked at graph construction when it is static, else when the batch runs).
      mask_y_length: a horizontal stripe's height, at most the image height.
      fill: the level of masked pixels: one number, one per channel, "random" (a uniform random
        level per pixel and channel) or "random_uniform" (one random colour per stripe).
      fill_mask: the value masks take there (one number or one per mask channel), or None.
      probability: probability that a sample is masked.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.

    Example:
      >>> tga.XYMasking(num_masks_x=(1, 3), mask_x_length=(5, 20), num_masks_y=1, mask_y_length=10)
    """

    accepts_float = False

    def __init__(self, num_masks_x: IntRange = 0, num_masks_y: IntRange = 0, mask_x_length: IntRange = 0,
                 mask_y_length: IntRange = 0, fill: Fill = 0.0, fill_mask: Optional[Fill] = None,
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.num_masks_x, self.num_masks_y = _int_range("num_masks_x", num_masks_x), _int_range("num_masks_y",
                                                                                                num_masks_y)
        self.mask_x_length = _int_range("mask_x_length", mask_x_length)
        self.mask_y_length = _int_range("mask_y_length", mask_y_length)
        self.fill = _image_fill(fill)
        self.fill_mask = None if fill_mask is None else _levels("fill_mask", fill_mask)

    @property
    def moves_targets(self) -> bool:
        """Boxes and keypoints can be dropped or shrunk; masks change with `fill_mask`."""
        return True

    def _sized(self, images: tf.Tensor) -> tf.Tensor:
        """`images`, refusing stripes longer than the image (statically where the size is known)."""
        h, w = images.shape[1], images.shape[2]
        for name, length, size, axis in (("mask_x_length", self.mask_x_length, w, "width"),
                                         ("mask_y_length", self.mask_y_length, h, "height")):
            if size is not None and length[1] > size:
                raise ValueError(f"XYMasking's {name} max {length[1]} exceeds the image {axis} {size}")
        if h is not None and w is not None:
            return images
        shape = tf.shape(images)
        ok = (self.mask_x_length[1] <= shape[2]) & (self.mask_y_length[1] <= shape[1])
        return _checks.run_time(images, ok, "XYMasking_mask_lengths_exceed_the_image")

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        images = self._sized(images)
        shape = tf.shape(images)
        n, h, w = shape[0], shape[1], shape[2]
        s_apply, s_x, s_y, s_fill = tf.unstack(tf.random.experimental.stateless_split(seed, 4))
        applied = tf.random.stateless_uniform([n], s_apply) < self.probability
        cols = _draw_stripes(n, w, self.num_masks_x, self.mask_x_length, applied, s_x)
        rows = _draw_stripes(n, h, self.num_masks_y, self.mask_y_length, applied, s_y)
        col_cov, row_cov = cols.covered(w), rows.covered(h)
        out = _fill_stripes(images, cols, row_cov, self._fill_values(images, cols, rows, s_fill))
        if targets is None:
            return out, targets
        if self.fill_mask is not None and targets.masks is not None:
            masks = targets.masks
            if isinstance(masks, tf.RaggedTensor) or masks.dtype == tf.string:
                raise ValueError("XYMasking's fill_mask needs dense masks [B, H, W, K]")
            targets = targets.replace(masks=_fill_stripes(masks, cols, row_cov, self.fill_mask))
        if targets.boxes is not None:
            targets = _boxes_after(targets, col_cov, row_cov, applied)
        if targets.keypoints is not None:
            targets = _points_after(targets, cols, rows, h, w)
        return out, targets

    def _fill_values(self, images: tf.Tensor, cols: _Stripes, rows: _Stripes, seed: tf.Tensor) -> tf.Tensor:
        """What masked pixels take: a constant (broadcast), random levels per byte, or each
        pixel the random colour of the last stripe covering it."""
        channels = images.shape[-1]
        if self.fill == "random":
            return tf.cast(tf.random.stateless_uniform(tf.shape(images), seed, 0, 256, tf.int32), tf.uint8)
        if self.fill == "random_uniform":
            shape = tf.shape(images)
            slots_x, slots_y = tf.shape(cols.start)[1], tf.shape(rows.start)[1]
            colours = tf.random.stateless_uniform(tf.stack([shape[0], slots_x + slots_y + 1, shape[3]]), seed, 0,
                                                  256, tf.int32)
            last = tf.maximum(cols.last(shape[2], 0)[:, None, :], rows.last(shape[1], slots_x)[:, :, None])
            return tf.cast(tf.gather(colours, tf.maximum(last, 0), batch_dims=1), tf.uint8)  # [B, H, W, C]
        if len(self.fill) > 1 and channels not in (None, len(self.fill)):
            raise ValueError(f"XYMasking's fill has {len(self.fill)} levels for {channels}-channel images")
        return self.fill

    def get_config(self) -> dict:
        as_list = lambda v: v if v is None or isinstance(v, str) else list(v)  # noqa: E731
        return dict(num_masks_x=self.num_masks_x, num_masks_y=self.num_masks_y, mask_x_length=self.mask_x_length,
                    mask_y_length=self.mask_y_length, fill=as_list(self.fill), fill_mask=as_list(self.fill_mask),
                    probability=self.probability, seed=self.seed)
