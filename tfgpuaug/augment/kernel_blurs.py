"""Albumentations' blurs that correlate each image with a kernel drawn per sample (AdvancedBlur,
Defocus, RingingOvershoot): the kernels are built here, in the graph, as Albumentations builds
them (float64, cast to float32), zero-padded to the batch's largest side, and applied by the
Filter2D kernel op (cc/kernels/augment/filter2d.h: cv2.filter2D's correlation, reflect-101
border, rounded and saturated; CPU and GPU). A sample left alone takes the identity kernel,
which returns its bytes as they are."""
from __future__ import annotations

import math
from typing import Tuple, Union

import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability, _draws

MAX_SIDE = 63  # kMaxFilterSide of cc/kernels/augment/filter2d.h
IntRange = Union[int, Tuple[int, int]]
FloatRange = Union[float, Tuple[float, float]]


def filter2d(images: Images, kernels: tf.Tensor, ties_up: bool = False, symmetric: bool = False) -> tf.Tensor:
    """cv2.filter2D of each image with its own kernel (the Filter2D kernel op).

    Args:
      images: uint8 `[B, H, W, C]`.
      kernels: float32 `[B, K, K]`, K odd, at most 63: correlated about their centre (as
        cv2.filter2D; not flipped), reflect-101 border, each sum rounded to the nearest level
        and saturated.
      ties_up: round sums ending in exactly half a level up (cv2.GaussianBlur's 8-bit fixed
        point) instead of to even (cv2.filter2D).
      symmetric: read each kernel only in its octant (rows K // 2 .. K - 1, columns K // 2 up to
        that row), each tap standing for the up to eight taps the square's flips and transpose
        map it to: their bytes are summed in integers, then weighted once (about a fifth of the
        loads and multiplies). The same filter for kernels with those symmetries (radial ones:
        Defocus's, RingingOvershoot's); any other kernel is filtered as its octant's symmetric
        extension.
    """
    from tfgpuaug.augment.ops import check_images
    images = check_images(images)
    kernels = tf.convert_to_tensor(kernels, tf.float32)
    side = kernels.shape[-1]
    if kernels.shape.rank != 3 or (side is not None and (side % 2 != 1 or side > MAX_SIDE)):
        raise ValueError(f"filter2d: kernels must be [B, K, K] with K odd and at most {MAX_SIDE}, got "
                         f"{kernels.shape}")
    return _loader.ops().tf_gpu_aug_filter2d(images, kernels, ties_up=bool(ties_up), symmetric=bool(symmetric))


def _pair(name: str, value, scalar, low: float, high: float, who: str) -> Tuple[float, float]:
    """(min, max) within [low, high]; a single number v means scalar(v), as Albumentations reads it."""
    pair = scalar(float(value)) if isinstance(value, (int, float)) else tuple(float(v) for v in value)
    if len(pair) != 2 or not low <= pair[0] <= pair[1] <= high:
        raise ValueError(f"{who}: {name} must be a number or (min, max) with {low} <= min <= max <= {high}, "
                         f"got {value!r}")
    return pair


def _odd_sides(name: str, value: IntRange, low: int, who: str) -> Tuple[int, int]:
    """(min, max) odd kernel sides within [low, 63]; a single side k means (low, k)."""
    sides = (low, value) if isinstance(value, int) else tuple(value)
    if (len(sides) != 2 or not all(isinstance(s, int) and s % 2 == 1 for s in sides)
            or not low <= sides[0] <= sides[1] <= MAX_SIDE):
        raise ValueError(f"{who}: {name} must be an odd side or (min, max) of odd sides within [{low}, {MAX_SIDE}], "
                         f"got {value!r} (Albumentations rounds even sides up: pass the odd ones)")
    return sides


def _odd_draw(sides: Tuple[int, int], n, seed) -> tf.Tensor:
    """[n] odd sides uniform among those in `sides` (float64)."""
    choices = (sides[1] - sides[0]) // 2 + 1
    return tf.cast(sides[0] + 2 * tf.random.stateless_uniform([n], seed, 0, choices, dtype=tf.int32), tf.float64)


def _offsets(side: int) -> tf.Tensor:
    """[side] offsets from the centre, float64."""
    return tf.range(side, dtype=tf.float64) - (side - 1) / 2.0


