"""Resizes by a side, aspect kept, one new size per batch: torchvision v2's RandomShortestSize
(Detectron's ResizeShortestEdge) and RandomResize, Albumentations' SmallestMaxSize and
LongestMaxSize. Every image of a dense batch is resized to the same new size, so the batch stays
one tensor and, where the size is drawn, its shape changes from batch to batch."""
from __future__ import annotations

from typing import Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug import geometry
from tfgpuaug import targets as tg
from tfgpuaug._types import Seed
from tfgpuaug.transforms import Transform, TransformInput, TransformOutput, _crop_resize_with_targets


def shortest_size(height: tf.Tensor, width: tf.Tensor, shorter: tf.Tensor, max_size: Optional[int]) -> tf.Tensor:
    """torchvision's rule, in float64 as Python computes it: r = shorter / min(h, w), at most
    max_size / max(h, w); the new size is (int(h * r), int(w * r)), at least 1 pixel."""
    h, w = tf.cast(height, tf.float64), tf.cast(width, tf.float64)
    r = tf.cast(shorter, tf.float64) / tf.minimum(h, w)
    if max_size is not None:
        r = tf.minimum(r, float(max_size) / tf.maximum(h, w))
    return tf.maximum(tf.cast(tf.floor(tf.stack([h * r, w * r])), tf.int32), 1)


def shorter_side_size(height: tf.Tensor, width: tf.Tensor, shorter: tf.Tensor) -> tf.Tensor:
    """torchvision's Resize(int) rule (`_compute_resized_output_size`), in float64: the shorter
    side becomes `shorter` exactly and the longer int(shorter * long / short)."""
    h, w = tf.cast(height, tf.float64), tf.cast(width, tf.float64)
    s = tf.cast(shorter, tf.float64)
    longer = tf.cast(tf.floor(s * tf.maximum(h, w) / tf.minimum(h, w)), tf.int32)
    s = tf.cast(shorter, tf.int32)
    return tf.where(w <= h, tf.stack([longer, s]), tf.stack([s, longer]))


def scaled_size(height: tf.Tensor, width: tf.Tensor, scale: tf.Tensor) -> tf.Tensor:
    """Albumentations' MaxSizeTransform rule, in float64: (round(h * scale), round(w * scale)),
    halves to even as Python's round, at least 1 pixel."""
    hw = tf.cast(tf.stack([height, width]), tf.float64) * tf.cast(scale, tf.float64)
    return tf.maximum(tf.cast(tf.round(hw), tf.int32), 1)


def _positive_ints(name: str, value, allow_none: bool = False) -> Optional[Tuple[int, ...]]:
    """An int or a non-empty sequence of ints >= 1 as a tuple (None passes with allow_none)."""
    if value is None and allow_none:
        return None
    values = tuple(value) if isinstance(value, (list, tuple)) else (value,)
    if not values or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in values):
        raise ValueError(f"{name} must be a positive int or a non-empty sequence of them, got {value!r}")
    return values


def _pick(values: Tuple[int, ...], seed: tf.Tensor) -> tf.Tensor:
    """One of `values`, uniformly (a constant when there is one)."""
    if len(values) == 1:
        return tf.constant(values[0])
    at = tf.random.stateless_uniform([], seed, 0, len(values), tf.int32)
    return tf.gather(tf.constant(values), at)


class _BatchResize(Transform):
    """Shared by the side resizes: one new size per dense batch (`output_size`), the images
    resized to it, boxes, masks (nearest) and keypoints following."""

    def __init__(self, method: str, antialias: bool, seed: Optional[int]):
        super().__init__(seed)
        geometry._checks.one_of("method", method, geometry.METHODS)
        self.method, self.antialias = method, bool(antialias)

    def _dense_dims(self, images) -> tf.Tensor:
        name = type(self).__name__
        if geometry._is_encoded(images) or isinstance(images, tf.RaggedTensor):
            raise ValueError(f"{name} resizes a dense batch [B, H, W, C] (one size for the batch); "
                             "decode and Resize or Letterbox ragged or encoded images first")
        images = tf.convert_to_tensor(images)
        geometry._checks.static_rank("images", images, (4,))
        return tf.shape(images)[1:3]

    def _size(self, dims: tf.Tensor, seed: tf.Tensor, training: bool) -> tf.Tensor:
        raise NotImplementedError

    def output_size(self, images: TransformInput, seed: Seed = None, training: bool = True) -> tf.Tensor:
        """The new (height, width) of the batch, int32 `[2]`."""
        seed = geometry._seed_tensor(seed) if training and seed is not None else None
        return self._size(self._dense_dims(images), seed, training)

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        hw = self.output_size(images, self._next_seed(seed), training)
        if targets is None or not targets.moves:
            return geometry.resize(images, hw, self.method, self.antialias), targets
        dims = tg.image_sizes(images)
        boxes = tf.concat([tf.zeros_like(dims), dims], axis=1)  # whole images
        return _crop_resize_with_targets(images, targets, boxes, dims, hw, self.method, self.antialias)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> Tuple[Optional[int], ...]:
        return (input_shape[0], None, None, input_shape[-1])


