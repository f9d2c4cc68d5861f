"""Bytes replaced per sample, each as one stage of the fused augment kernel (one pass, the same
`__host__ __device__` math on the CPU and the GPU): Albumentations' ToSepia, ChannelDropout,
PixelDropout and SaltAndPepper. The per-sample numbers (which channels, the dropout share, the
salt share, a uniform that seeds the kernel's per-pixel stream) are drawn in the graph from
`seed`; samples not drawn get the identity stage."""
from __future__ import annotations

from typing import Optional, Tuple

import tensorflow as tf

from tfgpuaug import _checks
from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import (Output, _check_probability, _draws, _one_stage, check_range,
                                          parameterless_stage)


def to_sepia(images: Images, probability: float = 0.5, seed: Seed = None, return_plan: bool = False) -> Output:
    """Albumentations' ToSepia matrix on a sample's RGB (float sums, rounded half to even,
    saturated, as cv2.transform), with probability `probability`.

    Args:
      images: uint8 `[B, H, W, C]`; gray images and alpha are left alone.
      probability: probability that a sample turns sepia.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    return parameterless_stage(images, "sepia", probability, seed, return_plan)


def _needs_channels_above(images: tf.Tensor, most: int) -> tf.Tensor:
    """`images`, failing at run time unless they have more than `most` channels: a reshape to
    [B, H, W, max(C, most + 1)] that names the rule (an Assert would put string constants, which
    have no GPU kernel, into a device stage)."""
    if images.shape[-1] is not None:
        return images
    return _checks.run_time(images, tf.shape(images)[3] > most,
                            "ChannelDropout_needs_more_channels_than_channel_drop_range_max")


def check_channel_dropout_args(channel_drop_range: Tuple[int, int], fill: float,
                               probability: float) -> Tuple[int, int]:
    """channel_drop_range as two ints, after the checks that need no images."""
    lo, hi = (int(v) for v in channel_drop_range)
    if not 1 <= lo <= hi:
        raise ValueError(f"channel_drop_range must be (min, max) with 1 <= min <= max, got {channel_drop_range}")
    if not 0.0 <= fill <= 255.0:
        raise ValueError(f"fill must be a level in [0, 255], got {fill}")
    _check_probability(probability)
    return lo, hi


def check_salt_and_pepper_args(amount: Tuple[float, float], salt_vs_pepper: Tuple[float, float],
                               probability: float) -> None:
    check_range("amount", tuple(amount), 0.0, 1.0)
    check_range("salt_vs_pepper", tuple(salt_vs_pepper), 0.0, 1.0)
    _check_probability(probability)


def channel_dropout(images: Images, channel_drop_range: Tuple[int, int] = (1, 1), fill: float = 0.0,
                    probability: float = 0.5, seed: Seed = None, return_plan: bool = False) -> Output:
    """k channels of a sample (k uniform in `channel_drop_range`, the channels uniform without
    replacement) set to the level `fill`, with probability `probability` (Albumentations'
    ChannelDropout).

    Args:
      images: uint8 `[B, H, W, C]`, 3 or 4 channels (alpha can be dropped, as there).
      channel_drop_range: (min, max) channels dropped, 1 <= min <= max < C (checked at graph
        construction when C is static, else when the batch runs).
      fill: the level dropped channels take, in [0, 255] (rounded).
      probability: probability that a sample loses channels.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    lo, hi = check_channel_dropout_args(channel_drop_range, fill, probability)
    images, n, (s_count, s_pick, s_apply) = _draws(images, seed, 3)
    channels = images.shape[-1]
    if channels is not None and hi >= channels:
        raise ValueError(f"ChannelDropout would drop up to {hi} of {channels} channels: at least one must stay "
                         "(channel_drop_range's max below the channel count)")
    images = _needs_channels_above(images, hi)
    c = tf.shape(images)[3]
    count = tf.random.stateless_uniform([n], s_count, lo, hi + 1, tf.int32)
    # channels in a uniform random order per sample: the first `count` of it are dropped
    rank = tf.argsort(tf.argsort(tf.random.stateless_uniform(tf.stack([n, c]), s_pick), axis=1), axis=1)
    channel_bits = tf.bitwise.left_shift(tf.ones([c], tf.int32), tf.range(c))
    bits = tf.reduce_sum(tf.where(rank < count[:, None], channel_bits, 0), axis=1)
    aux = tf.stack([tf.zeros([n]), tf.fill([n], float(round(fill)))], axis=1)
    return _one_stage(images, "channel_dropout", tf.cast(bits, tf.float32),
                      tf.random.stateless_uniform([n], s_apply) < probability, aux=aux, return_plan=return_plan)


