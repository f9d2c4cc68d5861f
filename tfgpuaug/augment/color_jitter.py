"""torchvision's ColorJitter on a batch, per sample, in one pass of the augment kernel.

Each sample draws its own brightness, contrast and saturation factors (uniform in
[max(0, 1 - x), 1 + x]) and hue shift (uniform in [-h, h] turns), and applies the four in its
own random order (torchvision draws one order per call, that is per image when used per
sample). The kernel runs the four stages of every sample in one launch, with the stages'
definitions torchvision's: brightness scales (blend with black), contrast blends with the
mean luma, saturation with the luma image, hue rotates the HSV hue.
"""
from __future__ import annotations

from typing import Tuple, Union

import tensorflow as tf

from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.ops import OP_IDS, apply_stages, check_images

STAGES = ("brightness", "contrast", "color", "hue")  # kernel op names, in argument order


def check_color_jitter_args(brightness: float, contrast: float, saturation: float, hue: float) -> None:
    for name, value in (("brightness", brightness), ("contrast", contrast), ("saturation", saturation)):
        if value < 0:
            raise ValueError(f"{name} must be non-negative, got {value}")
    if not 0 <= hue <= 0.5:
        raise ValueError(f"hue must be in [0, 0.5] (turns), got {hue}")


def color_jitter(images: Images, brightness: float = 0.0, contrast: float = 0.0, saturation: float = 0.0,
                 hue: float = 0.0, seed: Seed = None, return_plan: bool = False
                 ) -> Union[tf.Tensor, Tuple[tf.Tensor, tf.Tensor, tf.Tensor]]:
    """`images` uint8 `[B, H, W, C]` jittered per sample (see the module). With
    `return_plan`, also the `[B, 4]` op ids in the order each sample applied them and their
    parameters (factors; hue in turns).

    Args:
      images: uint8 `[B, H, W, C]`.
      brightness: factor drawn in [max(0, 1 - b), 1 + b].
      contrast: factor drawn in [max(0, 1 - c), 1 + c].
      saturation: factor drawn in [max(0, 1 - s), 1 + s].
      hue: shift drawn in [-hue, hue] turns (at most 0.5).
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return what each sample drew (see Returns).
    """
    from tfgpuaug.geometry import _seed_tensor

    check_color_jitter_args(brightness, contrast, saturation, hue)
    images = check_images(images)
    n = tf.shape(images)[0]
    s_factor, s_order = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), 2))
    u = tf.random.stateless_uniform([n, 4], s_factor)
    lows = tf.constant([max(0.0, 1 - brightness), max(0.0, 1 - contrast), max(0.0, 1 - saturation), -hue])
    highs = tf.constant([1 + brightness, 1 + contrast, 1 + saturation, hue])
    params = lows + u * (highs - lows)
    # Disabled jitters (0) stay in the plan as identities (factor 1, shift 0): one shape for all.
    order = tf.argsort(tf.random.stateless_uniform([n, 4], s_order), axis=1)  # a uniform permutation
    ids = tf.gather(tf.constant([OP_IDS[s] for s in STAGES]), order)
    params = tf.gather(params, order, batch_dims=1)
    out = apply_stages(images, ids, params)
    return (out, ids, params) if return_plan else out


def check_photometric_distort_args(brightness, contrast, saturation, hue, probability) -> None:
    for name, r in (("brightness", brightness), ("contrast", contrast), ("saturation", saturation)):
        if len(r) != 2 or not 0.0 <= r[0] <= r[1]:
            raise ValueError(f"{name} must be (min, max) factors with 0 <= min <= max, got {r}")
    if len(hue) != 2 or not -0.5 <= hue[0] <= hue[1] <= 0.5:
        raise ValueError(f"hue must be (min, max) turns within [-0.5, 0.5], got {hue}")
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {probability}")


def random_photometric_distort(images: Images, brightness: Tuple[float, float] = (0.875, 1.125),
                               contrast: Tuple[float, float] = (0.5, 1.5), saturation: Tuple[float, float] = (0.5, 1.5),
                               hue: Tuple[float, float] = (-0.05, 0.05), probability: float = 0.5,
                               seed: Seed = None, return_plan: bool = False
                               ) -> Union[tf.Tensor, Tuple[tf.Tensor, tf.Tensor, tf.Tensor]]:
    """torchvision's RandomPhotometricDistort (SSD's photometric distortions) per sample, in one
    pass of the augment kernel: brightness, contrast, saturation and hue each applied with
    probability `probability` (factors and shift uniform in their ranges), contrast before the
    colour stages or after them (even odds), then a random channel permutation with probability
    `probability`; the stages are torchvision's (as `color_jitter`'s).

    Args:
      images: uint8 `[B, H, W, C]`; gray images and alpha keep their channels (the colour
        stages and the permutation act on RGB).
      brightness: (min, max) factor.
      contrast: (min, max) factor.
      saturation: (min, max) factor.
      hue: (min, max) shift in turns.
      probability: probability of each distortion and of the permutation.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the `[B, 6]` op ids and parameters each sample applied.
    """
    from tfgpuaug.geometry import _seed_tensor

    ranges = [tuple(float(v) for v in r) for r in (brightness, contrast, saturation, hue)]
    check_photometric_distort_args(*ranges, probability)
    images = check_images(images)
    n = tf.shape(images)[0]
    s_value, s_apply, s_before, s_perm = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), 4))
    lows = tf.constant([r[0] for r in ranges])
    highs = tf.constant([r[1] for r in ranges])
    values = lows + tf.random.stateless_uniform([n, 4], s_value) * (highs - lows)
    applied = tf.random.stateless_uniform([n, 5], s_apply) < probability  # 4 distortions + permutation
    before = tf.random.stateless_uniform([n], s_before) < 0.5
    identity = OP_IDS["identity"]

    def stage(name, value, on):
        return tf.where(on, OP_IDS[name], identity), tf.where(on, value, 0.0)

    order = tf.cast(tf.random.stateless_uniform([n], s_perm, 0, 6, dtype=tf.int32), tf.float32)
    stages = [stage("brightness", values[:, 0], applied[:, 0]),
              stage("contrast", values[:, 1], applied[:, 1] & before),
              stage("color", values[:, 2], applied[:, 2]),
              stage("hue", values[:, 3], applied[:, 3]),
              stage("contrast", values[:, 1], applied[:, 1] & ~before),
              stage("channel_shuffle", order, applied[:, 4])]
    ids = tf.stack([s[0] for s in stages], axis=1)
    params = tf.stack([s[1] for s in stages], axis=1)
    out = apply_stages(images, ids, params)
    return (out, ids, params) if return_plan else out
