"""Albumentations' PlasmaBrightnessContrast and PlasmaShadow per sample: a plasma fractal
(diamond-square, Albumentations' steps) drawn per sample by the PlasmaPattern kernel op, then
brightness and contrast, or a shadow, weighted by it pixel by pixel by the PatternBlend kernel
op."""
from __future__ import annotations

import math
from typing import Tuple

import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability, _draws, check_range

Range = Tuple[float, float]
PLASMA_LARGEST_SIDE = 8192  # the op's limit: its last grid of 8193^2 points takes 805 MB a sample


def plasma_steps(height: int, width: int) -> int:
    """Albumentations' number of diamond-square steps from a 3 x 3 grid: the grid reaches
    2^k + 1 >= the longer side (k >= 1)."""
    side = 2 ** math.ceil(math.log2(max(height, width, 3) - 1)) + 1
    return int(math.log2(side - 1) - 1)


def plasma_pattern(n, height: int, width: int, roughness: float, seed: tf.Tensor) -> tf.Tensor:
    """`[n, height, width]` plasma fractals in [0, 1] (the PlasmaPattern kernel op), each min-max
    normalised: a 3 x 3 grid uniform in [-1, 1), then `plasma_steps` diamond-square steps, step
    i's noise uniform in +-roughness^i, each step's grid min-max normalised, cropped to the
    image's size and normalised again (Albumentations' generate_plasma_pattern). The noise is a
    counter hash of each sample's seed (drawn from `seed`), the step and the point."""
    seeds = tf.random.stateless_uniform(tf.reshape(n, [1]), seed, minval=None, maxval=None, dtype=tf.int32)
    return _loader.ops().tf_gpu_aug_plasma_pattern(seeds, tf.constant([height, width], tf.int32),
                                                   roughness=float(roughness))


def _static_size(images: tf.Tensor, name: str) -> Tuple[int, int]:
    height, width = images.shape[1], images.shape[2]
    if height is None or width is None:
        raise ValueError(f"{name} needs images of a static height and width (the fractal's number of steps is set "
                         f"when the graph is built), got shape {images.shape}: resize or crop to a fixed size first")
    if max(height, width) > PLASMA_LARGEST_SIDE:
        raise ValueError(f"{name} draws plasma fractals up to {PLASMA_LARGEST_SIDE} pixels on a side (each takes "
                         f"hundreds of MB of scratch beyond that), got images of shape {images.shape}: apply it "
                         f"after resizing")
    return int(height), int(width)


def check_roughness(roughness: float) -> float:
    if not roughness > 0 or not math.isfinite(roughness):
        raise ValueError(f"roughness must be a positive number, got {roughness}")
    return float(roughness)


def shadow_from_pattern(images: tf.Tensor, intensity: tf.Tensor, pattern: tf.Tensor) -> tf.Tensor:
    """v (1 - intensity pattern), float32, clipped and truncated (Albumentations'
    apply_plasma_shadow), by the PatternBlend kernel op."""
    factors = tf.stack([intensity, tf.zeros_like(intensity)], axis=1)
    return _loader.ops().tf_gpu_aug_pattern_blend(images, pattern, factors, mode="shadow")


def brightness_contrast_from_pattern(images: tf.Tensor, brightness: tf.Tensor, contrast: tf.Tensor,
                                     pattern: tf.Tensor) -> tf.Tensor:
    """Albumentations' apply_plasma_brightness_contrast in float32, each step clipped to [0, 1]
    as its albucore operations clip: x = clip(v / 255 + p b); w = p c + 1; x = clip(x w);
    x = clip(x + mean (1 - w)), the mean of the brightened sample; rint(255 x) half to even (the
    PatternBlend kernel op; the mean summed in 2^-24 steps, so either device gets the same one).
    Albumentations also clips p b and p c to [0, 1], so its negative brightness and contrast do
    nothing; here they darken and flatten, as their ranges promise (equal bytes for b, c >= 0,
    but for the mean's rounding)."""
    factors = tf.stack([brightness, contrast], axis=1)
    return _loader.ops().tf_gpu_aug_pattern_blend(images, pattern, factors, mode="brightness_contrast")


def plasma_shadow(images: Images, shadow_intensity_range: Range = (0.3, 0.7), roughness: float = 3.0,
                  probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' PlasmaShadow per sample, with probability `probability`: bytes times
    1 - intensity * plasma, intensity uniform in `shadow_intensity_range`, the plasma fractal
    drawn per sample; the float32 product clipped and truncated, as there. Samples left alone
    take intensity 0 (their bytes unchanged).

    Args:
      images: uint8 `[B, H, W, C]` of a static height and width; every channel.
      shadow_intensity_range: (min, max) within [0, 1].
      roughness: the fractal's noise ratio from one step to the next (> 0; Albumentations' 3).
      probability: probability that a sample is shadowed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    low, high = check_range("shadow_intensity_range", shadow_intensity_range, 0.0, 1.0)
    roughness = check_roughness(roughness)
    _check_probability(probability)
    images, n, (s_pattern, s_intensity, s_apply) = _draws(images, seed, 3)
    height, width = _static_size(images, "plasma_shadow")
    intensity = tf.random.stateless_uniform([n], s_intensity, low, high)
    intensity = tf.where(tf.random.stateless_uniform([n], s_apply) < probability, intensity, 0.0)
    return shadow_from_pattern(images, intensity, plasma_pattern(n, height, width, roughness, s_pattern))


def plasma_brightness_contrast(images: Images, brightness_range: Range = (-0.3, 0.3),
                               contrast_range: Range = (-0.3, 0.3), roughness: float = 3.0,
                               probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' PlasmaBrightnessContrast per sample, with probability `probability`:
    brightness b and contrast c uniform in their ranges, weighted pixel by pixel by a plasma
    fractal p: x = v / 255 + p b, then x (1 + p c) + mean(x) (-p c), each step clipped to
    [0, 1], rounded back to levels half to even (float32 as Albumentations). Negative b and c
    darken and flatten (Albumentations 2.0.8 clips p b and p c at 0, so there they do nothing;
    for b, c >= 0 the bytes are its bytes). Samples left alone take b = c = 0 (their bytes
    unchanged).

    Args:
      images: uint8 `[B, H, W, C]` of a static height and width; every channel.
      brightness_range: (min, max) within [-1, 1].
      contrast_range: (min, max) within [-1, 1].
      roughness: the fractal's noise ratio from one step to the next (> 0; Albumentations' 3).
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    b_low, b_high = check_range("brightness_range", brightness_range, -1.0, 1.0)
    c_low, c_high = check_range("contrast_range", contrast_range, -1.0, 1.0)
    roughness = check_roughness(roughness)
    _check_probability(probability)
    images, n, (s_pattern, s_brightness, s_contrast, s_apply) = _draws(images, seed, 4)
    height, width = _static_size(images, "plasma_brightness_contrast")
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    brightness = tf.where(apply, tf.random.stateless_uniform([n], s_brightness, b_low, b_high), 0.0)
    contrast = tf.where(apply, tf.random.stateless_uniform([n], s_contrast, c_low, c_high), 0.0)
    return brightness_contrast_from_pattern(images, brightness, contrast,
                                            plasma_pattern(n, height, width, roughness, s_pattern))
