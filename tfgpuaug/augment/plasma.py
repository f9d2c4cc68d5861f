"""Albumentations' PlasmaBrightnessContrast and PlasmaShadow per sample: a plasma fractal
(diamond-square, Albumentations' steps) drawn per sample in the graph, then brightness and
contrast, or a shadow, weighted by it pixel by pixel. TensorFlow ops over the batch: the pattern
is a map, not a stage's three numbers."""
from __future__ import annotations

import math
from typing import Tuple

import numpy as np
import tensorflow as tf

from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability, _draws, check_range

Range = Tuple[float, float]
def plasma_steps(height: int, width: int) -> int:
    """Albumentations' number of diamond-square steps from a 3 x 3 grid: the grid reaches
    2^k + 1 >= the longer side (k >= 1)."""
    side = 2 ** math.ceil(math.log2(max(height, width, 3) - 1)) + 1
    return int(math.log2(side - 1) - 1)


def _min_max(grid: tf.Tensor) -> tf.Tensor:
    """cv2.normalize(NORM_MINMAX) to [0, 1] per sample; a flat grid becomes zeros."""
    low = tf.reduce_min(grid, axis=[1, 2, 3], keepdims=True)
    span = tf.reduce_max(grid, axis=[1, 2, 3], keepdims=True) - low
    scale = tf.where(span > 2.220446049250313e-16, 1.0 / tf.maximum(span, 1e-30), 0.0)
    return (grid - low) * scale


def _interleave_columns(even: tf.Tensor, odd: tf.Tensor) -> tf.Tensor:
    """[n, r, g, 1] and [n, r, g - 1, 1] to [n, r, 2g - 1, 1]: even columns from `even`, odd
    from `odd`."""
    n, r, g = tf.shape(even)[0], tf.shape(even)[1], tf.shape(even)[2]
    pairs = tf.reshape(tf.stack([even[:, :, :-1], odd], axis=3), [n, r, 2 * g - 2, 1])
    return tf.concat([pairs, even[:, :, -1:]], axis=2)


def _where_positive(mean: tf.Tensor, noise: tf.Tensor) -> tf.Tensor:
    return tf.where(mean > 0.0, mean + noise, 0.0)


def _diamond_square(grid: tf.Tensor, scale: float, seed: tf.Tensor) -> tf.Tensor:
    """One of Albumentations' steps on an [n, g, g, 1] grid, to [n, 2g - 1, 2g - 1, 1]: the old
    points (even rows and columns) plus noise; the diamond step at odd rows and columns (the
    mean of the four diagonal neighbours); the square step at the others (the mean of the
    four edge neighbours, zeros past the border); a mean that is not positive leaves its point
    at zero, as Albumentations' mask does; noise uniform in +-scale, one value a point.
    Albumentations convolves the whole spread grid; every kernel tap that lands on a point not
    yet set reads zero, so each lattice is computed alone here (a quarter of the grid each)."""
    n, g = tf.shape(grid)[0], tf.shape(grid)[1]
    s_old, s_diamond, s_rows, s_columns = tf.unstack(tf.random.experimental.stateless_split(seed, 4))
    uniform = lambda shape, s: tf.random.stateless_uniform(shape, s, -scale, scale)  # noqa: E731
    old = grid + uniform(tf.stack([n, g, g, 1]), s_old)
    diamond = _where_positive(((old[:, :-1, :-1] + old[:, :-1, 1:]) + (old[:, 1:, :-1] + old[:, 1:, 1:])) * 0.25,
                              uniform(tf.stack([n, g - 1, g - 1, 1]), s_diamond))
    rows_padded = tf.pad(diamond, [[0, 0], [1, 1], [0, 0], [0, 0]])  # zero rows above and below
    columns_padded = tf.pad(diamond, [[0, 0], [0, 0], [1, 1], [0, 0]])
    # even rows, odd columns: old points left and right, diamond points above and below
    across = _where_positive(((rows_padded[:, :-1] + old[:, :, :-1]) + (old[:, :, 1:] + rows_padded[:, 1:])) * 0.25,
                             uniform(tf.stack([n, g, g - 1, 1]), s_rows))
    # odd rows, even columns: old points above and below, diamond points left and right
    down = _where_positive(((old[:, :-1] + columns_padded[:, :, :-1]) + (columns_padded[:, :, 1:] + old[:, 1:])) * 0.25,
                           uniform(tf.stack([n, g - 1, g, 1]), s_columns))
    even_rows = _interleave_columns(old, across)  # [n, g, 2g - 1]
    odd_rows = _interleave_columns(down, diamond)  # [n, g - 1, 2g - 1]
    width = 2 * g - 1
    pairs = tf.reshape(tf.stack([even_rows[:, :-1], odd_rows], axis=2), [n, 2 * g - 2, width, 1])
    return tf.concat([pairs, even_rows[:, -1:]], axis=1)


