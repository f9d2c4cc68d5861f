"""Albumentations' crops whose window has no fixed size (RandomCropFromBorders,
RandomCropNearBBox): the window is drawn per sample in the graph with Albumentations' integer
rules, then cropped and resized to `size` in one pass of the fused crop-resize (a batch has one
size; Albumentations returns the window itself). Boxes, masks and keypoints follow."""
from __future__ import annotations

from typing import Optional, Sequence, Tuple

import tensorflow as tf

from tfgpuaug import geometry
from tfgpuaug import targets as tg
from tfgpuaug._types import Seed, Size
from tfgpuaug.transforms import (Transform, TransformInput, TransformOutput, _channels, _crop_resize_with_targets,
                                 _dims, _hw)


def _randint(u: tf.Tensor, low: tf.Tensor, high: tf.Tensor) -> tf.Tensor:
    """An integer uniform in [low, high] (Python's random.randint) for u uniform in [0, 1)."""
    return tf.minimum(low + tf.floor(u * (high - low + 1.0)), high)


class _ResizedWindowCrop(Transform):
    """A per-sample window [y, x, h, w] cropped and resized to `size`."""

    decodes = True

    def __init__(self, size: Size, method: str, antialias: bool, seed: Optional[int]):
        super().__init__(seed)
        h, w = _hw(size)
        if h < 1 or w < 1:
            raise ValueError(f"size must be positive (height, width), got {size}")
        geometry._checks.one_of("method", method, geometry.METHODS)
        self.size, self.method, self.antialias = size, method, bool(antialias)

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def _window(self, dims: tf.Tensor, targets: tg.Targets, seed: Optional[tf.Tensor]) -> tf.Tensor:
        """[B, 4] windows (y, x, h, w) in input pixels; `seed` None: the inference window."""
        raise NotImplementedError

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        targets = tg.Targets() if targets is None else targets
        dims = _dims(images)
        window = self._window(dims, targets, self._next_seed(seed) if training else None)
        return _crop_resize_with_targets(images, targets, window, dims, self.size, self.method, self.antialias,
                                         max_dct_denom=1)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return (input_shape[0], *_hw(self.size), _channels(input_shape))

    def get_config(self) -> dict:
        return dict(size=self.size, method=self.method, antialias=self.antialias, seed=self.seed)


