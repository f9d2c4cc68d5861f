"""Per-sample random photometric augmentations that Albumentations and torchvision users look
for by name: random gamma, channel shuffle and RGB shift. Each draws its parameters per sample
in the graph (stateless, from `seed`) and runs one stage of the fused augment kernel (the same
`__host__ __device__` math on the CPU and the GPU); samples not drawn get the identity stage.
"""
from __future__ import annotations

from typing import Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug._types import Images, Seed

Range = Tuple[float, float]
# The augmented images, or with return_plan also the kernel stages ([B, 1] op ids, parameters).
Output = Union[tf.Tensor, Tuple[tf.Tensor, tf.Tensor, tf.Tensor]]


def _check_probability(probability: float) -> None:
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {probability}")


def check_gamma_args(gamma: Range, probability: float) -> None:
    if len(gamma) != 2 or not 0.0 < gamma[0] <= gamma[1]:
        raise ValueError(f"gamma must be (min, max) with 0 < min <= max, got {gamma} (Albumentations' "
                         "gamma_limit=(80, 120) is gamma=(0.8, 1.2))")
    _check_probability(probability)


def check_rgb_shift_args(shift: Sequence[Range], probability: float) -> None:
    if len(shift) != 3 or any(len(r) != 2 or not -255.0 <= r[0] <= r[1] <= 255.0 for r in shift):
        raise ValueError(f"shift must be three (min, max) ranges in levels, within [-255, 255], for red, green and "
                         f"blue, got {shift}")
    _check_probability(probability)


def rgb_shift_ranges(shift: Union[float, Sequence]) -> Tuple[Range, Range, Range]:
    """A shift argument as three (min, max) ranges: one number s means (-s, s) for every channel,
    three numbers one symmetric range each, three pairs are taken as they are."""
    if isinstance(shift, (int, float)):
        shift = (shift,) * 3
    shift = tuple(shift)
    if len(shift) != 3:
        raise ValueError(f"shift must be one number, three numbers or three (min, max) ranges, got {shift}")
    return tuple((-float(s), float(s)) if isinstance(s, (int, float)) else (float(s[0]), float(s[1]))
                 for s in shift)


def _one_stage(images, name: str, params: tf.Tensor, apply: tf.Tensor, aux=None, return_plan: bool = False):
    from tfgpuaug.augment.ops import OP_IDS, apply_stages
    op_ids = tf.where(apply, OP_IDS[name], OP_IDS["identity"])[:, None]
    params = tf.where(apply, params, 0.0)
    aux = None if aux is None else tf.where(apply[:, None], aux, 0.0)[:, None, :]
    out = apply_stages(images, op_ids, params[:, None], aux)
    return (out, op_ids, params[:, None]) if return_plan else out


def _draws(images, seed, count: int):
    from tfgpuaug.augment.ops import check_images
    from tfgpuaug.geometry import _seed_tensor
    images = check_images(images)
    seeds = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), count))
    return images, tf.shape(images)[0], seeds


