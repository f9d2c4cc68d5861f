"""Albumentations' PlanckianJitter per sample: a colour temperature drawn per sample, the RGB
gains of that temperature's illuminant interpolated from a table every 500 K, and red and blue
scaled by their gain over green's (green unchanged), as the `channel_multiply` stage of the fused
augment kernel (a table per channel: product clipped and truncated, as Albumentations' lookup
table does on uint8)."""
from __future__ import annotations

from typing import Optional, Tuple

import numpy as np
import tensorflow as tf

from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability, _draws, _one_stage

# RGB gains of the illuminant at 3000 K (blackbody) or 4000 K (CIE D) to 15000 K, every 500 K:
# the figures of Albumentations' PLANCKIAN_COEFFS (from Zini et al.'s Planckian jitter).
_GAINS = {
    "blackbody": ((0.6743, 0.4029, 0.0013), (0.6281, 0.4241, 0.1665), (0.5919, 0.4372, 0.2513),
                  (0.5623, 0.4457, 0.3154), (0.5376, 0.4515, 0.3672), (0.5163, 0.4555, 0.4103),
                  (0.4979, 0.4584, 0.4468), (0.4816, 0.4604, 0.4782), (0.4672, 0.4619, 0.5053),
                  (0.4542, 0.4630, 0.5289), (0.4426, 0.4638, 0.5497), (0.4320, 0.4644, 0.5681),
                  (0.4223, 0.4648, 0.5844), (0.4135, 0.4651, 0.5990), (0.4054, 0.4653, 0.6121),
                  (0.3980, 0.4654, 0.6239), (0.3911, 0.4655, 0.6346), (0.3847, 0.4656, 0.6444),
                  (0.3787, 0.4656, 0.6532), (0.3732, 0.4656, 0.6613), (0.3680, 0.4655, 0.6688),
                  (0.3632, 0.4655, 0.6756), (0.3586, 0.4655, 0.6820), (0.3544, 0.4654, 0.6878),
                  (0.3503, 0.4653, 0.6933)),
    "cied": ((0.5829, 0.4421, 0.2288), (0.5510, 0.4514, 0.2948), (0.5246, 0.4576, 0.3488),
             (0.5021, 0.4618, 0.3941), (0.4826, 0.4646, 0.4325), (0.4654, 0.4667, 0.4654),
             (0.4502, 0.4681, 0.4938), (0.4364, 0.4692, 0.5186), (0.4240, 0.4700, 0.5403),
             (0.4127, 0.4705, 0.5594), (0.4023, 0.4709, 0.5763), (0.3928, 0.4713, 0.5914),
             (0.3839, 0.4715, 0.6049), (0.3757, 0.4716, 0.6171), (0.3681, 0.4717, 0.6281),
             (0.3609, 0.4718, 0.6380), (0.3543, 0.4719, 0.6472), (0.3480, 0.4719, 0.6555),
             (0.3421, 0.4719, 0.6631), (0.3365, 0.4719, 0.6702), (0.3313, 0.4719, 0.6766),
             (0.3263, 0.4719, 0.6826), (0.3217, 0.4719, 0.6882)),
}
_LOWEST = {"blackbody": 3000, "cied": 4000}
_HIGHEST = 15000
_STEP = 500
_WHITE = 6000  # the temperature both samplers split at
_WARM_SHARE = 0.4  # the chance of a temperature below _WHITE


def check_planckian_args(mode: str, temperature_limit: Optional[Tuple[int, int]], sampling_method: str,
                         probability: float) -> Tuple[int, int]:
    """The (low, high) temperature limits after Albumentations' checks; None: the mode's table."""
    if mode not in _GAINS:
        raise ValueError(f"mode must be 'blackbody' or 'cied', got {mode!r}")
    if sampling_method not in ("uniform", "gaussian"):
        raise ValueError(f"sampling_method must be 'uniform' or 'gaussian', got {sampling_method!r}")
    _check_probability(probability)
    if temperature_limit is None:
        return _LOWEST[mode], _HIGHEST
    if len(temperature_limit) != 2:
        raise ValueError(f"temperature_limit must be (low, high) in kelvin, got {temperature_limit}")
    low, high = (int(t) for t in temperature_limit)
    if not _LOWEST[mode] <= low <= high <= _HIGHEST:
        raise ValueError(f"temperature_limit for {mode!r} must lie in [{_LOWEST[mode]}, {_HIGHEST}] with low <= "
                         f"high, got {temperature_limit}")
    if not low <= _WHITE <= high:
        raise ValueError(f"temperature_limit must contain {_WHITE} K (both samplers split there, as Albumentations'), "
                         f"got {temperature_limit}")
    return low, high


