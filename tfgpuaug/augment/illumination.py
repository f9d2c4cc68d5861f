"""Albumentations' Illumination per sample: the image times a smooth light pattern, a linear
gradient, a fall-off from a corner or a Gaussian spot, brightening or darkening; one of three
stages of the fused augment kernel (`illumination_linear`, `_corner`, `_gaussian` in
cc/kernels/augment/illumination.h), its parameters drawn per sample in the graph."""
from __future__ import annotations

from typing import Tuple

import tensorflow as tf

from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability, _draws, _one_stage, check_range

Range = Tuple[float, float]
MODES = ("linear", "corner", "gaussian")
EFFECTS = ("brighten", "darken", "both")
# The gaussian stage takes its centre as one number, 4096 qx + qy, each coordinate rounded to
# 4095ths of its side (a twentieth of a pixel on a 224-pixel side).
CENTRE_STEPS = 4095


def check_illumination_args(mode: str, intensity_range, effect_type: str, angle_range, center_range, sigma_range,
                            probability: float):
    """The checked ranges (intensity, angle, center, sigma). Albumentations' own bounds, except
    that intensity may reach 1 and sigma 0.01 .. 10 (the kernel holds intensity to [-1, 1])."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if effect_type not in EFFECTS:
        raise ValueError(f"effect_type must be one of {EFFECTS}, got {effect_type!r}")
    _check_probability(probability)
    return (check_range("intensity_range", intensity_range, 0.0, 1.0),
            check_range("angle_range", angle_range, 0.0, 360.0),
            check_range("center_range", center_range, 0.0, 1.0),
            check_range("sigma_range", sigma_range, 0.01, 10.0))


def pack_centre(x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
    """The gaussian stage's centre number for centres (x, y) in fractions of the width and height."""
    qx, qy = (tf.round(tf.clip_by_value(v, 0.0, 1.0) * CENTRE_STEPS) for v in (x, y))
    return qx * 4096.0 + qy


def illumination(images: Images, mode: str = "linear", intensity_range: Range = (0.01, 0.2),
                 effect_type: str = "both", angle_range: Range = (0.0, 360.0), center_range: Range = (0.1, 0.9),
                 sigma_range: Range = (0.2, 1.0), probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' Illumination per sample, with probability `probability`: every byte times
    a light pattern m(y, x), intensity i uniform in `intensity_range`, brightening (+i),
    darkening (-i) or either with even odds (`effect_type`).

    - "linear": a gradient g over the image at an angle uniform in `angle_range` (degrees;
      Albumentations' rules: 0, 90, 180, 270 a ramp along the rows or columns, 45, 135, 225,
      315 the diagonal normalised to [0, 1], other angles x cos + y sin of the [0, 1] ramps,
      not normalised), reversed for darkening; m = 2 abs(i) g + 1 - abs(i); bytes rounded
      through v / 255 as Albumentations' float32 conversion does.
    - "corner": m = 1 - i d / diagonal, d the distance to a random corner pixel.
    - "gaussian": m = 1 + i exp(-r^2 / (2 (sigma max(H, W))^2)), r the distance to a centre at
      fractions of the width and height uniform in `center_range` (rounded to 4095ths of the
      side), sigma uniform in `sigma_range`.

    Corner and gaussian truncate v m, clipped, as Albumentations does. All channels (alpha too,
    as there).

    Args:
      images: uint8 `[B, H, W, C]`, 1, 3 or 4 channels.
      mode: "linear", "corner" or "gaussian".
      intensity_range: (min, max) of the intensity, within [0, 1] (Albumentations: [0.01, 0.2]).
      effect_type: "brighten", "darken" or "both".
      angle_range: (min, max) degrees of the linear gradient, within [0, 360].
      center_range: (min, max) of the gaussian centre's coordinates, fractions of the side.
      sigma_range: (min, max) of the gaussian's width, a fraction of the longer side.
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    intensity, angle, centre, sigma = check_illumination_args(mode, intensity_range, effect_type, angle_range,
                                                              center_range, sigma_range, probability)
    images, n, seeds = _draws(images, seed, 6)
    s_intensity, s_sign, s_first, s_second, s_sigma, s_apply = seeds
    value = tf.random.stateless_uniform([n], s_intensity, intensity[0], intensity[1])
    if effect_type == "both":
        value = tf.where(tf.random.stateless_uniform([n], s_sign) > 0.5, value, -value)
    elif effect_type == "darken":
        value = -value
    if mode == "linear":
        turns = tf.random.stateless_uniform([n], s_first, angle[0], angle[1]) / 360.0
        aux = tf.stack([turns, tf.zeros([n])], axis=1)
    elif mode == "corner":
        corner = tf.random.stateless_uniform([n], s_first, 0, 4, dtype=tf.int32)
        aux = tf.stack([(tf.cast(corner, tf.float32) + 0.5) / 4.0, tf.zeros([n])], axis=1)
    else:
        x = tf.random.stateless_uniform([n], s_first, centre[0], centre[1])
        y = tf.random.stateless_uniform([n], s_second, centre[0], centre[1])
        aux = tf.stack([pack_centre(x, y), tf.random.stateless_uniform([n], s_sigma, sigma[0], sigma[1])], axis=1)
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    return _one_stage(images, f"illumination_{mode}", value, apply, aux=aux)
