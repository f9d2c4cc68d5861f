"""Fixed-size random crops aimed at the annotations (Albumentations' CropNonEmptyMaskIfExists
and AtLeastOneBBoxRandomCrop): the window is drawn per sample in the graph so that it holds a
foreground mask pixel or most of a box; the crop is made by the fused crop-resize (decoding
only the window for encoded images), and boxes, masks and keypoints follow."""
from __future__ import annotations

from typing import Optional, Sequence

import tensorflow as tf

from tfgpuaug import geometry
from tfgpuaug import targets as tg
from tfgpuaug._types import Seed, Size
from tfgpuaug.image import decode_image
from tfgpuaug.transforms import (Transform, TransformInput, TransformOutput, _channels, _crop_resize_with_targets,
                                 _dims, _hw)


def _random_int(u: tf.Tensor, low: tf.Tensor, high: tf.Tensor) -> tf.Tensor:
    """floor(low + u (high - low + 1)), an integer in [low, high] for u in [0, 1) (float)."""
    return tf.minimum(tf.floor(low + u * (high - low + 1.0)), high)


def _int_list(name: str, values: Optional[Sequence[int]]) -> Optional[list]:
    """`values` as a list of Python ints (None stays None); refuses anything else."""
    if values is None:
        return None
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise ValueError(f"{name} must be a list of integers or None, got {values!r}")
    out = list(values)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in out):
        raise ValueError(f"{name} must be a list of integers or None, got {values!r}")
    return out


class _TargetedCrop(Transform):
    """A `size` crop at a drawn window; where the image is smaller than `size` on an axis, the
    window is the whole axis, resized to `size` (Albumentations refuses such images)."""

    decodes = True

    def __init__(self, size: Size, method: str, seed: Optional[int]):
        super().__init__(seed)
        h, w = _hw(size)
        if h < 1 or w < 1:
            raise ValueError(f"size must be positive (height, width), got {size}")
        geometry._checks.one_of("method", method, geometry.METHODS)
        self.size, self.method = size, method

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def _window(self, dims, crop, targets: tg.Targets, u, seed) -> tf.Tensor:
        """[B, 2] top-left corners (y, x) of the windows; `u` [B, 6] uniforms, `seed` for more."""
        raise NotImplementedError

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        targets = tg.Targets() if targets is None else targets
        dims = _dims(images)
        crop = tf.minimum(tf.constant([_hw(self.size)], tf.float32), dims)  # [B, 2]
        if training:
            seeds = tf.random.experimental.stateless_split(self._next_seed(seed), 2)
            u = tf.random.stateless_uniform([tf.shape(dims)[0], 6], seeds[0])
            corner = self._window(dims, crop, targets, u, seeds[1])
        else:  # the centre window
            corner = tf.floor((dims - crop) / 2.0)
        box = tf.concat([corner, crop], axis=1)
        return _crop_resize_with_targets(images, targets, box, dims, self.size, self.method, False, max_dct_denom=1)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return (input_shape[0], *_hw(self.size), _channels(input_shape))

    def get_config(self) -> dict:
        return dict(size=self.size, method=self.method, seed=self.seed)