def _identity_where_skipped(kernels: tf.Tensor, apply: tf.Tensor) -> tf.Tensor:
    side = tf.shape(kernels)[-1]
    identity = tf.reshape(tf.one_hot(side * side // 2, side * side, dtype=tf.float32), tf.stack([1, side, side]))
    return tf.where(apply[:, None, None], kernels, identity)


def _filtered(images: Images, seed: Seed, probability: float, kernels_of) -> tf.Tensor:
    """The images filtered by the radial kernels `kernels_of(n, two seeds)` (read as symmetric:
    filter2d's octant path) where a draw of `probability` says so, the identity kernel elsewhere."""
    images, n, seeds = _draws(images, seed, 3)
    apply = tf.random.stateless_uniform([n], seeds[2]) < probability
    return filter2d(images, _identity_where_skipped(kernels_of(n, seeds[:2]), apply), symmetric=True)


def check_advanced_blur_args(blur_limit, sigma_x_limit, sigma_y_limit, rotate_limit, beta_limit, noise_limit,
                             probability):
    """The checked ranges, as Albumentations reads single numbers: a side k (3, k), sigmas, beta
    and noise s (0, s), an angle a (-a, a)."""
    who = "AdvancedBlur"
    sides = _odd_sides("blur_limit", blur_limit, 3, who)
    to_zero = lambda v: (0.0, v)  # noqa: E731
    sx = _pair("sigma_x_limit", sigma_x_limit, to_zero, 0.0, 1e3, who)
    sy = _pair("sigma_y_limit", sigma_y_limit, to_zero, 0.0, 1e3, who)
    if sx[0] == 0.0 and sy[0] == 0.0:
        raise ValueError(f"{who}: sigma_x_limit and sigma_y_limit may not both start at 0 (a zero-width kernel), "
                         f"got {sx} and {sy}")
    rotate = _pair("rotate_limit", rotate_limit, lambda v: (-abs(v), abs(v)), -360.0, 360.0, who)
    beta = _pair("beta_limit", beta_limit, to_zero, 0.0, 1e3, who)
    if not beta[0] < 1.0 < beta[1]:
        raise ValueError(f"{who}: beta_limit must hold 1 inside it (min < 1 < max: half the draws are below 1, "
                         f"half above), got {beta_limit!r}")
    noise = _pair("noise_limit", noise_limit, to_zero, 0.0, 1e3, who)
    _check_probability(probability)
    return sides, sx, sy, rotate, beta, noise


def generalized_gaussian_kernels(side: tf.Tensor, sigma_x: tf.Tensor, sigma_y: tf.Tensor, angle: tf.Tensor,
                                 beta: tf.Tensor, noise: tf.Tensor, k: int) -> tf.Tensor:
    """AdvancedBlur's kernels `[n, k, k]` float32 for float64 `[n]` odd sides, spreads, angles
    (degrees) and shapes, and noise `[n, k, k]`: exp(-0.5 (p' S^-1 p)^beta) over the side's grid
    of (x, y) offsets, S = R diag(sigma_x^2, sigma_y^2) R' (R the rotation by the angle), times
    the noise, over its sum, centred in the k frame with zeros around."""
    angle = angle * (math.pi / 180.0)
    cos, sin = tf.cos(angle), tf.sin(angle)
    a, b = 1.0 / (sigma_x * sigma_x), 1.0 / (sigma_y * sigma_y)  # S^-1 = R diag(a, b) R'
    i00 = (a * cos * cos + b * sin * sin)[:, None, None]
    i11 = (a * sin * sin + b * cos * cos)[:, None, None]
    i01 = ((a - b) * cos * sin)[:, None, None]
    ax = _offsets(k)
    x, y = ax[None, None, :], ax[None, :, None]  # (column, row) offsets
    q = i00 * x * x + 2.0 * i01 * x * y + i11 * y * y
    # q^beta as exp(beta log q): TensorFlow has no float64 Pow kernel on GPUs
    positive = q > 0.0
    power = tf.where(positive, tf.exp(beta[:, None, None] * tf.math.log(tf.where(positive, q, 1.0))), 0.0)
    kernel = tf.exp(-0.5 * power) * noise
    reach = (side[:, None, None] - 1.0) / 2.0
    kernel = tf.where((tf.abs(x) <= reach) & (tf.abs(y) <= reach), kernel, 0.0)
    return tf.cast(kernel / tf.reduce_sum(kernel, axis=[1, 2], keepdims=True), tf.float32)


def advanced_blur_kernels(n, sides: Tuple[int, int], sigma_x_limit, sigma_y_limit, rotate_limit, beta_limit,
                          noise_limit, seeds) -> tf.Tensor:
    """Albumentations' AdvancedBlur kernels `[n, K, K]` (K = the largest side): per sample an odd
    side, sigma_x, sigma_y, an angle and beta (below or above 1 with equal odds, then uniform on
    that side) drawn, noise uniform in `noise_limit` per tap (generalized_gaussian_kernels)."""
    s_side, s_sx, s_sy, s_angle, s_half, s_beta, s_noise = seeds
    k = sides[1]
    uniform = lambda s, r: tf.random.stateless_uniform([n], s, r[0], r[1], dtype=tf.float64)  # noqa: E731
    low_half = tf.random.stateless_uniform([n], s_half, dtype=tf.float64) < 0.5
    u = tf.random.stateless_uniform([n], s_beta, dtype=tf.float64)
    beta = tf.where(low_half, beta_limit[0] + u * (1.0 - beta_limit[0]), 1.0 + u * (beta_limit[1] - 1.0))
    noise = tf.random.stateless_uniform([n, k, k], s_noise, noise_limit[0], noise_limit[1], dtype=tf.float64)
    return generalized_gaussian_kernels(_odd_draw(sides, n, s_side), uniform(s_sx, sigma_x_limit),
                                        uniform(s_sy, sigma_y_limit), uniform(s_angle, rotate_limit), beta, noise, k)


def advanced_blur(images: Images, blur_limit: IntRange = (3, 7), sigma_x_limit: FloatRange = (0.2, 1.0),
                  sigma_y_limit: FloatRange = (0.2, 1.0), rotate_limit: FloatRange = (-90.0, 90.0),
                  beta_limit: FloatRange = (0.5, 8.0), noise_limit: FloatRange = (0.9, 1.1),
                  probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' AdvancedBlur per sample, with probability `probability`: a generalised
    Gaussian kernel (anisotropic, rotated, with multiplicative noise per tap) of an odd side
    drawn in `blur_limit`, correlated with the image (cv2.filter2D's arithmetic).

    Args:
      images: uint8 `[B, H, W, C]` (every channel, as Albumentations).
      blur_limit: odd kernel side, or (min, max) odd sides, within [3, 63]; one side k means (3, k).
      sigma_x_limit: (min, max) spread along the kernel's x axis (before rotation); s means (0, s).
      sigma_y_limit: (min, max) spread along its y axis; both ranges may not start at 0.
      rotate_limit: (min, max) rotation of the kernel in degrees; a means (-a, a).
      beta_limit: (min, max) shape, min < 1 < max: below 1 heavier tails (box-like), above 1
        a flatter top; each side drawn half the time.
      noise_limit: (min, max) multiplicative noise per kernel tap.
      probability: probability that a sample is blurred.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    sides, sx, sy, rotate, beta, noise = check_advanced_blur_args(blur_limit, sigma_x_limit, sigma_y_limit,
                                                                  rotate_limit, beta_limit, noise_limit, probability)
    images, n, seeds = _draws(images, seed, 8)
    kernels = advanced_blur_kernels(n, sides, sx, sy, rotate, beta, noise, seeds[:7])
    apply = tf.random.stateless_uniform([n], seeds[7]) < probability
    return filter2d(images, _identity_where_skipped(kernels, apply))


def check_defocus_args(radius, alias_blur, probability):
    """The checked (radius, alias_blur) ranges: a radius r means (1, r), alias_blur a (0, a)."""
    radii = (1, radius) if isinstance(radius, int) else tuple(radius)
    top = (MAX_SIDE - 1) // 2
    if len(radii) != 2 or not all(isinstance(r, int) for r in radii) or not 1 <= radii[0] <= radii[1] <= top:
        raise ValueError(f"Defocus: radius must be an int or (min, max) ints within [1, {top}] (the kernel's side "
                         f"2 max(8, radius) + 1 is at most {MAX_SIDE}), got {radius!r}")
    alias = _pair("alias_blur", alias_blur, lambda v: (0.0, v), 0.0, 1e3, "Defocus")
    _check_probability(probability)
    return radii, alias


def _reflect101(i: tf.Tensor, n: tf.Tensor) -> tf.Tensor:
    """Index i (int32) mirrored into [0, n) without repeating the edge (n >= 2)."""
    period = 2 * (n - 1)
    i = tf.math.floormod(i, period)
    return tf.where(i < n, i, period - i)


def defocus_side(largest_radius: int) -> int:
    """The frame side of Defocus kernels for radii up to `largest_radius`."""
    return 2 * max(8, largest_radius) + 1


def disc_kernels(radius: tf.Tensor, sigma: tf.Tensor, k: int) -> tf.Tensor:
    """Defocus's kernels `[n, k, k]` float32 for int32 radii r and float64 alias sigmas `[n]`:
    the disc x^2 + y^2 <= r^2 on the grid of side L = 2 max(8, r) + 1 over its pixel count
    (float32), then cv2.GaussianBlur of that array (side 3 for r <= 8, else 5; reflect-101 at the
    array's own edge; rows then columns, float32), centred in the k frame with zeros around."""
    half = tf.maximum(radius, 8)  # the array of side 2 half + 1 sits centred in the frame
    ax = tf.range(k, dtype=tf.int32) - k // 2
    r2 = radius[:, None, None] * radius[:, None, None]
    square = ax * ax  # products, not Pow: TensorFlow has no GPU Pow kernel for these types
    disc = tf.cast(square[None, None, :] + square[None, :, None] <= r2, tf.float32)
    disc = disc / tf.reduce_sum(disc, axis=[1, 2], keepdims=True)
    # cv2.getGaussianKernel(ks, sigma) rows, 5 taps (side 3: the outer two zero), as float32;
    # sigma 0 takes OpenCV's fixed kernels of those sides
    taps = tf.range(-2, 3, dtype=tf.float64)[None, :]
    reach = tf.where(radius <= 8, 1, 2)[:, None]
    safe = tf.where(sigma > 0.0, sigma, 1.0)[:, None]
    g = tf.where(tf.abs(taps) <= tf.cast(reach, tf.float64), tf.exp(-taps * taps / (2.0 * safe * safe)), 0.0)
    fixed = tf.where(reach == 1, tf.constant([[0.0, 0.25, 0.5, 0.25, 0.0]], tf.float64),
                     tf.constant([[0.0625, 0.25, 0.375, 0.25, 0.0625]], tf.float64))
    g = tf.cast(tf.where(sigma[:, None] > 0.0, g / tf.reduce_sum(g, axis=1, keepdims=True), fixed), tf.float32)
    # the source of frame position p for tap t: reflect-101 within the sample's array
    side = 2 * half + 1
    offset = (k - side) // 2  # [n]
    p = tf.range(k, dtype=tf.int32)[None, :, None] - offset[:, None, None]  # [n, k, 1] within the array
    source = _reflect101(p + tf.range(-2, 3)[None, None, :], side[:, None, None]) + offset[:, None, None]
    rows = tf.einsum("nt,nyxt->nyx", g, tf.gather(disc, source, axis=2, batch_dims=1))  # along x
    cols = tf.einsum("nt,nxyt->nyx", g, tf.gather(tf.transpose(rows, [0, 2, 1]), source, axis=2, batch_dims=1))
    inside = tf.abs(ax)[None, :] <= half[:, None]  # [n, k]
    return tf.where(inside[:, :, None] & inside[:, None, :], cols, 0.0)


def defocus_kernels(n, radii: Tuple[int, int], alias_limit: Tuple[float, float], seeds) -> tf.Tensor:
    """Albumentations' Defocus kernels `[n, K, K]` (K = defocus_side(largest radius)): per sample
    an integer radius and an alias sigma drawn uniformly (disc_kernels)."""
    s_radius, s_alias = seeds
    radius = tf.random.stateless_uniform([n], s_radius, radii[0], radii[1] + 1, dtype=tf.int32)
    sigma = tf.random.stateless_uniform([n], s_alias, alias_limit[0], alias_limit[1], dtype=tf.float64)
    return disc_kernels(radius, sigma, defocus_side(radii[1]))


def defocus(images: Images, radius: IntRange = (3, 10), alias_blur: FloatRange = (0.1, 0.5),
            probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' Defocus per sample, with probability `probability`: a disc of a radius
    drawn in `radius`, softened by a Gaussian of sigma drawn in `alias_blur`, correlated with
    the image (cv2.filter2D's arithmetic).

    Args:
      images: uint8 `[B, H, W, C]` (every channel, as Albumentations).
      radius: (min, max) disc radius in pixels, within [1, 31]; r means (1, r).
      alias_blur: (min, max) sigma of the Gaussian softening the disc; a means (0, a).
      probability: probability that a sample is blurred.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    radii, alias = check_defocus_args(radius, alias_blur, probability)
    return _filtered(images, seed, probability, lambda n, seeds: defocus_kernels(n, radii, alias, seeds))


def check_ringing_overshoot_args(blur_limit, cutoff, probability):
    """The checked (blur_limit, cutoff) ranges: a side k means (3, k), as Albumentations reads it."""
    who = "RingingOvershoot"
    sides = _odd_sides("blur_limit", blur_limit, 3, who)
    if isinstance(cutoff, (int, float)):
        raise ValueError(f"{who}: cutoff must be (min, max) radians within [0, pi], got {cutoff!r}")
    cut = _pair("cutoff", cutoff, None, 0.0, math.pi, who)
    _check_probability(probability)
    return sides, cut


def sinc_kernels(side: tf.Tensor, cutoff: tf.Tensor, k: int) -> tf.Tensor:
    """RingingOvershoot's kernels `[n, k, k]` float32 for float64 `[n]` odd sides and cutoffs w:
    the circular low-pass w J1(w d) / (2 pi d) at distance d from the centre (w^2 / (4 pi)
    there), over its sum, centred in the k frame with zeros around."""
    w = cutoff[:, None, None]
    ax = _offsets(k)
    square = ax * ax
    d = tf.sqrt(square[None, :, None] + square[None, None, :])  # [1, k, k]
    safe = tf.where(d > 0.0, d, 1.0)
    kernel = tf.where(d > 0.0, w * tf.math.special.bessel_j1(w * safe) / (2.0 * math.pi * safe),
                      w * w / (4.0 * math.pi))
    reach = (side[:, None, None] - 1.0) / 2.0
    inside = (tf.abs(ax)[None, :, None] <= reach) & (tf.abs(ax)[None, None, :] <= reach)
    kernel = tf.where(inside, kernel, 0.0)
    return tf.cast(kernel / tf.reduce_sum(kernel, axis=[1, 2], keepdims=True), tf.float32)


def ringing_overshoot_kernels(n, sides: Tuple[int, int], cutoff: Tuple[float, float], seeds) -> tf.Tensor:
    """Albumentations' RingingOvershoot kernels `[n, K, K]`: per sample an odd side and a cutoff
    drawn uniformly (sinc_kernels)."""
    s_side, s_cut = seeds
    w = tf.random.stateless_uniform([n], s_cut, cutoff[0], cutoff[1], dtype=tf.float64)
    return sinc_kernels(_odd_draw(sides, n, s_side), w, sides[1])


def ringing_overshoot(images: Images, blur_limit: IntRange = (7, 15),
                      cutoff: Tuple[float, float] = (math.pi / 4, math.pi / 2), probability: float = 0.5,
                      seed: Seed = None) -> tf.Tensor:
    """Albumentations' RingingOvershoot per sample, with probability `probability`: a 2-D sinc
    (circular low-pass) kernel of an odd side drawn in `blur_limit` and a cutoff drawn in
    `cutoff`, correlated with the image (cv2.filter2D's arithmetic): ringing and overshoot
    artifacts near edges.

    Args:
      images: uint8 `[B, H, W, C]` (every channel, as Albumentations).
      blur_limit: odd kernel side, or (min, max) odd sides, within [3, 63]; one side k means (3, k).
      cutoff: (min, max) cutoff frequency in radians, within [0, pi].
      probability: probability that a sample is filtered.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    sides, cut = check_ringing_overshoot_args(blur_limit, cutoff, probability)
    return _filtered(images, seed, probability, lambda n, seeds: ringing_overshoot_kernels(n, sides, cut, seeds))
