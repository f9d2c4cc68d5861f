"""A random affine warp per sample: rotation, scale, shear and translation in one matrix
(torchvision's RandomAffine, Albumentations' Affine / ShiftScaleRotate).

Each sample's forward map (input to output, continuous coordinates with pixel i's centre at
i + 0.5, PIL's convention) is `T(centre + shift) . R(angle) . Shear(sx, sy) . S(scale) .
T(-centre)`: about the image centre, a positive angle turns the image counter-clockwise on
screen (as the policies' `rotate`), shears are in degrees (x then y), shifts are whole pixels
(as torchvision rounds them). The image is resampled through the inverse on TensorFlow's
ImageProjectiveTransformV3 (CPU and GPU kernels), as `random_perspective`; `RandomAffine` moves
boxes (the enclosing box of the moved corners), masks (nearest, fill 0) and keypoints.
"""
from __future__ import annotations

import math
from typing import Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug._types import Images, Seed

Range = Tuple[float, float]
INTERPOLATIONS = ("bilinear", "nearest")


def _symmetric(name: str, value: Union[float, Sequence[float]], low: float = -math.inf) -> Range:
    """A number v as (-v, v), a pair as it is; checked to be ordered and >= low."""
    if isinstance(value, (int, float)):
        if value < 0:
            raise ValueError(f"{name} as one number must be >= 0, got {value}")
        value = (-float(value), float(value))
    value = tuple(float(v) for v in value)
    if len(value) != 2 or not low <= value[0] <= value[1]:
        raise ValueError(f"{name} must be a number v (meaning (-v, v)) or (min, max) with min <= max, got {value}")
    return value


def affine_ranges(degrees, translate, scale, shear) -> Tuple[Range, Range, Range, Range, Range]:
    """The arguments as (degrees, translate x/y fractions, scale, shear x, shear y) ranges."""
    degrees = _symmetric("degrees", degrees)
    translate = tuple(float(t) for t in translate)
    if len(translate) != 2 or not all(0.0 <= t <= 1.0 for t in translate):
        raise ValueError(f"translate must be (max x fraction, max y fraction) within [0, 1], got {translate}")
    scale = tuple(float(s) for s in scale)
    if len(scale) != 2 or not 0.0 < scale[0] <= scale[1]:
        raise ValueError(f"scale must be (min, max) with 0 < min <= max, got {scale}")
    if isinstance(shear, (int, float)) or len(shear) == 2:
        shear_x, shear_y = _symmetric("shear", shear), (0.0, 0.0)
    elif len(shear) == 4:
        shear_x, shear_y = _symmetric("shear", shear[:2]), _symmetric("shear", shear[2:])
    else:
        raise ValueError(f"shear must be a number, (min, max) for x, or (x min, x max, y min, y max), got {shear}")
    if not all(-90.0 < s < 90.0 for s in shear_x + shear_y):
        raise ValueError(f"shear angles must lie within (-90, 90) degrees, got {shear}")
    return degrees, translate, scale, shear_x, shear_y


def forward_matrices(angle, shift_x, shift_y, scale, shear_x, shear_y, height, width) -> tf.Tensor:
    """`[n, 3, 3]` input-to-output maps (float64) for per-sample angles and shears (degrees),
    shifts (pixels) and scales."""
    rad = lambda d: tf.cast(d, tf.float64) * (math.pi / 180.0)  # noqa: E731
    a, sx, sy = rad(angle), rad(shear_x), rad(shear_y)
    s = tf.cast(scale, tf.float64)
    cy, cx = tf.cast(height, tf.float64) / 2.0, tf.cast(width, tf.float64) / 2.0
    cos, sin = tf.cos(a), tf.sin(a)
    tx, ty = tf.tan(sx), tf.tan(sy)
    # R (counter-clockwise on screen, y down) . Shear [[1, tx], [ty, 1]] . S
    m00 = s * (cos + sin * ty)
    m01 = s * (cos * tx + sin)
    m10 = s * (-sin + cos * ty)
    m11 = s * (-sin * tx + cos)
    b0 = cx + tf.cast(shift_x, tf.float64) - (m00 * cx + m01 * cy)
    b1 = cy + tf.cast(shift_y, tf.float64) - (m10 * cx + m11 * cy)
    zero, one = tf.zeros_like(m00), tf.ones_like(m00)
    return tf.stack([tf.stack([m00, m01, b0], -1), tf.stack([m10, m11, b1], -1),
                     tf.stack([zero, zero, one], -1)], axis=1)


