"""Albumentations' MultiplicativeNoise per sample: a factor per pixel (per byte with
`per_channel`) as a stage of the fused augment kernel, whose per-pixel stream draws the factors
in the pass that applies them (`multiplicative_noise` in cc/kernels/augment/augment.h); a factor
per image is the same stage with both bounds equal; a factor per channel of the image is the
`channel_multiply` stage (a table per channel) on 1- and 3-channel images, TensorFlow ops on
others (four factors do not fit a stage's three numbers)."""
from __future__ import annotations

from typing import Tuple, Union

import tensorflow as tf

from tfgpuaug._select import select_samples
from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability, _draws, _one_stage, check_range

Multiplier = Union[float, Tuple[float, float]]


def check_multiplier(multiplier: Multiplier) -> Tuple[float, float]:
    """`multiplier` as a (min, max) pair of floats, 0 <= min <= max."""
    pair = (multiplier, multiplier) if isinstance(multiplier, (int, float)) else tuple(multiplier)
    check_range("multiplier", pair, 0.0)
    return float(pair[0]), float(pair[1])


def multiplicative_noise(images: Images, multiplier: Multiplier = (0.9, 1.1), per_channel: bool = False,
                         elementwise: bool = False, probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Samples times factors drawn uniformly from `multiplier`, with probability `probability`
    (Albumentations' MultiplicativeNoise): one factor for the image, one per channel
    (`per_channel`), one per pixel shared by its channels (`elementwise`), or one per pixel and
    channel (both). The float32 product is clipped to [0, 255] and truncated, as Albumentations
    does on uint8.

    Args:
      images: uint8 `[B, H, W, C]`, 1, 3 or 4 channels (every channel, alpha too, as there).
      multiplier: (min, max) of the factors, 0 <= min <= max; one number for a fixed factor.
      per_channel: a factor per channel.
      elementwise: a factor per pixel, drawn by the kernel's per-pixel stream.
      probability: probability that a sample gets noise.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    low, high = check_multiplier(multiplier)
    _check_probability(probability)
    images, n, (s_factor, s_stream, s_apply) = _draws(images, seed, 3)
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    if per_channel and not elementwise and images.shape[-1] in (1, 3):
        factors = tf.random.stateless_uniform([n, 3], s_factor, low, high)  # channels past C unused
        return _one_stage(images, "channel_multiply", factors[:, 0], apply, aux=factors[:, 1:])
    if per_channel and not elementwise:
        shape = tf.shape(images)
        factors = tf.random.stateless_uniform(tf.stack([n, 1, 1, shape[3]]), s_factor, low, high)
        noisy = tf.cast(tf.clip_by_value(tf.cast(images, tf.float32) * factors, 0.0, 255.0), tf.uint8)  # truncates
        return select_samples(apply, noisy, images)
    if elementwise:
        name = "multiplicative_noise_per_channel" if per_channel else "multiplicative_noise"
        least, greatest = tf.fill([n], low), tf.fill([n], high)
    else:  # one factor a sample: the stage with both bounds equal to it
        name = "multiplicative_noise"
        least = greatest = tf.random.stateless_uniform([n], s_factor, low, high)
    aux = tf.stack([tf.random.stateless_uniform([n], s_stream), greatest], axis=1)
    return _one_stage(images, name, least, apply, aux=aux)