class CropNonEmptyMaskIfExists(_TargetedCrop):
    """Albumentations' CropNonEmptyMaskIfExists: a `size` crop holding a foreground (non-zero)
    mask pixel where the mask has one. Per sample, a non-zero pixel (y, x) is drawn uniformly
    among the mask's, and the window's corner is (y - i, x - j), i and j uniform integers in
    [0, size), clipped into the image; without foreground (or without masks) the corner is
    uniform. Boxes, masks and keypoints follow. Inference: the centre crop.

    Args:
      size: output (height, width), or one int for a square.
      method: resampling where an image is smaller than `size` ("bilinear", "bicubic", "area"
        or "nearest"); a window of `size` inside the image is copied exactly.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
      ignore_values: mask values that count as background too (a void or "ignore" class,
        Albumentations' argument of that name); None: only 0 is background.
      ignore_channels: mask channels not looked at when finding foreground (Albumentations'
        argument); None: every channel. At least one channel must be left.
    """

    def __init__(self, size: Size, method: str = "bilinear", seed: Optional[int] = None,
                 ignore_values: Optional[Sequence[int]] = None, ignore_channels: Optional[Sequence[int]] = None):
        super().__init__(size, method, seed)
        self.ignore_values = _int_list("ignore_values", ignore_values)
        self.ignore_channels = _int_list("ignore_channels", ignore_channels)
        if self.ignore_channels is not None and min(self.ignore_channels, default=0) < 0:
            raise ValueError(f"ignore_channels must be channel indices (>= 0), got {list(ignore_channels)}")

    def _foreground(self, masks: tf.Tensor) -> tf.Tensor:
        """[B, H, W] bool: pixels with a non-zero, not ignored value in a looked-at channel."""
        channels = masks.shape[-1]
        if self.ignore_channels and channels is not None:
            if max(self.ignore_channels) >= channels:
                raise ValueError(f"ignore_channels {self.ignore_channels} names a channel the {channels}-channel "
                                 "masks lack")
            if len(set(self.ignore_channels)) >= channels:
                raise ValueError(f"ignore_channels {self.ignore_channels} leaves none of the {channels} mask "
                                 "channels to find foreground in")
        values = tf.cast(masks, tf.int64)
        fg = values != 0
        if self.ignore_values:
            fg &= ~tf.reduce_any(tf.equal(values[..., None], tf.constant(self.ignore_values, tf.int64)), axis=-1)
        if self.ignore_channels:
            looked_at = ~tf.reduce_any(tf.equal(tf.range(tf.shape(masks)[-1], dtype=tf.int64)[:, None],
                                                tf.constant(self.ignore_channels, tf.int64)), axis=1)
            fg &= looked_at
        return tf.reduce_any(fg, axis=-1)

    def _window(self, dims, crop, targets: tg.Targets, u, seed) -> tf.Tensor:
        free = tf.stack([_random_int(u[:, k], 0.0, dims[:, k] - crop[:, k]) for k in (0, 1)], axis=1)
        if targets.masks is None:
            return free
        masks = targets.masks
        if geometry._is_encoded(masks):
            masks = decode_image(masks, channels=1)
        if isinstance(masks, tf.RaggedTensor):
            masks = masks.to_tensor(0)  # padding is background
        fg = self._foreground(masks)  # [B, H, W]
        shape = tf.shape(fg)
        # A uniform pick among the foreground: the argmax of independent uniforms over it.
        noise = tf.random.stateless_uniform(shape, seed, 1.0, 2.0)
        score = tf.reshape(tf.where(fg, noise, 0.0), [shape[0], -1])
        at = tf.argmax(score, axis=1, output_type=tf.int32)
        pixel = tf.cast(tf.stack([at // shape[2], at % shape[2]], axis=1), tf.float32)
        aimed = tf.stack([tf.clip_by_value(pixel[:, k] - _random_int(u[:, 2 + k], 0.0, crop[:, k] - 1.0),
                                           0.0, dims[:, k] - crop[:, k]) for k in (0, 1)], axis=1)
        return tf.where(tf.reduce_any(fg, axis=[1, 2])[:, None], aimed, free)

    def get_config(self) -> dict:
        return dict(super().get_config(), ignore_values=self.ignore_values, ignore_channels=self.ignore_channels)


class AtLeastOneBBoxRandomCrop(_TargetedCrop):
    """Albumentations' AtLeastOneBBoxRandomCrop: a `size` crop holding at least (1 -
    `erosion_factor`) of the width and of the height of one of the image's boxes. Per sample a
    box is drawn uniformly; the window's left edge is uniform in [x1 + ew - width, x2 - ew]
    (ew = (1 - erosion_factor) box width), clipped into the image, and likewise its top edge;
    without boxes the window is uniform. Boxes, masks and keypoints follow (the box filter of
    the stage drops what the crop cuts away). Inference: the centre crop.

    Args:
      size: output (height, width), or one int for a square.
      erosion_factor: in [0, 1]: how much of the drawn box's width and height may fall outside.
      method: resampling where an image is smaller than `size` ("bilinear", "bicubic", "area"
        or "nearest"); a window of `size` inside the image is copied exactly.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, size: Size, erosion_factor: float = 0.0, method: str = "bilinear",
                 seed: Optional[int] = None):
        super().__init__(size, method, seed)
        if not 0.0 <= erosion_factor <= 1.0:
            raise ValueError(f"erosion_factor must be in [0, 1], got {erosion_factor}")
        self.erosion_factor = float(erosion_factor)

    def _window(self, dims, crop, targets: tg.Targets, u, seed) -> tf.Tensor:
        free = tf.stack([_random_int(u[:, k], 0.0, dims[:, k] - crop[:, k]) for k in (0, 1)], axis=1)
        if targets.boxes is None:
            return free
        counts = targets.boxes.row_lengths()
        dense = targets.boxes.to_tensor(0.0)  # [B, N, 4] xyxy pixels
        pick = tf.minimum(tf.cast(tf.floor(u[:, 4] * tf.cast(counts, tf.float32)), tf.int64),
                          tf.maximum(counts - 1, 0))
        box = tf.gather(dense, pick, batch_dims=1)  # [B, 4]
        lo, hi = tf.stack([box[:, 1], box[:, 0]], 1), tf.stack([box[:, 3], box[:, 2]], 1)  # (y, x)
        kept = (hi - lo) * (1.0 - self.erosion_factor)
        first = tf.clip_by_value(lo + kept - crop, 0.0, dims - crop)
        last = tf.clip_by_value(hi - kept, 0.0, dims - crop)
        aimed = tf.floor(first + u[:, 2:4] * (tf.maximum(last, first) - first))
        return tf.where((counts > 0)[:, None], aimed, free)

    def get_config(self) -> dict:
        return dict(size=self.size, erosion_factor=self.erosion_factor, method=self.method, seed=self.seed)
