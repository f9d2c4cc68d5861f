"""Albumentations' ShotNoise per sample, as a stage of the fused augment kernel (`shot_noise` in
cc/kernels/augment/augment.h): photon counting noise, a Poisson count per pixel and channel in
linear light, drawn by the kernel's per-pixel stream in the pass that applies it."""
from __future__ import annotations

from typing import Tuple

import tensorflow as tf

from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import Output, _check_probability, _draws, _one_stage, check_range

# The kernel keeps the scale in this range (every step finite); the arguments are refused outside it.
MIN_SCALE, MAX_SCALE = 1e-4, 1e4


def check_shot_noise_args(scale_range: Tuple[float, float], probability: float) -> Tuple[float, float]:
    """`scale_range` as a (min, max) pair of floats, after the checks."""
    pair = tuple(float(v) for v in scale_range)
    check_range("scale_range", pair, MIN_SCALE, MAX_SCALE)
    _check_probability(probability)
    return pair


def random_shot_noise(images: Images, scale_range: Tuple[float, float] = (0.1, 0.3), probability: float = 0.5,
                      seed: Seed = None, return_plan: bool = False) -> Output:
    """Albumentations' ShotNoise per sample, with probability `probability`: each byte v in
    linear light, L = (v / 255)^2.2, becomes a Poisson count of mean (L + scale 1e-6) / scale,
    times scale, clipped to [0, 1] and raised to 1 / 2.2, times 255, rounded; `scale` uniform in
    `scale_range` per sample. Counts of means from 12 up are drawn by the normal approximation
    (mean lambda, deviation sqrt(lambda), rounded); smaller ones exactly, by inversion.

    Args:
      images: uint8 `[B, H, W, C]`, 1, 3 or 4 channels (every channel, alpha too, as there).
      scale_range: (min, max) of the scale, the reciprocal of the photons per unit of linear
        light (larger: more noise), within [1e-4, 1e4].
      probability: probability that a sample gets noise.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    low, high = check_shot_noise_args(scale_range, probability)
    images, n, (s_value, s_apply, s_stream) = _draws(images, seed, 3)
    scale = tf.random.stateless_uniform([n], s_value, low, high)
    aux = tf.stack([tf.random.stateless_uniform([n], s_stream), tf.zeros([n])], axis=1)
    return _one_stage(images, "shot_noise", scale, tf.random.stateless_uniform([n], s_apply) < probability,
                      aux=aux, return_plan=return_plan)