class RandomShortestSize(_BatchResize):
    """Resizes the batch so that the images' shorter side is one of `min_size`, drawn uniformly
    once per batch, and the longer side at most `max_size` (torchvision v2's RandomShortestSize
    with its size rule, `int(side * r)`; bilinear with antialias, its defaults). Boxes, masks
    (nearest) and keypoints follow. Inference (`training=False`): the largest of `min_size`,
    the usual evaluation scale of a multi-scale recipe.

    The batch must be dense (one image size): every image gets the same new size. Ragged or
    encoded batches of mixed sizes would need a size per image and a padded canvas; resize or
    letterbox them first (`Resize`, `Letterbox`).

    Args:
      min_size: the shorter sides to draw from (an int or a sequence of ints).
      max_size: the longest side allowed after the resize; None: no limit.
      method: "bilinear", "bicubic", "area" or "nearest" (`tf.image.resize`'s names).
      antialias: widen the kernel when downscaling (torchvision v2's default, True).
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.

    Example:
      >>> ds.batch(16).apply(tga.gpu_augment([tga.RandomShortestSize((480, 512, 544, 576, 608), 1000)]))
    """

    def __init__(self, min_size: Union[int, Sequence[int]], max_size: Optional[int] = None, method: str = "bilinear",
                 antialias: bool = True, seed: Optional[int] = None):
        super().__init__(method, antialias, seed)
        sizes = _positive_ints("min_size", min_size)
        if max_size is not None and (isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 1):
            raise ValueError(f"max_size must be None or a positive int, got {max_size!r}")
        self.min_size, self.max_size = sizes, max_size

    def _size(self, dims, seed, training):
        shorter = _pick(self.min_size, seed) if training else tf.constant(max(self.min_size))
        return shortest_size(dims[0], dims[1], shorter, self.max_size)

    def get_config(self) -> dict:
        return dict(min_size=self.min_size, max_size=self.max_size, method=self.method, antialias=self.antialias,
                    seed=self.seed)