def plasma_pattern(n, height: int, width: int, roughness: float, seed: tf.Tensor) -> tf.Tensor:
    """`[n, height, width]` plasma fractals in [0, 1] (each min-max normalised): a 3 x 3 grid
    uniform in [-1, 1), then `plasma_steps` diamond-square steps, step i's noise uniform in
    +-roughness^i, each step's grid min-max normalised, cropped to the image's size and
    normalised again (Albumentations' generate_plasma_pattern)."""
    steps = plasma_steps(height, width)
    seeds = tf.unstack(tf.random.experimental.stateless_split(seed, steps + 1))
    grid = tf.random.stateless_uniform(tf.stack([n, 3, 3, 1]), seeds[0], -1.0, 1.0)
    for i in range(steps):
        grid = _min_max(_diamond_square(grid, float(np.float32(roughness ** i)), seeds[i + 1]))
    return tf.clip_by_value(_min_max(grid[:, :height, :width]), 0.0, 1.0)[..., 0]


def _static_size(images: tf.Tensor, name: str) -> Tuple[int, int]:
    height, width = images.shape[1], images.shape[2]
    if height is None or width is None:
        raise ValueError(f"{name} needs images of a static height and width (the fractal's number of steps is set "
                         f"when the graph is built), got shape {images.shape}: resize or crop to a fixed size first")
    return int(height), int(width)


def check_roughness(roughness: float) -> float:
    if not roughness > 0 or not math.isfinite(roughness):
        raise ValueError(f"roughness must be a positive number, got {roughness}")
    return float(roughness)


def shadow_from_pattern(images: tf.Tensor, intensity: tf.Tensor, pattern: tf.Tensor) -> tf.Tensor:
    """v (1 - intensity pattern), float32, clipped and truncated (Albumentations' apply_plasma_shadow)."""
    weights = 1.0 - pattern * intensity[:, None, None]
    out = tf.cast(images, tf.float32) * weights[..., None]
    return tf.cast(tf.clip_by_value(out, 0.0, 255.0), tf.uint8)


def brightness_contrast_from_pattern(images: tf.Tensor, brightness: tf.Tensor, contrast: tf.Tensor,
                                     pattern: tf.Tensor) -> tf.Tensor:
    """Albumentations' apply_plasma_brightness_contrast in float32, each step clipped to [0, 1]
    as its albucore operations clip: x = clip(v / 255 + p b); w = p c + 1; x = clip(x w);
    x = clip(x + mean (1 - w)), the mean of the brightened sample; rint(255 x) half to even.
    Albumentations also clips p b and p c to [0, 1], so its negative brightness and contrast do
    nothing; here they darken and flatten, as their ranges promise (equal bytes for b, c >= 0)."""
    x = tf.cast(images, tf.float32) / 255.0
    p = pattern[..., None]
    x = tf.clip_by_value(x + p * brightness[:, None, None, None], 0.0, 1.0)
    weights = p * contrast[:, None, None, None] + 1.0
    mean = tf.reduce_mean(x, axis=[1, 2, 3], keepdims=True)
    x = tf.clip_by_value(x * weights, 0.0, 1.0)
    x = tf.clip_by_value(x + mean * (1.0 - weights), 0.0, 1.0)
    return tf.cast(tf.math.round(x * 255.0), tf.uint8)  # half to even


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