def _temperatures(n, limits, sampling_method: str, seeds) -> tf.Tensor:
    """Albumentations' draw, whole kelvin: below _WHITE with probability _WARM_SHARE, else above;
    uniform on that side, or _WHITE -+ |N(0, (side's span) / 3)| clipped to the limits."""
    s_side, s_value = seeds
    low, high = (float(t) for t in limits)
    warm = tf.random.stateless_uniform([n], s_side, dtype=tf.float64) < _WARM_SHARE
    if sampling_method == "uniform":
        u = tf.random.stateless_uniform([n], s_value, dtype=tf.float64)
        t = tf.where(warm, low + u * (_WHITE - low), _WHITE + u * (high - _WHITE))
    else:
        z = tf.abs(tf.random.stateless_normal([n], s_value, dtype=tf.float64))
        t = tf.where(warm, _WHITE - z * abs(_WHITE - low) / 3.0, _WHITE + z * abs(high - _WHITE) / 3.0)
    return tf.floor(tf.clip_by_value(t, low, high))  # int(): positive, so the floor


def planckian_gains(temperatures: tf.Tensor, mode: str) -> tf.Tensor:
    """`[n, 3]` float64 RGB gains at whole-kelvin `temperatures`: linear between the table's
    neighbours 500 K apart (the table's own row at its ends), as Albumentations interpolates."""
    table = tf.constant(np.asarray(_GAINS[mode], np.float64))
    last = len(_GAINS[mode]) - 1
    t = tf.clip_by_value(tf.cast(temperatures, tf.float64), float(_LOWEST[mode]), float(_HIGHEST))
    step = tf.floor(t / _STEP)
    row = tf.cast(step, tf.int32) - _LOWEST[mode] // _STEP
    left = tf.gather(table, row)
    right = tf.gather(table, tf.minimum(row + 1, last))
    w = ((t - step * _STEP) / _STEP)[:, None]
    return tf.where(row[:, None] >= last, left, (1.0 - w) * left + w * right)


def planckian_jitter(images: Images, mode: str = "blackbody", temperature_limit: Optional[Tuple[int, int]] = None,
                     sampling_method: str = "uniform", probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' PlanckianJitter per sample, with probability `probability`: a colour
    temperature drawn per sample, red times (red gain / green gain) and blue times (blue gain /
    green gain) of that temperature's illuminant, green and alpha unchanged; products clipped to
    [0, 255] and truncated, as there. One stage of the fused augment kernel.

    Args:
      images: uint8 `[B, H, W, C]`, RGB (3 channels) or RGBA (4; alpha kept).
      mode: "blackbody" (Planck's law, 3000 .. 15000 K) or "cied" (CIE D illuminants, 4000 ..
        15000 K).
      temperature_limit: (low, high) kelvin within the mode's span and containing 6000; None:
        the whole span.
      sampling_method: "uniform" (uniform below 6000 K with probability 0.4, else above) or
        "gaussian" (half-normal either side of 6000 K, a third of that side's span its deviation).
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    limits = check_planckian_args(mode, temperature_limit, sampling_method, probability)
    images, n, (s_side, s_value, s_apply) = _draws(images, seed, 3)
    if images.shape[-1] not in (3, 4):
        raise ValueError(f"planckian_jitter needs RGB or RGBA images (3 or 4 channels), got {images.shape[-1]} "
                         "channels: a colour temperature has no meaning for one channel")
    gains = planckian_gains(_temperatures(n, limits, sampling_method, (s_side, s_value)), mode)
    factors = tf.cast(gains / gains[:, 1:2], tf.float32)  # red, 1, blue
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    return _one_stage(images, "channel_multiply", factors[:, 0], apply, aux=factors[:, 1:])
