"""Albumentations' HueSaturationValue and RandomToneCurve per sample: parameters drawn in the
graph (stateless, from `seed`), one stage of the fused augment kernel each (the same
`__host__ __device__` math on the CPU and the GPU); samples not drawn get the identity stage.
"""
from __future__ import annotations

from typing import Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import (Output, Range, _check_probability, _draws, _one_stage,
                                          three_shift_stage)

Limit = Union[float, Sequence[float]]


def symmetric_range(name: str, limit: Limit, bound: float) -> Range:
    """One number s as (-s, s), a pair as it is (Albumentations' *_limit), within +-bound."""
    low, high = (-float(limit), float(limit)) if isinstance(limit, (int, float)) else tuple(float(v) for v in limit)
    if not -bound <= low <= high <= bound:
        raise ValueError(f"{name} must be a number s (the range (-s, s)) or (min, max) with "
                         f"{-bound:g} <= min <= max <= {bound:g}, got {limit}")
    return low, high


def hsv_shift_ranges(hue_shift: Limit, sat_shift: Limit, val_shift: Limit) -> Tuple[Range, Range, Range]:
    return (symmetric_range("hue_shift", hue_shift, 180.0), symmetric_range("sat_shift", sat_shift, 255.0),
            symmetric_range("val_shift", val_shift, 255.0))


def random_hsv_shift(images: Images, hue_shift: Limit = 20.0, sat_shift: Limit = 30.0, val_shift: Limit = 20.0,
                     probability: float = 0.5, seed: Seed = None, return_plan: bool = False) -> Output:
    """Albumentations' HueSaturationValue per sample: in OpenCV's 8-bit HSV, the hue moved by a
    shift uniform in `hue_shift` (OpenCV's hue units, 180 a full turn: 2 degrees each), the
    saturation and value by shifts uniform in theirs (levels, saturating; a gray pixel stays
    gray), with probability `probability`. Float shifts apply as Albumentations 2.0.8 applies
    them (hue floored, saturation and value truncated toward zero); the way back to RGB is
    OpenCV 4's.

    Args:
      images: uint8 `[B, H, W, C]`; gray images get the value shift alone; alpha is kept.
      hue_shift: s for (-s, s), or (min, max), within [-180, 180] (Albumentations' hue_shift_limit).
      sat_shift: the same in levels, within [-255, 255] (sat_shift_limit).
      val_shift: the same in levels, within [-255, 255] (val_shift_limit).
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    ranges = hsv_shift_ranges(hue_shift, sat_shift, val_shift)
    _check_probability(probability)
    return three_shift_stage(images, "hsv_shift", ranges, probability, seed, return_plan)


def check_tone_curve_args(scale: float, probability: float) -> None:
    if not 0.0 <= scale <= 1.0:
        raise ValueError(f"scale must be in [0, 1] (the deviation of the control points), got {scale}")
    _check_probability(probability)


def random_tone_curve(images: Images, scale: float = 0.1, probability: float = 0.5, seed: Seed = None,
                      return_plan: bool = False, per_channel: bool = False) -> Output:
    """Albumentations' RandomToneCurve per sample: the cubic Bezier tone curve through (0, 0) and
    (1, 1) with control points at heights `N(0.25, scale)` (darks) and `N(0.75, scale)` (lights),
    clipped to [0, 1], as a lookup table, with probability `probability`; one curve on every
    channel, or with `per_channel` one drawn per channel.

    Args:
      images: uint8 `[B, H, W, C]`, every channel (alpha too, as Albumentations).
      scale: standard deviation of the two control points, in [0, 1].
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, K]` op ids and parameters: K is 1, or C
        with `per_channel`, the darks' heights).
      per_channel: draw the two heights per channel (Albumentations' per_channel=True): C
        stages of the kernel, one lookup table each.
    """
    check_tone_curve_args(scale, probability)
    images, n, (s_value, s_apply) = _draws(images, seed, 2)
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    if not per_channel:
        heights = tf.clip_by_value(tf.constant([0.25, 0.75]) + scale * tf.random.stateless_normal([n, 2], s_value),
                                   0.0, 1.0)
        return _one_stage(images, "tone_curve", heights[:, 0], apply,
                          aux=tf.stack([heights[:, 1], tf.zeros([n])], axis=1), return_plan=return_plan)
    from tfgpuaug.augment.ops import OP_IDS, apply_stages, tone_curve_channels
    channels = tf.shape(images)[3]
    heights = tf.clip_by_value(
        tf.constant([0.25, 0.75]) + scale * tf.random.stateless_normal(tf.stack([n, channels, 2]), s_value), 0.0, 1.0)
    op_ids = tf.where(apply[:, None], OP_IDS["tone_curve"], OP_IDS["identity"]) * tf.ones([1, channels], tf.int32)
    params = tf.where(apply[:, None], heights[..., 0], 0.0)
    aux = tf.where(apply[:, None, None], tf.stack([heights[..., 1], tone_curve_channels(n, channels)], axis=2), 0.0)
    out = apply_stages(images, op_ids, params, aux)
    return (out, op_ids, params) if return_plan else out
