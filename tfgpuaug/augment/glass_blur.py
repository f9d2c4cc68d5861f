"""Albumentations' GlassBlur ("fast" mode) per sample: cv2.GaussianBlur, then per iteration every
pixel of the interior swapped with a random neighbour as numpy's fancy assignment does it (all
reads first; the interior takes its neighbours' values, then each neighbour the value of the
last interior pixel that chose it), then cv2.GaussianBlur again. The swaps are one GlassSwaps
kernel op (its draws a counter hash of each sample's seed, so no displacement tensor is made)
between two Filter2D blurs with OpenCV's 8-bit Gaussian taps."""
from __future__ import annotations

from typing import Tuple

import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.kernel_blurs import MAX_SIDE, _identity_where_skipped, filter2d
from tfgpuaug.augment.opencv_gaussian import kernel_8bit, side_for_sigma
from tfgpuaug.augment.photometric import _check_probability, _draws

GLASS_MODES = ("fast",)
MAX_ITERATIONS = 16


def check_glass_blur_args(sigma, max_delta, iterations, mode, probability) -> Tuple[float, int, int]:
    who = "GlassBlur"
    if not 0.0 < float(sigma) or side_for_sigma(float(sigma)) > MAX_SIDE:
        raise ValueError(f"{who}: sigma must be > 0 with a Gaussian side round(6 sigma + 1) of at most {MAX_SIDE} "
                         f"(sigma below about 10.3), got {sigma!r}")
    if not isinstance(max_delta, int) or not 1 <= max_delta <= 64:
        raise ValueError(f"{who}: max_delta (how far a pixel may move) must be a whole number in [1, 64], "
                         f"got {max_delta!r}")
    if not isinstance(iterations, int) or not 1 <= iterations <= MAX_ITERATIONS:
        raise ValueError(f"{who}: iterations must be a whole number in [1, {MAX_ITERATIONS}], got {iterations!r}")
    if mode not in GLASS_MODES:
        raise ValueError(f"{who}: mode must be 'fast', got {mode!r} (Albumentations' 'exact' mode swaps one pixel "
                         "at a time in a Python loop, each swap seeing the ones before: not available here; "
                         "docs/augmentations.md says why)")
    _check_probability(probability)
    return float(sigma), max_delta, iterations


def glass_swaps(images: Images, seeds: tf.Tensor, apply: tf.Tensor, max_delta: int, iterations: int) -> tf.Tensor:
    """GlassBlur's swaps (the GlassSwaps kernel op): `iterations` rounds, each as Albumentations'
    numpy statement `x[h, w], x[h + dy, w + dx] = x[h + dy, w + dx], x[h, w]` over the interior
    (rows and columns m + 1 .. side - m, m = `max_delta`, in Albumentations' order: rows from
    H - m down fastest, then columns from W - m down), (dy, dx) integers in [-m, m) drawn by a
    counter hash of each sample's seed, the round and the pixel.

    Args:
      images: uint8 `[B, H, W, C]`.
      seeds: int32 `[B]`, each sample's seed.
      apply: bool `[B]`: samples to swap (the rest are copied).
      max_delta: how far a pixel may move, 1 .. 64.
      iterations: rounds of swaps, 1 .. 16.
    """
    from tfgpuaug.augment.ops import check_images
    return _loader.ops().tf_gpu_aug_glass_swaps(check_images(images), tf.convert_to_tensor(seeds, tf.int32),
                                                tf.convert_to_tensor(apply, tf.bool), max_delta=max_delta,
                                                iterations=iterations)


def glassed(images: tf.Tensor, sigma: float, max_delta: int, iterations: int, seeds: tf.Tensor,
            apply: tf.Tensor) -> tf.Tensor:
    """GlassBlur "fast" where `apply` `[B]` says: the swaps drawn from `seeds` `[B]` between two
    Gaussian blurs (the identity kernel for the other samples)."""
    kernels = _identity_where_skipped(
        tf.tile(kernel_8bit(side_for_sigma(sigma), sigma), tf.stack([tf.shape(images)[0], 1, 1])), apply)
    blurred = filter2d(images, kernels, ties_up=True)
    return filter2d(glass_swaps(blurred, seeds, apply, max_delta, iterations), kernels, ties_up=True)


def glass_blur(images: Images, sigma: float = 0.7, max_delta: int = 4, iterations: int = 2, mode: str = "fast",
               probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' GlassBlur, "fast" mode: with probability `probability` per sample, the image
    blurred by cv2.GaussianBlur with `sigma` (side round(6 sigma + 1) made odd, reflect-101), then
    `iterations` times each interior pixel (rows and columns m + 1 .. side - m, m = `max_delta`)
    swapped with the pixel (dy, dx) away, dy and dx integers uniform in [-m, m): all reads first,
    the interior takes its chosen neighbours' values, then each chosen pixel the value of the
    last interior pixel (in Albumentations' order) that chose it; then blurred again.

    Args:
      images: uint8 `[B, H, W, C]`, H and W above 2 max_delta.
      sigma: the Gaussian's standard deviation, > 0.
      max_delta: how far a pixel may move, 1 .. 64.
      iterations: rounds of swaps, 1 .. 16.
      mode: "fast" (Albumentations' default).
      probability: per-sample probability.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    sigma, max_delta, iterations = check_glass_blur_args(sigma, max_delta, iterations, mode, probability)
    images, n, seeds = _draws(images, seed, 2)
    for axis, name in ((1, "height"), (2, "width")):
        if images.shape[axis] is not None and images.shape[axis] <= 2 * max_delta:
            raise ValueError(f"GlassBlur: the image {name} {images.shape[axis]} must be above 2 max_delta = "
                             f"{2 * max_delta} (pixels move within the interior)")
    seeds_per_sample = tf.random.stateless_uniform([n], seeds[0], minval=None, maxval=None, dtype=tf.int32)
    apply = tf.random.stateless_uniform([n], seeds[1]) < probability
    return glassed(images, sigma, max_delta, iterations, seeds_per_sample, apply)
