"""Albumentations' RandomSunFlare per sample. "overlay" (its default): flare circles drawn in
turn on an overlay along a line through the sun, the image blended with the overlay after each,
then the sun as src_radius // 10 concentric discs growing to src_radius, each blended the same way
with a weight that falls as the discs grow. One SunFlare kernel op (cc/kernels/augment/
sun_flare.h, CPU and GPU) does a batch; the draws are made here in float64 as Albumentations'
Python draws them. A blend is SimSIMD's weighted sum of bytes, rint(fma(a, x, (1 - a) y)) in
float32, which is what Albumentations' add_weighted runs. "physics_based": the same draws, the
flare layer and its blurs of sun_flare_physics.py."""
from __future__ import annotations

import math
from typing import Sequence, Tuple

import numpy as np
import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability
from tfgpuaug.augment.sun_flare_physics import physics_flare
from tfgpuaug.augment.weather import _check_roi, _int_of, _weather_draws

SUN_FLARE_METHODS = ("overlay", "physics_based")
MOST_CIRCLES = 64  # kMostFlareCircles of cc/kernels/augment/sun_flare.h
MOST_DISCS = 1024  # kMostSunDiscs
LARGEST_CIRCLE = 1 << 30  # flare radii rad^3 are capped here (a disc of 2^30 covers any image)


def check_sun_flare_args(flare_roi, src_radius, src_color, angle_range, num_flare_circles_range, method,
                         probability) -> tuple:
    """The checked arguments, as Albumentations validates them (the roi strictly ordered)."""
    who = "RandomSunFlare"
    roi = _check_roi("flare_roi", flare_roi, who, strict=True)
    if not isinstance(src_radius, int) or not 1 < src_radius < 10 * (MOST_DISCS + 1):
        raise ValueError(f"{who}: src_radius must be a whole number of pixels in [2, {10 * (MOST_DISCS + 1) - 1}] "
                         f"(the sun is src_radius // 10 discs, at most {MOST_DISCS}), got {src_radius!r}")
    color = tuple(src_color)
    if len(color) != 3 or not all(isinstance(v, int) and 0 <= v <= 255 for v in color):
        raise ValueError(f"{who}: src_color must be three whole levels in [0, 255] (RGB), got {src_color!r}")
    angles = tuple(float(v) for v in angle_range)
    if len(angles) != 2 or not 0.0 <= angles[0] <= angles[1] <= 1.0:
        raise ValueError(f"{who}: angle_range must be (min, max) fractions of a turn with 0 <= min <= max <= 1, "
                         f"got {angle_range!r}")
    counts = tuple(num_flare_circles_range)
    if len(counts) != 2 or not all(isinstance(v, int) for v in counts) or not 1 <= counts[0] <= counts[1] <= 64:
        raise ValueError(f"{who}: num_flare_circles_range must be (min, max) whole numbers with 1 <= min <= max <= "
                         f"{MOST_CIRCLES}, got {num_flare_circles_range!r}")
    if method not in SUN_FLARE_METHODS:
        raise ValueError(f"{who}: method must be 'overlay' or 'physics_based', got {method!r}")
    _check_probability(probability)
    return roi, src_radius, color, angles, counts


