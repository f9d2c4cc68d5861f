"""Albumentations' UnsharpMask per sample, by the UnsharpMask kernel op
(cc/kernels/augment/unsharp_mask.h): in levels L = v / 255, the Gaussian blur of L (OpenCV's
kernel for the sample's odd side and sigma, reflect-101 border), a mask where L and its blur
differ by more than `threshold` levels, that mask blurred the same way (soft), and
rint(255 (clip(L + alpha (L - blur), 0, 1) soft + L (1 - soft))). The kernel weights are built
here as cv2.getGaussianKernel builds them (its fixed tables for sides up to 9 with sigma 0)."""
from __future__ import annotations

from typing import Tuple, Union

import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability, _draws

MAX_SIDE = 63  # kMaxUnsharpTaps of cc/kernels/augment/unsharp_mask.h

# cv2.getGaussianKernel's fixed kernels for sigma <= 0 and sides 1 .. 9 (OpenCV 4.x)
_SMALL_KERNELS = {1: [1.0], 3: [0.25, 0.5, 0.25], 5: [0.0625, 0.25, 0.375, 0.25, 0.0625],
                  7: [0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125],
                  9: [v / 256.0 for v in (4, 13, 30, 51, 60, 51, 30, 13, 4)]}


def _range(name: str, value, low: float, high: float) -> Tuple[float, float]:
    pair = (0.0, float(value)) if isinstance(value, (int, float)) else tuple(float(v) for v in value)
    if len(pair) != 2 or not low <= pair[0] <= pair[1] <= high:
        raise ValueError(f"UnsharpMask: {name} must be a number or (min, max) with {low} <= min <= max <= {high}, "
                         f"got {value!r}")
    return pair


def check_unsharp_mask_args(blur_limit, sigma_limit, alpha, threshold, probability):
    """The checked (blur_limit, sigma_limit, alpha) ranges, as Albumentations reads them: one
    side k means (3, k), one sigma s (0, s), one alpha a (0, a)."""
    sides = (3, blur_limit) if isinstance(blur_limit, int) else tuple(blur_limit)
    if (len(sides) != 2 or not all(isinstance(s, int) and s % 2 == 1 for s in sides)
            or not 3 <= sides[0] <= sides[1] <= MAX_SIDE):
        raise ValueError(f"UnsharpMask: blur_limit must be an odd side or (min, max) of odd sides within [3, "
                         f"{MAX_SIDE}], got {blur_limit!r} (Albumentations rounds even sides up: pass the odd ones)")
    sigmas = _range("sigma_limit", sigma_limit, 0.0, 1e3)
    alphas = _range("alpha", alpha, 0.0, 1.0)
    if not (isinstance(threshold, int) and 0 <= threshold <= 255):
        raise ValueError(f"UnsharpMask: threshold must be an int in [0, 255] (levels), got {threshold!r}")
    _check_probability(probability)
    return sides, sigmas, alphas


def gaussian_kernels(sides: tf.Tensor, sigmas: tf.Tensor, taps: int) -> tf.Tensor:
    """cv2.getGaussianKernel(side, sigma) per sample as float32 `[n, taps]` rows, each centred
    and zero beyond its side: sigma <= 0 and side <= 9 take OpenCV's fixed kernels; otherwise
    sigma (or 0.3 ((side - 1) / 2 - 1) + 0.8 when it is <= 0) and exp(-x^2 / (2 sigma^2)) in
    float64, times the reciprocal of their sum, rounded to float32."""
    sides = tf.cast(sides, tf.float64)[:, None]
    sigmas = tf.cast(sigmas, tf.float64)[:, None]
    x = tf.range(taps, dtype=tf.float64)[None, :] - (taps - 1) / 2.0
    inside = tf.abs(x) <= (sides - 1.0) / 2.0
    sigma = tf.where(sigmas > 0.0, sigmas, 0.3 * ((sides - 1.0) * 0.5 - 1.0) + 0.8)
    scale = -0.5 / (sigma * sigma)
    t = tf.where(inside, tf.exp(scale * x * x), 0.0)
    computed = t * (1.0 / tf.reduce_sum(t, axis=1, keepdims=True))
    table = tf.constant([[0.0] * ((taps - k) // 2) + _SMALL_KERNELS[k] + [0.0] * ((taps - k) // 2)
                         if k <= taps else [0.0] * taps for k in (1, 3, 5, 7, 9)], tf.float64)
    index = tf.cast(tf.clip_by_value((sides[:, 0] - 1.0) / 2.0, 0.0, 4.0), tf.int32)
    small = tf.gather(table, index)
    fixed = (sigmas <= 0.0) & (sides <= 9.0)
    return tf.cast(tf.where(fixed, small, computed), tf.float32)


def unsharp_mask_op(images: tf.Tensor, weights: tf.Tensor, alpha: tf.Tensor, threshold: tf.Tensor) -> tf.Tensor:
    """The UnsharpMask kernel op: uint8 `[B, H, W, C]`, weights `[B, taps]` (odd taps, at most
    63), alpha `[B]`, threshold `[B]` in levels."""
    return _loader.ops().tf_gpu_aug_unsharp_mask(images, weights, alpha, threshold)


def unsharp_mask(images: Images, blur_limit: Union[int, Tuple[int, int]] = (3, 7),
                 sigma_limit: Union[float, Tuple[float, float]] = 0.0,
                 alpha: Union[float, Tuple[float, float]] = (0.2, 0.5), threshold: int = 10,
                 probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' UnsharpMask per sample, with probability `probability`: the side drawn
    uniformly among the odd ones in `blur_limit`, sigma and alpha uniformly in their ranges.

    Args:
      images: uint8 `[B, H, W, C]` (every channel, as Albumentations).
      blur_limit: odd Gaussian side, or (min, max) of odd sides, within [3, 63]; one side k
        means (3, k).
      sigma_limit: (min, max) Gaussian sigma; 0 takes OpenCV's sigma for the side; one number s
        means (0, s).
      alpha: (min, max) sharpening amount within [0, 1]; one number a means (0, a).
      threshold: levels (0 .. 255) a pixel must differ from its blur by to be sharpened.
      probability: probability that a sample is sharpened.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    sides, sigmas, alphas = check_unsharp_mask_args(blur_limit, sigma_limit, alpha, threshold, probability)
    images, n, (s_side, s_sigma, s_alpha, s_apply) = _draws(images, seed, 4)
    choices = (sides[1] - sides[0]) // 2 + 1
    side = sides[0] + 2 * tf.random.stateless_uniform([n], s_side, 0, choices, dtype=tf.int32)
    sigma = tf.random.stateless_uniform([n], s_sigma, sigmas[0], sigmas[1])
    amount = tf.random.stateless_uniform([n], s_alpha, alphas[0], alphas[1])
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    # a sample left alone takes the identity kernel and alpha 0: its blur is its levels, its
    # mask empty, its bytes returned as they are (one pass for the batch, no select)
    weights = gaussian_kernels(side, sigma, sides[1])
    identity = tf.one_hot(tf.fill([n], sides[1] // 2), sides[1], dtype=tf.float32)
    weights = tf.where(apply[:, None], weights, identity)
    amount = tf.where(apply, amount, 0.0)
    return unsharp_mask_op(images, weights, amount, tf.fill([n], float(threshold)))