def affine_matrices(n, height, width, degrees=0.0, translate=(0.0, 0.0), scale=(1.0, 1.0), shear=0.0,
                    probability: float = 1.0, seed=None) -> tf.Tensor:
    """`[n, 3, 3]` output-to-input maps (float64) drawn per sample (identity where not drawn)."""
    (d_lo, d_hi), (tx, ty), (s_lo, s_hi), (hx_lo, hx_hi), (hy_lo, hy_hi) = affine_ranges(
        degrees, translate, scale, shear)
    seeds = tf.unstack(tf.random.experimental.stateless_split(seed, 7))
    u = lambda i, lo, hi: tf.random.stateless_uniform([n], seeds[i], lo, hi, dtype=tf.float64)  # noqa: E731
    h, w = tf.cast(height, tf.float64), tf.cast(width, tf.float64)
    shift_x = tf.round(u(1, -tx, tx) * w) if tx > 0 else tf.zeros([n], tf.float64)
    shift_y = tf.round(u(2, -ty, ty) * h) if ty > 0 else tf.zeros([n], tf.float64)
    forward = forward_matrices(u(0, d_lo, d_hi), shift_x, shift_y, u(3, s_lo, s_hi), u(4, hx_lo, hx_hi),
                               u(5, hy_lo, hy_hi), height, width)
    applied = tf.random.stateless_uniform([n], seeds[6]) < probability
    eye = tf.eye(3, batch_shape=[n], dtype=tf.float64)
    return tf.where(applied[:, None, None], tf.linalg.inv(forward), eye)


def random_affine(images: Images, degrees: Union[float, Range] = 0.0, translate: Range = (0.0, 0.0),
                  scale: Range = (1.0, 1.0), shear: Union[float, Sequence[float]] = 0.0, probability: float = 1.0,
                  interpolation: str = "bilinear", fill: float = 0.0, seed: Seed = None,
                  return_plan: bool = False) -> Union[tf.Tensor, Tuple[tf.Tensor, tf.Tensor]]:
    """`images` `[B, H, W, C]` (uint8 or float) warped per sample by a random affine map (see
    the module), with probability `probability`.

    Args:
      images: `[B, H, W, C]`, uint8 or float.
      degrees: v (meaning (-v, v)) or (min, max), counter-clockwise.
      translate: (x, y) maximum shifts as fractions of the width and height.
      scale: (min, max) zoom.
      shear: v, (min, max) for x, or (x min, x max, y min, y max), degrees.
      probability: probability that a sample is warped.
      interpolation: "bilinear" or "nearest".
      fill: the value of pixels that map outside the image.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the `[B, 3, 3]` output-to-input maps (float64).
    """
    from tfgpuaug.augment.random_perspective import warp_perspective
    from tfgpuaug.geometry import _seed_tensor
    check_random_affine_args(probability, interpolation)
    images = tf.convert_to_tensor(images)
    shape = tf.shape(images)
    matrices = affine_matrices(shape[0], shape[1], shape[2], degrees, translate, scale, shear, probability,
                               _seed_tensor(seed))
    out = warp_perspective(images, matrices, interpolation, fill)
    return (out, matrices) if return_plan else out


def check_random_affine_args(probability: float, interpolation: str) -> None:
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {probability}")
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"interpolation must be one of {INTERPOLATIONS}, got {interpolation!r}")


def check_zoom_out_args(side_range, probability: float) -> None:
    side_range = tuple(side_range)
    if len(side_range) != 2 or not 1.0 <= side_range[0] <= side_range[1]:
        raise ValueError(f"side_range must be (min, max) with 1 <= min <= max, got {side_range}")
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {probability}")


def zoom_out_matrices(n, height, width, side_range=(1.0, 4.0), probability: float = 0.5, seed=None) -> tf.Tensor:
    """`[n, 3, 3]` output-to-input maps (float64) of torchvision's RandomZoomOut resampled back
    to the input size: the image shrinks by 1 / r into a canvas r times its size, its top-left
    corner at a uniform fraction of the free room (whole canvas pixels, as torchvision)."""
    check_zoom_out_args(side_range, probability)
    seeds = tf.unstack(tf.random.experimental.stateless_split(seed, 4))
    r = tf.random.stateless_uniform([n], seeds[0], side_range[0], side_range[1], dtype=tf.float64)
    h, w = tf.cast(height, tf.float64), tf.cast(width, tf.float64)
    # torchvision: left = int((canvas_width - width) * u), top likewise, in canvas pixels
    left = tf.floor((w * r - w) * tf.random.stateless_uniform([n], seeds[1], dtype=tf.float64))
    top = tf.floor((h * r - h) * tf.random.stateless_uniform([n], seeds[2], dtype=tf.float64))
    zero, one = tf.zeros([n], tf.float64), tf.ones([n], tf.float64)
    # input -> canvas (shift) -> output (scale by w / (w r), h / (h r): 1 / r on both axes)
    forward = tf.stack([tf.stack([1.0 / r, zero, left / r], -1), tf.stack([zero, 1.0 / r, top / r], -1),
                        tf.stack([zero, zero, one], -1)], axis=1)
    applied = tf.random.stateless_uniform([n], seeds[3]) < probability
    return tf.where(applied[:, None, None], tf.linalg.inv(forward), tf.eye(3, batch_shape=[n], dtype=tf.float64))