class RandomCropFromBorders(_ResizedWindowCrop):
    """Albumentations' RandomCropFromBorders: per sample, a window cut from each side by up to a
    fraction of the image, resized to `size`. With Albumentations' integer rules (W the width):
    left = randint(0, int(crop_left W)), right = randint(max(left + 1, int((1 - crop_right) W)),
    W), likewise top and bottom with the height; the window is [left, right) x [top, bottom).
    Boxes, masks and keypoints follow. Inference: the whole image, resized.

    Args:
      size: output (height, width), or one int for a square.
      crop_left: in [0, 1]: the most of the width the left side may lose.
      crop_right: in [0, 1]: the most of the width the right side may lose; crop_left +
        crop_right <= 1.
      crop_top: in [0, 1]: the most of the height the top may lose.
      crop_bottom: in [0, 1]: the most of the height the bottom may lose; crop_top +
        crop_bottom <= 1.
      method: resampling of the window to `size` ("bilinear", "bicubic", "area" or "nearest").
      antialias: widen the kernel when downscaling (`tf.image.resize`'s antialias).
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, size: Size, crop_left: float = 0.1, crop_right: float = 0.1, crop_top: float = 0.1,
                 crop_bottom: float = 0.1, method: str = "bilinear", antialias: bool = False,
                 seed: Optional[int] = None):
        super().__init__(size, method, antialias, seed)
        sides = dict(crop_left=crop_left, crop_right=crop_right, crop_top=crop_top, crop_bottom=crop_bottom)
        for name, value in sides.items():
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be a fraction of the side in [0, 1], got {value}")
        for a, b in (("crop_left", "crop_right"), ("crop_top", "crop_bottom")):
            if sides[a] + sides[b] > 1.0:
                raise ValueError(f"{a} + {b} must be <= 1 (together they may not take more than the side), "
                                 f"got {sides[a]} + {sides[b]}")
        self.crop_left, self.crop_right = float(crop_left), float(crop_right)
        self.crop_top, self.crop_bottom = float(crop_top), float(crop_bottom)

    def _window(self, dims, targets, seed):
        if seed is None:
            return tf.concat([tf.zeros_like(dims), dims], axis=1)
        u = tf.random.stateless_uniform([tf.shape(dims)[0], 4], seed)
        sides = []
        for k, (before, after) in enumerate(((self.crop_top, self.crop_bottom), (self.crop_left, self.crop_right))):
            extent = dims[:, k]
            first = _randint(u[:, 2 * k], 0.0, tf.floor(before * extent))
            last = _randint(u[:, 2 * k + 1], tf.maximum(first + 1.0, tf.floor((1.0 - after) * extent)), extent)
            sides.append((first, last))
        (top, bottom), (left, right) = sides
        return tf.stack([top, left, bottom - top, right - left], axis=1)

    def get_config(self) -> dict:
        return dict(super().get_config(), crop_left=self.crop_left, crop_right=self.crop_right,
                    crop_top=self.crop_top, crop_bottom=self.crop_bottom)


PICKS = ("first", "random")


class RandomCropNearBBox(_ResizedWindowCrop):
    """Albumentations' RandomCropNearBBox: per sample, the window of one of the image's boxes
    with each side moved by up to a fraction of the box's side, resized to `size`. Albumentations
    takes the box as an extra input; here it is the image's first box (`pick="first"`: put the
    object of interest first) or one drawn uniformly (`pick="random"`). With Albumentations'
    rules: the box is clipped to the image; s_h = round(max_part_shift[0] box height), s_w =
    round(max_part_shift[1] box width) (half to even, as Python's round); left = x1 - randint(-s_w,
    s_w), right = x2 + randint(-s_w, s_w), likewise top and bottom; the window is clipped to the
    image, and where it is empty the box's own size is taken at the image's centre (its integer
    rule). Integer boxes give Albumentations' integer windows; fractional ones keep their
    fractions. An image without boxes is taken whole. Boxes, masks and keypoints follow.
    Inference: the chosen box itself (no shift; "random" takes the first box).

    Args:
      size: output (height, width), or one int for a square.
      max_part_shift: (height fraction, width fraction), each in [0, 1]: the most each side
        moves, relative to the box's height and width. A single number is refused:
        Albumentations reads 0.3 as (0, 0.3), which is easy to misread.
      pick: "first" or "random": which of the image's boxes the window is near.
      method: resampling of the window to `size` ("bilinear", "bicubic", "area" or "nearest").
      antialias: widen the kernel when downscaling (`tf.image.resize`'s antialias).
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, size: Size, max_part_shift: Tuple[float, float] = (0.0, 0.3), pick: str = "first",
                 method: str = "bilinear", antialias: bool = False, seed: Optional[int] = None):
        super().__init__(size, method, antialias, seed)
        if isinstance(max_part_shift, (int, float)):
            raise ValueError(f"max_part_shift must be (height fraction, width fraction), got {max_part_shift!r}; "
                             f"Albumentations reads a single number f as (0, f): pass (0, {max_part_shift}) for that")
        shift = tuple(float(v) for v in max_part_shift)
        if len(shift) != 2 or not all(0.0 <= v <= 1.0 for v in shift):
            raise ValueError(f"max_part_shift must be (height fraction, width fraction), each in [0, 1], "
                             f"got {max_part_shift!r}")
        geometry._checks.one_of("pick", pick, PICKS)
        self.max_part_shift, self.pick = shift, pick

    def _box(self, dims, targets, seed):
        """([B] whether the image has a box, [B, 4] its (y1, x1, y2, x2) clipped to the image)."""
        n = tf.shape(dims)[0]
        if targets.boxes is None:
            return tf.zeros([n], tf.bool), tf.zeros([n, 4])
        counts = targets.boxes.row_lengths()
        # [B, N + 1, 4] xyxy pixels: a batch without any box still has a box to gather
        dense = tf.pad(targets.boxes.to_tensor(0.0), [[0, 0], [0, 1], [0, 0]])
        pick = tf.zeros([n], tf.int64)
        if self.pick == "random" and seed is not None:
            u = tf.random.stateless_uniform([n], seed)
            pick = tf.minimum(tf.cast(tf.floor(u * tf.cast(counts, tf.float32)), tf.int64), tf.maximum(counts - 1, 0))
        box = tf.gather(dense, pick, batch_dims=1)
        lo = tf.clip_by_value(tf.stack([box[:, 1], box[:, 0]], 1), 0.0, dims)  # (y1, x1)
        hi = tf.clip_by_value(tf.stack([box[:, 3], box[:, 2]], 1), lo, dims)  # (y2, x2)
        return counts > 0, tf.concat([lo, hi], axis=1)

    def _window(self, dims, targets, seed):
        whole = tf.concat([tf.zeros_like(dims), dims], axis=1)
        seeds = [None, None] if seed is None else tf.unstack(tf.random.experimental.stateless_split(seed, 2))
        has, box = self._box(dims, targets, seeds[0])
        lo, hi = box[:, :2], box[:, 2:]
        if seed is None:
            window = tf.concat([lo, hi - lo], axis=1)
        else:
            reach = tf.round((hi - lo) * tf.constant([self.max_part_shift]))  # [B, 2] (s_h, s_w)
            u = tf.random.stateless_uniform([tf.shape(dims)[0], 4], seeds[1])
            first = lo - _randint(u[:, :2], -reach, reach)
            last = hi + _randint(u[:, 2:], -reach, reach)
            first = tf.clip_by_value(first, 0.0, dims)
            last = tf.clip_by_value(last, first, dims)
            empty = tf.reduce_any(tf.equal(first, last), axis=1, keepdims=True)
            centred = tf.floor((dims - (hi - lo)) / 2.0)
            first = tf.where(empty, centred, first)
            last = tf.where(empty, centred + hi - lo, last)
            window = tf.concat([first, last - first], axis=1)
        # a window needs a pixel: an empty box (or an empty fallback) takes one
        window = tf.concat([window[:, :2], tf.maximum(window[:, 2:], 1.0)], axis=1)
        return tf.where(has[:, None], window, whole)

    def get_config(self) -> dict:
        return dict(super().get_config(), max_part_shift=self.max_part_shift, pick=self.pick)