def pixel_dropout_plan(n, dropout_prob: float, per_channel: bool, level: float, probability: float,
                       seed: Seed) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor]:
    """pixel_dropout's kernel stages for `n` samples: `[n, 1]` op ids, `[n, 1]` parameters and
    `[n, 1, 2]` aux numbers (the stream's uniform, `level`; negative: random levels)."""
    from tfgpuaug.augment.ops import OP_IDS
    from tfgpuaug.geometry import _seed_tensor
    s_stream, s_apply = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), 2))
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    name = "pixel_dropout_per_channel" if per_channel else "pixel_dropout"
    op_ids = tf.where(apply, OP_IDS[name], OP_IDS["identity"])[:, None]
    params = tf.where(apply, float(dropout_prob), 0.0)[:, None]
    aux = tf.stack([tf.random.stateless_uniform([n], s_stream), tf.fill([n], float(level))], axis=1)
    return op_ids, params, aux[:, None, :]


def check_pixel_dropout_args(dropout_prob: float, probability: float) -> None:
    if not 0.0 <= dropout_prob <= 1.0:
        raise ValueError(f"dropout_prob must be in [0, 1], got {dropout_prob}")
    _check_probability(probability)


def pixel_dropout(images: Images, dropout_prob: float = 0.01, per_channel: bool = False,
                  drop_value: Optional[float] = 0.0, probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Each pixel of a sample (each byte with `per_channel`) replaced by `drop_value` with
    probability `dropout_prob`, in samples drawn with probability `probability`
    (Albumentations' PixelDropout with one drop value).

    Args:
      images: uint8 `[B, H, W, C]`, every channel (alpha too, as there).
      dropout_prob: probability that a pixel (or byte) is dropped, in [0, 1].
      per_channel: drop each channel of a pixel on its own.
      drop_value: the level dropped bytes take (rounded), or None for a uniform random level
        per dropped byte.
      probability: probability that a sample gets dropout at all.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    from tfgpuaug.augment.ops import apply_stages, check_images
    check_pixel_dropout_args(dropout_prob, probability)
    if drop_value is not None and not 0.0 <= drop_value <= 255.0:
        raise ValueError(f"drop_value must be a level in [0, 255] or None, got {drop_value}")
    images = check_images(images)
    plan = pixel_dropout_plan(tf.shape(images)[0], dropout_prob, per_channel,
                              -1.0 if drop_value is None else drop_value, probability, seed)
    return apply_stages(images, *plan)


def salt_and_pepper(images: Images, amount: Tuple[float, float] = (0.01, 0.06),
                    salt_vs_pepper: Tuple[float, float] = (0.4, 0.6), probability: float = 0.5, seed: Seed = None,
                    return_plan: bool = False) -> Output:
    """Each pixel of a sample becomes noise with probability `amount`, salt (255 in every
    channel) with probability `salt_vs_pepper` of those, else pepper (0); both drawn uniformly
    from their ranges per sample, in samples drawn with probability `probability`
    (Albumentations' SaltAndPepper, with a binomial count of noisy pixels where it picks exactly
    int(H W amount)).

    Args:
      images: uint8 `[B, H, W, C]`, every channel.
      amount: (min, max) share of the pixels that become noise, within [0, 1].
      salt_vs_pepper: (min, max) share of the noisy pixels that are salt, within [0, 1].
      probability: probability that a sample gets noise.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    check_salt_and_pepper_args(amount, salt_vs_pepper, probability)
    images, n, (s_amount, s_salt, s_stream, s_apply) = _draws(images, seed, 4)
    share = tf.random.stateless_uniform([n], s_amount, *amount)
    aux = tf.stack([tf.random.stateless_uniform([n], s_stream),
                    tf.random.stateless_uniform([n], s_salt, *salt_vs_pepper)], axis=1)
    return _one_stage(images, "salt_and_pepper", share, tf.random.stateless_uniform([n], s_apply) < probability,
                      aux=aux, return_plan=return_plan)
