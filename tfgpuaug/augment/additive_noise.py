"""Albumentations' AdditiveNoise per sample: uniform, Gaussian, Laplace or beta noise added to
uint8 images, one value per channel of the image (`constant`), per pixel and channel
(`per_pixel`) or per pixel shared by its channels (`shared`). The noise is in fractions of 255,
truncated toward zero and added with saturation, as Albumentations adds a float noise map to
uint8 images.

Where the work lands: `per_pixel` and `shared` uniform, Gaussian and Laplace noise at full
resolution are stages of the fused augment kernel (`uniform_noise`, `normal_noise`,
`laplace_noise` and their `_shared` forms in cc/kernels/augment/augment.h), drawn by its per-pixel
stream in the pass that adds them; `constant` noise on RGB images is the `rgb_shift` stage with
the truncated values. Beta noise per pixel (its whole shifts drawn by inverting their law from
the regularized incomplete beta function), noise drawn at a reduced resolution (`approximation`
< 1) and constant noise on 1- or 4-channel images take TensorFlow ops (a stage has three
numbers: a beta needs four, and a resize is not a per-pixel rule)."""
from __future__ import annotations

import math
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

import tensorflow as tf

from tfgpuaug._select import select_samples
from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability, _draws, _one_stage

NOISE_TYPES = ("uniform", "gaussian", "laplace", "beta")
SPATIAL_MODES = ("constant", "per_pixel", "shared")

# Albumentations 2.0.8's defaults, in fractions of the maximum value (255)
DEFAULT_NOISE_PARAMS: Dict[str, Dict[str, Any]] = {
    "uniform": {"ranges": [(-0.1, 0.1)]},
    "gaussian": {"mean_range": (0.0, 0.0), "std_range": (0.05, 0.15)},
    "laplace": {"mean_range": (0.0, 0.0), "scale_range": (0.05, 0.15)},
    "beta": {"alpha_range": (0.5, 1.5), "beta_range": (0.5, 1.5), "scale_range": (0.1, 0.3)},
}

# the bounds of each parameter range: (least, greatest); None: unbounded above
_BOUNDS = {"mean_range": (-1.0, 1.0), "std_range": (0.0, 1.0), "scale_range": (0.0, 1.0),
           "alpha_range": (0.0, None), "beta_range": (0.0, None)}

_KERNEL_STAGES = {"uniform": "uniform_noise", "gaussian": "normal_noise", "laplace": "laplace_noise"}