class RandomResize(_BatchResize):
    """torchvision v2's RandomResize: a shorter side drawn uniformly from [min_size, max_size)
    once per batch (torchvision's `randint`, the end excluded), the batch resized by
    torchvision's Resize(int) rule: that side exactly, the other int(size * long / short).
    Boxes, masks (nearest) and keypoints follow. Inference: max_size - 1, the largest drawable.
    A dense batch, as `RandomShortestSize`.

    Args:
      min_size: the least shorter side drawn.
      max_size: the end of the range (excluded), > min_size.
      method: "bilinear", "bicubic", "area" or "nearest" (`tf.image.resize`'s names).
      antialias: widen the kernel when downscaling (torchvision v2's default, True).
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    def __init__(self, min_size: int, max_size: int, method: str = "bilinear", antialias: bool = True,
                 seed: Optional[int] = None):
        super().__init__(method, antialias, seed)
        (low,), (high,) = _positive_ints("min_size", min_size), _positive_ints("max_size", max_size)
        if high <= low:
            raise ValueError(f"max_size ({max_size}) must exceed min_size ({min_size}): the range excludes it")
        self.min_size, self.max_size = low, high

    def _size(self, dims, seed, training):
        shorter = (tf.random.stateless_uniform([], seed, self.min_size, self.max_size, tf.int32) if training
                   else tf.constant(self.max_size - 1))
        return shorter_side_size(dims[0], dims[1], shorter)

    def get_config(self) -> dict:
        return dict(min_size=self.min_size, max_size=self.max_size, method=self.method, antialias=self.antialias,
                    seed=self.seed)


class _MaxSize(_BatchResize):
    """Albumentations' MaxSizeTransform: a scale from `max_size` (one drawn per batch from a
    list) or from `max_size_hw`, then (round(h * scale), round(w * scale))."""

    def __init__(self, max_size: Union[None, int, Sequence[int]] = 1024,
                 max_size_hw: Optional[Tuple[Optional[int], Optional[int]]] = None, method: str = "bilinear",
                 antialias: bool = False, seed: Optional[int] = None):
        super().__init__(method, antialias, seed)
        if (max_size is None) == (max_size_hw is None):
            raise ValueError(f"{type(self).__name__} takes exactly one of max_size and max_size_hw, got "
                             f"max_size={max_size!r}, max_size_hw={max_size_hw!r}")
        self.max_size = _positive_ints("max_size", max_size, allow_none=True)
        if max_size_hw is not None:
            hw = tuple(max_size_hw)
            valid = lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= 1)  # noqa: E731
            if len(hw) != 2 or hw == (None, None) or not all(valid(v) for v in hw):
                raise ValueError(f"max_size_hw must be (height, width), positive ints or None, not both None; got "
                                 f"{max_size_hw!r}")
            max_size_hw = hw
        self.max_size_hw = max_size_hw

    # tf.minimum or tf.maximum: the side max_size applies to, of (h, w); the scale kept when
    # max_size_hw gives both sides' scales
    _side = _both = None

    def _size(self, dims, seed, training):
        h, w = tf.cast(dims[0], tf.float64), tf.cast(dims[1], tf.float64)
        if self.max_size is not None:
            target = _pick(self.max_size, seed) if training else tf.constant(max(self.max_size))
            scale = tf.cast(target, tf.float64) / self._side(h, w)
        else:
            max_h, max_w = self.max_size_hw
            if max_h is not None and max_w is not None:
                scale = self._both(max_h / h, max_w / w)
            else:
                scale = max_h / h if max_h is not None else max_w / w
        return scaled_size(dims[0], dims[1], scale)

    def get_config(self) -> dict:
        return dict(max_size=self.max_size if self.max_size is None or len(self.max_size) > 1 else self.max_size[0],
                    max_size_hw=self.max_size_hw, method=self.method, antialias=self.antialias, seed=self.seed)


class SmallestMaxSize(_MaxSize):
    """Albumentations' SmallestMaxSize: the batch resized, aspect kept, so that its shorter side
    is `max_size` (one drawn uniformly per batch from a list; inference: the largest), or, with
    `max_size_hw`, by the larger of the two sides' scales (at least that height and width).
    New sides are round(side * scale) (Albumentations' rule). Boxes, masks (nearest) and
    keypoints follow. A dense batch. torchvision's `Resize(int)` is this with its own rounding
    (`RandomResize(s, s + 1)` gives it exactly).

    Args:
      max_size: the shorter side after the resize, or a list to draw it from.
      max_size_hw: (height, width) instead of max_size; either may be None.
      method: "bilinear", "bicubic", "area" or "nearest" (OpenCV's INTER_LINEAR is "bilinear").
      antialias: widen the kernel when downscaling (cv2.resize does not: False).
      seed: seed of the draw from a list of sizes when called without one; None: random.
    """

    _side, _both = staticmethod(tf.minimum), staticmethod(tf.maximum)


class LongestMaxSize(_MaxSize):
    """Albumentations' LongestMaxSize: the batch resized, aspect kept, so that its longer side
    is `max_size` (one drawn uniformly per batch from a list; inference: the largest), or, with
    `max_size_hw`, by the smaller of the two sides' scales (fits inside that height and width).
    New sides are round(side * scale). Boxes, masks (nearest) and keypoints follow. A dense
    batch; `Letterbox` adds the padding to a fixed canvas.

    Args:
      max_size: the longer side after the resize, or a list to draw it from.
      max_size_hw: (height, width) to fit in instead of max_size; either may be None.
      method: "bilinear", "bicubic", "area" or "nearest" (OpenCV's INTER_LINEAR is "bilinear").
      antialias: widen the kernel when downscaling (cv2.resize does not: False).
      seed: seed of the draw from a list of sizes when called without one; None: random.
    """

    _side, _both = staticmethod(tf.maximum), staticmethod(tf.minimum)