def sun_discs(src_radius: int) -> np.ndarray:
    """The sun's disc radii, int32 ascending: int() of numpy's linspace(1, src_radius,
    src_radius // 10)."""
    return np.linspace(1, src_radius, src_radius // 10).astype(np.int32)


def _linspace_from_zero(top: tf.Tensor, count: int) -> tf.Tensor:
    """numpy's linspace(0, top, count) per sample (`[n]` float64 -> `[n, count]`): i (top /
    (count - 1)), the last entry top itself."""
    if count == 1:
        return tf.zeros_like(top)[:, None]
    i = tf.range(count, dtype=tf.float64)[None, :]
    values = i * (top / (count - 1))[:, None]
    return tf.concat([values[:, :-1], top[:, None]], axis=1)


def _weights(alpha: tf.Tensor) -> tf.Tensor:
    """SimSIMD's float32 weights (alpha, 1 - alpha) of float64 alphas, on a last axis of 2."""
    return tf.stack([tf.cast(alpha, tf.float32), tf.cast(1.0 - alpha, tf.float32)], axis=-1)


def sun_flare_op(images: Images, circles, circle_weights, circle_colours, suns, sun_radii, sun_weights,
                 sun_colour) -> tf.Tensor:
    """The SunFlare kernel op (argument shapes in cc/ops/sun_flare_ops.cc)."""
    from tfgpuaug.augment.ops import check_images
    return _loader.ops().tf_gpu_aug_sun_flare(
        check_images(images), tf.convert_to_tensor(circles, tf.int32), tf.convert_to_tensor(circle_weights, tf.float32),
        tf.convert_to_tensor(circle_colours, tf.uint8), tf.convert_to_tensor(suns, tf.int32),
        tf.convert_to_tensor(sun_radii, tf.int32), tf.convert_to_tensor(sun_weights, tf.float32),
        tf.convert_to_tensor(sun_colour, tf.uint8))


def random_sun_flare(images: Images, flare_roi: Sequence[float] = (0.0, 0.0, 1.0, 0.5), src_radius: int = 400,
                     src_color: Tuple[int, int, int] = (255, 255, 255), angle_range: Tuple[float, float] = (0.0, 1.0),
                     num_flare_circles_range: Tuple[int, int] = (6, 10), method: str = "overlay",
                     probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' RandomSunFlare, with probability `probability` per sample: the sun at
    (int(W u), int(H v)), u and v uniform in `flare_roi`'s x and y ranges; a line through
    it at angle 2 pi a, a uniform in `angle_range`; between `num_flare_circles_range` flare
    circles, each at one of the line's points (every max(1, int(diagonal / 100)) pixels along x)
    with radius rad^3 (rad a whole number in [1, max(2, int(H / 100))]), weight uniform in
    [0.05, 0.2] and a colour each channel a whole number in [c - int(max(src_color) / 5), c]
    (at least 0) for src_color's c; then src_radius // 10 sun discs in `src_color` growing to
    `src_radius`, their weights the cubes of linspace(0, min(1, 5 x the circles' mean weight by
    area), src_radius // 10), largest weight for the smallest disc ("overlay"). "physics_based"
    paints the sun's disc, four 2-pixel lines through it (0, 45, 90, 135 degrees) and the circles
    (radius int(rad^3 ** 0.33)) as cv2 draws them on a flare layer, blurs it (sigma 15), fades it
    radially, blurs its first and third channels again (sigma 3 and 5) and screens it over the
    image (Albumentations' add_sun_flare_physics_based; within one level of it).

    Args:
      images: uint8 `[B, H, W, 3]`.
      flare_roi: (x_min, y_min, x_max, y_max) fractions of the image where the sun may be, min < max.
      src_radius: the sun's radius in pixels, 2 .. 10249.
      src_color: the sun's RGB colour.
      angle_range: (min, max) direction of the flare line in turns, within [0, 1].
      num_flare_circles_range: (min, max) flare circles, both included, within [1, 64].
      method: "overlay" (Albumentations' default) or "physics_based".
      probability: per-sample probability.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    images, plan = sun_flare_plan(images, flare_roi, src_radius, src_color, angle_range, num_flare_circles_range,
                                  method, probability, seed)
    if method == "physics_based":
        circles, _, colours, suns = plan[:4]
        return physics_flare(images, suns[:, 0], suns[:, 1], src_radius, tuple(src_color), circles, colours)
    return sun_flare_op(images, *plan[:7])


def sun_flare_plan(images: Images, flare_roi, src_radius, src_color, angle_range, num_flare_circles_range, method,
                   probability, seed) -> tuple:
    """random_sun_flare's checked images and draws: the SunFlare op's arguments after the images
    (circles, circle_weights, circle_colours, suns, sun_radii, sun_weights, sun_colour), then
    the circles' float64 weights `[B, N]` (tests restate Albumentations' function from them)."""
    roi, src_radius, color, angles, counts = check_sun_flare_args(flare_roi, src_radius, src_color, angle_range,
                                                                  num_flare_circles_range, method, probability)
    images, n, seeds, height, width = _weather_draws(images, seed, 11, "RandomSunFlare", rgb=False)
    if images.shape[-1] is not None and images.shape[-1] != 3:
        raise ValueError(f"RandomSunFlare takes RGB images (3 channels), got {images.shape[-1]} (its colours are "
                         "RGB triples, as Albumentations requires)")
    h, w = tf.cast(height, tf.float64), tf.cast(width, tf.float64)

    def uniform(i: int, shape, lo: float = 0.0, hi: float = 1.0) -> tf.Tensor:  # float64 in [lo, hi)
        return tf.random.stateless_uniform(shape, seeds[i], lo, hi, tf.float64)

    def whole(i: int, shape, count) -> tf.Tensor:  # int32 in [0, count) (modulo bias: count / 2^31)
        return tf.random.stateless_uniform(shape, seeds[i], 0, tf.int32.max, tf.int32) % count

    angle = 2.0 * math.pi * uniform(0, [n], *angles)
    sun_x = _int_of(w * uniform(1, [n], roi[0], roi[2]))
    sun_y = _int_of(h * uniform(2, [n], roi[1], roi[3]))
    count = tf.random.stateless_uniform([n], seeds[3], counts[0], counts[1] + 1, tf.int32)
    most = counts[1]
    step = tf.maximum(1, _int_of(tf.sqrt(h * h + w * w) * 0.01))
    largest_rad = tf.maximum(2, _int_of(h * 0.01))
    spread = int(max(color) * 0.2)
    # each circle at a point of the line: t = -x + k step, k uniform among ceil(W / step) points
    points = (width + step - 1) // step
    k = whole(4, [n, most], points)
    t = tf.cast(k * step - sun_x[:, None], tf.float64)
    at_x = tf.cast(sun_x, tf.float64)[:, None] + t * tf.cos(angle)[:, None]
    at_y = tf.cast(sun_y, tf.float64)[:, None] + t * tf.sin(angle)[:, None]
    alpha = uniform(5, [n, most], 0.05, 0.2)
    rad = tf.cast(1 + whole(6, [n, most], largest_rad), tf.float64)
    r3 = tf.minimum(rad * rad * rad, float(LARGEST_CIRCLE))
    low = tf.constant([max(c - spread, 0) for c in color], tf.int32)
    colours = low + whole(7, [n, most, 3], tf.constant(color, tf.int32) - low + 1)
    apply = tf.random.stateless_uniform([n], seeds[8]) < probability
    used = (tf.range(most)[None, :] < count[:, None]) & apply[:, None]
    circles = tf.stack([tf.cast(at_x, tf.int32), tf.cast(at_y, tf.int32),  # int(): towards zero
                        tf.where(used, tf.cast(r3, tf.int32), -1)], axis=-1)
    # the sun's weights: Albumentations' sums over the circles drawn, in float64
    weighted = tf.reduce_sum(tf.where(used, alpha * r3, 0.0), axis=1)
    total = tf.reduce_sum(tf.where(used, r3, 0.0), axis=1)
    radii = sun_discs(src_radius)
    discs = len(radii)
    if discs:
        top = tf.minimum(tf.math.divide_no_nan(weighted, total) * 5.0, 1.0)
        ramp = _linspace_from_zero(top, discs)
        ramp = tf.reverse(ramp, axis=[1])  # disc i takes entry discs - 1 - i
        sun_alpha = tf.where(apply[:, None], ramp * ramp * ramp, 0.0)
    else:
        sun_alpha = tf.zeros([n, 0], tf.float64)
    return images, (circles, _weights(alpha), tf.cast(colours, tf.uint8), tf.stack([sun_x, sun_y], 1), radii,
                    _weights(sun_alpha), tf.constant(color, tf.uint8), alpha)