def _pair(name: str, value, least: float, greatest: Optional[float], open_below: bool = False) -> Tuple[float, float]:
    try:
        low, high = (float(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"AdditiveNoise: {name} must be a (min, max) pair of numbers, got {value!r}") from None
    below = low <= least if open_below else low < least
    if not (math.isfinite(low) and math.isfinite(high)) or below or low > high or (
            greatest is not None and high > greatest):
        where = f"({least}, {'inf' if greatest is None else greatest}]" if open_below else f"[{least}, {greatest}]"
        raise ValueError(f"AdditiveNoise: {name} must be (min, max) with min <= max within {where}, got {value!r}")
    return low, high


def check_noise_params(noise_type: str, noise_params: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    """`noise_params` for `noise_type` checked as Albumentations' schemas check them (None: its
    defaults), as a dict of float pairs (`ranges`: a list of pairs)."""
    if noise_type not in NOISE_TYPES:
        raise ValueError(f"AdditiveNoise: noise_type must be one of {NOISE_TYPES}, got {noise_type!r}")
    params = dict(DEFAULT_NOISE_PARAMS[noise_type] if noise_params is None else noise_params)
    if params.pop("noise_type", noise_type) != noise_type:
        raise ValueError(f"AdditiveNoise: noise_params name another noise_type than {noise_type!r}")
    expected = set(DEFAULT_NOISE_PARAMS[noise_type])
    if set(params) != expected:
        raise ValueError(f"AdditiveNoise: {noise_type} noise takes noise_params with the keys {sorted(expected)}, "
                         f"got {sorted(params)}")
    if noise_type == "uniform":
        ranges = params["ranges"]
        if isinstance(ranges, (str, bytes)) or not isinstance(ranges, Sequence) or len(ranges) == 0:
            raise ValueError(f"AdditiveNoise: ranges must be a non-empty list of (min, max) pairs, got {ranges!r}")
        return {"ranges": [_pair("each of ranges", r, -1.0, 1.0) for r in ranges]}
    return {key: _pair(key, value, *_BOUNDS[key], open_below=_BOUNDS[key][1] is None)
            for key, value in params.items()}


def check_additive_noise_args(noise_type: str, spatial_mode: str, noise_params, approximation: float,
                              probability: float) -> Dict[str, Any]:
    """The checked noise parameters; a ValueError naming the bad argument otherwise."""
    params = check_noise_params(noise_type, noise_params)
    if spatial_mode not in SPATIAL_MODES:
        raise ValueError(f"AdditiveNoise: spatial_mode must be one of {SPATIAL_MODES}, got {spatial_mode!r}")
    if not 0.0 <= float(approximation) <= 1.0:
        raise ValueError(f"AdditiveNoise: approximation must be in [0, 1], got {approximation}")
    _check_probability(probability)
    return params


def _uniform(seed, n: int, pair: Tuple[float, float]) -> tf.Tensor:
    """`[n]` values uniform in `pair` (the low end when the pair is one value)."""
    return tf.random.stateless_uniform([n], seed, pair[0], pair[1]) if pair[0] < pair[1] else tf.fill([n], pair[0])


def _beta(shape, seed, alpha: tf.Tensor, beta: tf.Tensor) -> tf.Tensor:
    """Beta(alpha, beta) values of `shape` (alpha and beta broadcast to it) as X / (X + Y) of
    two gamma draws."""
    s_x, s_y = tf.unstack(tf.random.experimental.stateless_split(seed, 2))
    x = tf.random.stateless_gamma(shape, s_x, alpha=tf.broadcast_to(alpha, shape))
    y = tf.random.stateless_gamma(shape, s_y, alpha=tf.broadcast_to(beta, shape))
    return x / tf.maximum(x + y, 1e-30)


def _noise(noise_type: str, shape, seed, per_sample, one_range) -> tf.Tensor:
    """Noise of `shape` ([n, h, w, k]) in levels by TensorFlow's stateless draws; `per_sample` the
    drawn `[n]` parameters (broadcast over the rest), `one_range` uniform's (min, max) per
    element: a `[k]` pair of tensors or one pair."""
    s_value, s_extra = tf.unstack(tf.random.experimental.stateless_split(seed, 2))
    if noise_type == "uniform":
        low, high = one_range
        return (low + (high - low) * tf.random.stateless_uniform(shape, s_value)) * 255.0
    expand = lambda t: tf.reshape(t, [-1, 1, 1, 1])  # noqa: E731
    if noise_type == "gaussian":
        mean, std = per_sample
        return (expand(mean) + expand(std) * tf.random.stateless_normal(shape, s_value)) * 255.0
    if noise_type == "laplace":
        loc, scale = per_sample
        u = tf.random.stateless_uniform(shape, s_value, minval=-0.5, maxval=0.5)
        z = -tf.sign(u) * tf.math.log(tf.maximum(1.0 - 2.0 * tf.abs(u), 2.0 ** -24))  # finite at u = -0.5
        return (expand(loc) + expand(scale) * z) * 255.0
    alpha, beta, scale = per_sample
    b = _beta(shape, s_extra, expand(alpha), expand(beta))
    return (2.0 * b - 1.0) * expand(scale) * 255.0


def _beta_shifts(shape, seed, alpha: tf.Tensor, beta: tf.Tensor, scale: tf.Tensor) -> tf.Tensor:
    """trunc((2 b - 1) scale 255) for b ~ Beta(alpha, beta) per sample, as int32 `[n, m]` for a
    `[n, m]` shape, by inverting the law of the whole shift: F(j) = P(noise < j) at j = -255 ..
    255 from the regularized incomplete beta function (one row of 511 a sample), then per value a
    uniform u gives floor(noise) = -256 + #{j: F(j) <= u}, one more below F(0) (truncation
    toward zero). Exact in law up to float32's CDF, and two cheap ops a value where gamma draws
    cost hundreds of operations."""
    j = tf.range(-255.0, 256.0)
    width = tf.maximum(255.0 * scale, 1e-30)[:, None]
    x = tf.clip_by_value((j[None, :] / width + 1.0) * 0.5, 0.0, 1.0)
    full = lambda t: tf.broadcast_to(t[:, None], tf.shape(x))  # noqa: E731  (Betainc does not broadcast)
    cdf = tf.math.betainc(full(alpha), full(beta), x)  # [n, 511]
    u = tf.random.stateless_uniform(shape, seed)
    below = tf.searchsorted(cdf, u, side="right", out_type=tf.int32)
    return below - 256 + tf.cast(u < cdf[:, 255:256], tf.int32)


def _add_truncated(images: tf.Tensor, noise: tf.Tensor) -> tf.Tensor:
    """uint8 images plus float noise in levels, truncated toward zero and saturated."""
    held = tf.clip_by_value(noise, -512.0, 512.0)
    total = tf.cast(images, tf.int32) + tf.cast(held, tf.int32)  # the cast truncates toward zero
    return tf.cast(tf.clip_by_value(total, 0, 255), tf.uint8)


def _per_sample_params(noise_type: str, params: Dict[str, Any], seed, n) -> Tuple[tf.Tensor, ...]:
    keys = {"gaussian": ("mean_range", "std_range"), "laplace": ("mean_range", "scale_range"),
            "beta": ("alpha_range", "beta_range", "scale_range")}.get(noise_type, ())
    seeds = tf.unstack(tf.random.experimental.stateless_split(seed, 3))
    return tuple(_uniform(s, n, params[key]) for s, key in zip(seeds, keys))


def additive_noise(images: Images, noise_type: str = "uniform", spatial_mode: str = "constant",
                   noise_params: Optional[Mapping[str, Any]] = None, approximation: float = 1.0,
                   probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Noise added to samples with probability `probability` (Albumentations' AdditiveNoise):
    uniform, Gaussian, Laplace or beta, in fractions of 255, one value per channel of the
    image (`constant`), per pixel and channel (`per_pixel`) or per pixel for all its channels
    (`shared`). The noise is truncated toward zero and added with saturation, as
    Albumentations adds a float noise map to uint8.

    Args:
      images: uint8 `[B, H, W, C]`, 1, 3 or 4 channels (every channel, alpha too, as there).
      noise_type: "uniform", "gaussian", "laplace" or "beta".
      spatial_mode: "constant", "per_pixel" or "shared".
      noise_params: Albumentations' parameters of the type, in fractions of 255 (None: its
        defaults): uniform `ranges` (a (min, max) per channel for `constant`, the first for the
        others; within [-1, 1]), gaussian `mean_range`, `std_range`, laplace `mean_range`,
        `scale_range`, beta `alpha_range`, `beta_range` (above 0) and `scale_range`; each range
        is drawn uniformly per sample (beta: noise (2 b - 1) scale).
      approximation: in [0, 1]; below 1 the per-pixel noise is drawn at max(1, int(side *
        approximation)) and resized bilinearly (half-pixel centres, as cv2.INTER_LINEAR).
      probability: probability that a sample gets noise.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    params = check_additive_noise_args(noise_type, spatial_mode, noise_params, approximation, probability)
    images, n, (s_params, s_noise, s_stream, s_apply) = _draws(images, seed, 4)
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    per_sample = _per_sample_params(noise_type, params, s_params, n)
    shape = tf.shape(images)
    channels = images.shape[-1]
    if spatial_mode == "constant":
        ranges = params.get("ranges")
        if ranges is not None and len(ranges) > 1:
            if channels is None:
                raise ValueError("AdditiveNoise: a range per channel needs images with a static channel count")
            if len(ranges) < channels:
                raise ValueError(f"AdditiveNoise: {len(ranges)} ranges for {channels} channels; give one range "
                                 "or one per channel")
            ranges = ranges[:channels]
        one_range = None if ranges is None else (
            tf.constant([r[0] for r in ranges], tf.float32), tf.constant([r[1] for r in ranges], tf.float32))
        values = _noise(noise_type, tf.stack([n, 1, 1, shape[3]]), s_noise, per_sample, one_range)
        if channels == 3:  # the rgb_shift stage adds round(shift): the truncated values are whole
            shifts = tf.clip_by_value(values[:, 0, 0, :], -512.0, 512.0)
            shifts = tf.cast(tf.cast(shifts, tf.int32), tf.float32)
            return _one_stage(images, "rgb_shift", shifts[:, 0], apply, aux=shifts[:, 1:])
        return select_samples(apply, _add_truncated(images, values), images)
    if approximation == 1.0 and noise_type != "beta":
        name = _KERNEL_STAGES[noise_type] + ("_shared" if spatial_mode == "shared" else "")
        if noise_type == "uniform":
            low, high = params["ranges"][0]
            location = tf.fill([n], (low + high) * 127.5)
            scale = tf.fill([n], (high - low) * 127.5)
        else:
            location, scale = (p * 255.0 for p in per_sample[:2])
        aux = tf.stack([tf.random.stateless_uniform([n], s_stream), location], axis=1)
        return _one_stage(images, name, scale, apply, aux=aux)
    if approximation == 1.0:  # beta at full resolution: whole shifts drawn from their law
        depth = 1 if spatial_mode == "shared" else shape[3]
        shifts = _beta_shifts(tf.stack([n, shape[1] * shape[2] * depth]), s_noise, *per_sample)
        shifts = tf.reshape(shifts, tf.stack([n, shape[1], shape[2], depth]))
        total = tf.clip_by_value(tf.cast(images, tf.int32) + shifts, 0, 255)
        return select_samples(apply, tf.cast(total, tf.uint8), images)
    size = shape[1:3]
    if approximation < 1.0:
        size = tf.maximum(1, tf.cast(tf.cast(size, tf.float64) * approximation, tf.int32))
    depth = 1 if spatial_mode == "shared" else shape[3]
    one_range = params["ranges"][0] if noise_type == "uniform" else None
    noise = _noise(noise_type, tf.stack([n, size[0], size[1], depth]), s_noise, per_sample, one_range)
    if approximation < 1.0:
        noise = tf.image.resize(noise, shape[1:3], method="bilinear")
    return select_samples(apply, _add_truncated(images, noise), images)