def random_gamma(images: Images, gamma: Range = (0.8, 1.2), probability: float = 0.5, seed: Seed = None,
                 return_plan: bool = False) -> Output:
    """`255 * (v / 255) ** g` per sample, `g` uniform in `gamma`, with probability
    `probability` (Albumentations' RandomGamma; its table truncates, this one rounds).

    Args:
      images: uint8 `[B, H, W, C]`, 1, 3 or 4 channels (every channel, alpha too, as Albumentations).
      gamma: (min, max) exponent.
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    check_gamma_args(tuple(gamma), probability)
    images, n, (s_value, s_apply) = _draws(images, seed, 2)
    g = tf.random.stateless_uniform([n], s_value, gamma[0], gamma[1])
    return _one_stage(images, "gamma", g, tf.random.stateless_uniform([n], s_apply) < probability,
                      return_plan=return_plan)


def channel_shuffle(images: Images, probability: float = 0.5, seed: Seed = None,
                    return_plan: bool = False) -> Output:
    """The RGB channels of a sample in one of their six orders, uniformly (the identity order
    included, as Albumentations' ChannelShuffle), with probability `probability`.

    Args:
      images: uint8 `[B, H, W, C]`; gray images and alpha are left alone.
      probability: probability that a sample is shuffled.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    _check_probability(probability)
    images, n, (s_value, s_apply) = _draws(images, seed, 2)
    order = tf.cast(tf.random.stateless_uniform([n], s_value, 0, 6, dtype=tf.int32), tf.float32)
    return _one_stage(images, "channel_shuffle", order, tf.random.stateless_uniform([n], s_apply) < probability,
                      return_plan=return_plan)


def rgb_shift(images: Images, shift: Union[float, Sequence] = 20.0, probability: float = 0.5, seed: Seed = None,
              return_plan: bool = False) -> Output:
    """Add a shift per colour channel, uniform in its range and rounded to whole levels,
    saturating, with probability `probability` (Albumentations' RGBShift with
    r/g/b_shift_limit in levels).

    Args:
      images: uint8 `[B, H, W, C]`; gray images and alpha are left alone.
      shift: one number s (every channel in [-s, s]), three numbers, or three (min, max) ranges,
        in levels, for red, green and blue.
      probability: probability that a sample is shifted.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    ranges = rgb_shift_ranges(shift)
    check_rgb_shift_args(ranges, probability)
    images, n, (s_value, s_apply) = _draws(images, seed, 2)
    low = tf.constant([r[0] for r in ranges], tf.float32)
    high = tf.constant([r[1] for r in ranges], tf.float32)
    shifts = low + (high - low) * tf.random.stateless_uniform([n, 3], s_value)
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    return _one_stage(images, "rgb_shift", shifts[:, 0], apply, aux=shifts[:, 1:], return_plan=return_plan)


def check_range(name: str, values: Range, low: float, high: float = float("inf")) -> None:
    if len(values) != 2 or not low <= values[0] <= values[1] <= high:
        raise ValueError(f"{name} must be (min, max) with {low} <= min <= max <= {high}, got {values}")


def to_gray(images: Images, probability: float = 0.5, seed: Seed = None, return_plan: bool = False) -> Output:
    """A sample's RGB replaced by its luma (PIL's convert("L") weights) in every colour channel,
    with probability `probability` (Albumentations' ToGray, torchvision's RandomGrayscale).

    Args:
      images: uint8 `[B, H, W, C]`; gray images and alpha are left alone.
      probability: probability that a sample turns gray.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    _check_probability(probability)
    images, n, (s_apply,) = _draws(images, seed, 1)
    return _one_stage(images, "grayscale", tf.zeros([n]), tf.random.stateless_uniform([n], s_apply) < probability,
                      return_plan=return_plan)


def random_gaussian_blur(images: Images, sigma: Range = (0.1, 2.0), probability: float = 0.5, seed: Seed = None,
                         return_plan: bool = False) -> Output:
    """Gaussian blur with a per-sample sigma uniform in `sigma` pixels (radius ceil(3 sigma),
    at most 16; reflect-101 borders), with probability `probability` (torchvision's
    GaussianBlur sigma range; Albumentations' GaussianBlur sigma_limit).

    Args:
      images: uint8 `[B, H, W, C]`, every channel blurred.
      sigma: (min, max) standard deviation in pixels, min > 0.
      probability: probability that a sample is blurred.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    check_range("sigma", tuple(sigma), 1e-3)
    _check_probability(probability)
    images, n, (s_value, s_apply) = _draws(images, seed, 2)
    s = tf.random.stateless_uniform([n], s_value, sigma[0], sigma[1])
    return _one_stage(images, "gaussian_blur", s, tf.random.stateless_uniform([n], s_apply) < probability,
                      return_plan=return_plan)


def random_gaussian_noise(images: Images, std: Range = (5.0, 25.0), probability: float = 0.5, seed: Seed = None,
                          return_plan: bool = False) -> Output:
    """Add N(0, s^2) noise per pixel and channel, `s` uniform in `std` levels per sample,
    saturating, with probability `probability` (Albumentations' GaussNoise, std in levels;
    torchvision's GaussianNoise on uint8). The noise stream of a sample comes from the seed.

    Args:
      images: uint8 `[B, H, W, C]`, every channel.
      std: (min, max) standard deviation in levels (0..255).
      probability: probability that a sample gets noise.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    check_range("std", tuple(std), 0.0, 255.0)
    _check_probability(probability)
    images, n, (s_value, s_apply, s_stream) = _draws(images, seed, 3)
    s = tf.random.stateless_uniform([n], s_value, std[0], std[1])
    return _one_stage(images, "gaussian_noise", s, tf.random.stateless_uniform([n], s_apply) < probability,
                      aux=tf.random.stateless_uniform([n, 2], s_stream), return_plan=return_plan)
