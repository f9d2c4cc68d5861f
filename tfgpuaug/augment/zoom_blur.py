"""Albumentations' ZoomBlur per sample: the image averaged with its central zooms by each factor
of numpy's arange(1, max_factor, step) (each the crop of ceil(side / z) resized by OpenCV's
INTER_LINEAR to int(crop z) and trimmed back), a radial blur from the centre. One ZoomBlur
kernel op (cc/kernels/augment/zoom_blur.h, CPU and GPU) does every zoom of a batch; OpenCV's
float arithmetic throughout, so the bytes equal Albumentations' wherever OpenCV runs its own
resize (with Intel IPP, which opencv-python enables by default, OpenCV's IPP resize rounds a
few values differently: within one level)."""
from __future__ import annotations

import math
from typing import Tuple, Union

import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability, _draws

MOST_ZOOMS = 256  # kMostZooms of cc/kernels/augment/zoom_blur.h
LARGEST_FACTOR = 64.0  # kLargestZoom
FloatRange = Union[float, Tuple[float, float]]


def check_zoom_blur_args(max_factor: FloatRange, step_factor: FloatRange,
                         probability: float) -> Tuple[Tuple[float, float], Tuple[float, float]]:
    """The checked (max_factor, step_factor) ranges, read as Albumentations reads them: a number
    x for max_factor means (1, x); a number s for step_factor means (0, s), which is refused
    (steps near 0 make unboundedly many zooms)."""
    who = "ZoomBlur"
    factors = (1.0, float(max_factor)) if isinstance(max_factor, (int, float)) else tuple(map(float, max_factor))
    if len(factors) != 2 or not 1.0 <= factors[0] <= factors[1] <= LARGEST_FACTOR:
        raise ValueError(f"{who}: max_factor must be a number x (meaning (1, x)) or (min, max) with "
                         f"1 <= min <= max <= {LARGEST_FACTOR:g}, got {max_factor!r}")
    if isinstance(step_factor, (int, float)):
        raise ValueError(f"{who}: step_factor {step_factor!r} would be read as Albumentations reads a number, "
                         f"(0, {step_factor!r}), and steps near 0 make unboundedly many zooms; pass "
                         f"({step_factor!r}, {step_factor!r}) for a fixed step")
    steps = tuple(map(float, step_factor))
    if len(steps) != 2 or not 0.0 < steps[0] <= steps[1] or not math.isfinite(steps[1]):
        raise ValueError(f"{who}: step_factor must be (min, max) with 0 < min <= max, got {step_factor!r}")
    zooms = math.ceil((max(factors[1], 1.0 + steps[0]) - 1.0) / steps[0])
    if zooms > MOST_ZOOMS:
        raise ValueError(f"{who}: max_factor up to {factors[1]:g} in steps from {steps[0]:g} makes up to {zooms} "
                         f"zooms a sample, above the {MOST_ZOOMS} allowed (each is a pass over the image): "
                         f"raise step_factor's min to at least {(factors[1] - 1.0) / MOST_ZOOMS:.4g}")
    _check_probability(probability)
    return factors, steps


def zoom_blur_op(images: Images, max_factors: tf.Tensor, steps: tf.Tensor) -> tf.Tensor:
    """The ZoomBlur kernel op: sample b averaged with its zooms by arange(1, max_factors[b],
    steps[b]) (float64, numpy's arange), OpenCV's float arithmetic, rounded half to even.

    Args:
      images: uint8 `[B, H, W, C]`.
      max_factors: float64 `[B]`, at most 64 (1 or less: no zoom but the identity).
      steps: float64 `[B]`, above 0; at most 256 zooms a sample are made.
    """
    from tfgpuaug.augment.ops import check_images
    return _loader.ops().tf_gpu_aug_zoom_blur(check_images(images), tf.convert_to_tensor(max_factors, tf.float64),
                                              tf.convert_to_tensor(steps, tf.float64))


def zoom_blur(images: Images, max_factor: FloatRange = (1.0, 1.31), step_factor: FloatRange = (0.01, 0.03),
              probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' ZoomBlur per sample, with probability `probability`: a step s uniform in
    `step_factor` and a largest factor max(1 + s, m), m uniform in `max_factor`; the image (as
    floats v / 255) averaged with its central zooms by every factor of arange(1, that, s), each
    resized with OpenCV's bilinear taps; clipped, times 255 and rounded half to even.

    Args:
      images: uint8 `[B, H, W, C]` (every channel, as Albumentations).
      max_factor: (min, max) largest zoom factor within [1, 64]; x means (1, x).
      step_factor: (min, max) step between factors, min above 0, at most 256 zooms in all.
      probability: probability that a sample is blurred.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    factors, steps = check_zoom_blur_args(max_factor, step_factor, probability)
    images, n, (s_step, s_factor, s_apply) = _draws(images, seed, 3)
    step = tf.random.stateless_uniform([n], s_step, steps[0], steps[1], dtype=tf.float64)
    largest = tf.maximum(1.0 + step, tf.random.stateless_uniform([n], s_factor, factors[0], factors[1],
                                                                 dtype=tf.float64))
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    # a sample left alone has no zoom: arange(1, 1, step) is empty and the op returns its bytes
    return zoom_blur_op(images, tf.where(apply, largest, 1.0), step)
