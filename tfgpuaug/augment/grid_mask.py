"""GridMask (Chen et al., 2020) on a batch, per sample, as the authors' reference code does it.

Per sample: a unit `d` drawn in [d_min, d_max), stripes of width `l = ceil(d * ratio)` every `d`
pixels from random offsets in [0, d) over a square of side ceil(sqrt(H^2 + W^2)), rows and
columns; the square rotated by a whole number of degrees in [0, rotate) (nearest, PIL's
`Image.rotate`, through the augment kernel), its centre H x W kept. `mode=1` (the default)
keeps the stripes and masks the (d - l)-sided squares between them, `mode=0` the opposite.
Applied with `probability`; masked pixels become 0. `d` must stay below the image's diagonal
(else, as in the reference, there are no stripes).
"""
from __future__ import annotations

import math
from typing import Tuple, Union

import tensorflow as tf

from tfgpuaug._select import select_samples
from tfgpuaug._types import Images, Seed


def check_grid_mask_args(d: Tuple[int, int], ratio: float, rotate: int, mode: int, probability: float) -> None:
    if not 1 <= d[0] < d[1]:
        raise ValueError(f"d must be (min, max) with 1 <= min < max, got {d}")
    if not 0.0 < ratio < 1.0:
        raise ValueError(f"ratio must be in (0, 1), got {ratio}")
    if rotate < 1:
        raise ValueError(f"rotate must be >= 1 (angles are drawn in [0, rotate)), got {rotate}")
    if mode not in (0, 1):
        raise ValueError(f"mode must be 0 or 1, got {mode}")
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {probability}")


def _stripes(side: int, d: tf.Tensor, offset: tf.Tensor, width: tf.Tensor) -> tf.Tensor:
    """[B, side] bool: the reference's `for i in range(side // d): mask[d*i+st : d*i+st+l] = 0`."""
    i = tf.range(side)[None, :]
    rel = i - offset[:, None]
    return (rel >= 0) & (rel % d[:, None] < width[:, None]) & (rel // d[:, None] < side // d[:, None])


def grid_mask(images: Images, d: Tuple[int, int] = (96, 224), ratio: float = 0.6, rotate: int = 1,
              mode: int = 1, probability: float = 1.0, seed: Seed = None,
              return_plan: bool = False) -> Union[tf.Tensor, Tuple[tf.Tensor, tf.Tensor]]:
    """`images` `[B, H, W, C]` (uint8 or float, static H and W) with the grid masked per sample.
    With `return_plan`, also `[B, 5]` int32 (applied, d, offset_y, offset_x, degrees).

    Args:
      images: uint8 or float `[B, H, W, C]` with static H and W.
      d: (min, max) grid unit in pixels, drawn in [min, max).
      ratio: the kept stripe's share of a unit, in (0, 1).
      rotate: rotation by a whole number of degrees in [0, rotate).
      mode: 1 masks the squares between stripes, 0 the stripes.
      probability: probability that a sample is masked.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return what each sample drew (see Returns).
    """
    from tfgpuaug.augment import ops
    from tfgpuaug.geometry import _seed_tensor

    check_grid_mask_args(tuple(d), ratio, rotate, mode, probability)
    images = tf.convert_to_tensor(images)
    if images.shape.rank != 4 or images.shape[1] is None or images.shape[2] is None:
        raise ValueError(f"images must be [B, H, W, C] with static H and W, got {images.shape}")
    h, w = int(images.shape[1]), int(images.shape[2])
    side = math.ceil(math.sqrt(h * h + w * w))
    n = tf.shape(images)[0]
    seeds = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), 5))
    unit = tf.random.stateless_uniform([n], seeds[0], minval=d[0], maxval=d[1], dtype=tf.int32)
    width = tf.cast(tf.math.ceil(tf.cast(unit, tf.float64) * ratio), tf.int32)
    offsets = tf.cast(tf.floor(tf.random.stateless_uniform([n, 2], seeds[1]) * tf.cast(unit, tf.float32)[:, None]),
                      tf.int32)
    degrees = tf.random.stateless_uniform([n], seeds[2], minval=0, maxval=rotate, dtype=tf.int32)
    applied = tf.random.stateless_uniform([n], seeds[3]) < probability
    rows, cols = _stripes(side, unit, offsets[:, 0], width), _stripes(side, unit, offsets[:, 1], width)
    cut = rows[:, :, None] | cols[:, None, :]
    keep = tf.cast(tf.logical_not(cut), tf.uint8)[..., None]  # [B, side, side, 1], 1 = kept
    if rotate > 1:
        keep = ops.rotate(keep, tf.cast(degrees, tf.float32), fill_value=0.0, interpolation="nearest")
    top, left = (side - h) // 2, (side - w) // 2
    keep = keep[:, top:top + h, left:left + w, :]
    if mode == 1:
        keep = 1 - keep
    keep = select_samples(applied, keep, tf.ones_like(keep))
    out = images * tf.cast(keep, images.dtype)
    if return_plan:
        plan = tf.stack([tf.cast(applied, tf.int32), unit, offsets[:, 0], offsets[:, 1], degrees], axis=1)
        return out, plan
    return out
