"""Albumentations' Spatter per sample, both modes: a liquid layer of normal noise blurred by a
Gaussian and cut at a threshold; "rain" draws drops from the layer's Canny edges, the distance
to them, histogram equalisation and a relief filter, and adds them in the rain colour; "mud"
blurs the cut layer into a mask scaled to its peak and the intensity and tints the image by the
mud colour under it. One kernel op a mode (SpatterRain, SpatterMud: cc/kernels/augment/
spatter_rain.h, spatter.h; CPU and GPU) does a batch; the draws and the blur frames (OpenCV's
getGaussianKernel, float64 for the liquid, float32 for the mud's mask) are made here. The noise
is the project's counter-hash normals (stateless, per sample), not numpy's stream: the same
law, other values."""
from __future__ import annotations

from typing import Optional, Sequence, Tuple

import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability, _draws

SPATTER_MODES = ("rain", "mud")
MODE_COLOURS = {"rain": (238, 238, 175), "mud": (20, 42, 63)}  # Albumentations' defaults (RGB levels)
LARGEST_SIGMA = 100.0  # the blur frames stay within the op's 2047 taps
Range = Tuple[float, float]


def _range(name: str, value, low: float, high: Optional[float]) -> Range:
    """Albumentations' reading of a range argument: a number x means (0, x); min <= max within
    [low, high] (no upper bound for high None)."""
    pair = (0.0, float(value)) if isinstance(value, (int, float)) else tuple(float(v) for v in value)
    top = float("inf") if high is None else high
    if len(pair) != 2 or not low <= pair[0] <= pair[1] <= top:
        bound = f"[{low:g}, {high:g}]" if high is not None else f"[{low:g}, inf)"
        raise ValueError(f"Spatter: {name} must be (min, max) with min <= max within {bound} (a number x means "
                         f"(0, x), as Albumentations reads it), got {value!r}")
    return pair


def check_spatter_args(mean, std, gauss_sigma, cutout_threshold, intensity, mode, color, probability) -> tuple:
    """The checked ranges, mode and colour (None: the mode's colour, as Albumentations)."""
    if mode not in SPATTER_MODES:
        raise ValueError(f"Spatter: mode must be 'rain' or 'mud', got {mode!r}")
    ranges = (_range("mean", mean, 0.0, 1.0), _range("std", std, 0.0, 1.0),
              _range("gauss_sigma", gauss_sigma, 0.0, LARGEST_SIGMA),
              _range("cutout_threshold", cutout_threshold, 0.0, 1.0), _range("intensity", intensity, 0.0, 1.0))
    colour = MODE_COLOURS[mode] if color is None else tuple(color)
    if len(colour) != 3 or not all(isinstance(v, int) and 0 <= v <= 255 for v in colour):
        raise ValueError(f"Spatter: color must be three whole levels in [0, 255] (RGB) or None, got {color!r}")
    _check_probability(probability)
    return ranges + (mode, colour)


def _liquid_taps(sigma: tf.Tensor, frame: int) -> tf.Tensor:
    """cv2.getGaussianKernel(2 round(3 s) + 1, s, CV_64F) per sample (`[n]` float64 -> `[n,
    frame]`, centred, zeros around): exp(-0.5 / s^2 x x) over its float64 sum; side 1 is [1]."""
    side = 2.0 * tf.round(3.0 * sigma) + 1.0  # Python's round: half to even, as tf.round
    x = tf.range(frame, dtype=tf.float64)[None, :] - float(frame // 2)
    inside = tf.abs(x) <= ((side - 1.0) / 2.0)[:, None]
    safe = tf.where(sigma > 0.0, sigma, 1.0)[:, None]
    # the centre tap is exp(-0) = 1: written so, it stays 1 where a tiny sigma's -0.5 / s^2 is -inf
    one, zero = tf.constant(1.0, tf.float64), tf.constant(0.0, tf.float64)
    t = tf.where(inside, tf.where(x == 0.0, one, tf.exp((-0.5 / (safe * safe) * x) * x)), zero)
    return t * (1.0 / tf.reduce_sum(t, axis=1, keepdims=True))


def _mask_taps(sigma: tf.Tensor, frame: int) -> tf.Tensor:
    """cv2.GaussianBlur's float32 kernel for ksize (0, 0): side cvRound(8 s + 1) | 1, each value
    float32(t), their float64 sum, float32(t / sum); sigma 0 (no blur in Albumentations) is [1]."""
    side = tf.bitwise.bitwise_or(tf.cast(tf.round(sigma * 8.0 + 1.0), tf.int32), 1)
    x = tf.range(frame, dtype=tf.float64)[None, :] - float(frame // 2)
    inside = (tf.abs(x) <= tf.cast((side - 1) // 2, tf.float64)[:, None]) & (sigma[:, None] > 0.0)
    safe = tf.where(sigma > 0.0, sigma, 1.0)[:, None]
    t = tf.cast(tf.cast(tf.exp((-0.5 / (safe * safe) * x) * x), tf.float32), tf.float64)
    one, zero = tf.constant(1.0, tf.float64), tf.constant(0.0, tf.float64)
    t = tf.where(x == 0.0, one, tf.where(inside, t, zero))  # the centre 1 (as above)
    return tf.cast(t * (1.0 / tf.reduce_sum(t, axis=1, keepdims=True)), tf.float32)


def liquid_frame(sigma_max: float) -> int:
    """The liquid blur's frame for sigmas up to sigma_max: 2 round(3 sigma_max) + 1."""
    return 2 * round(3.0 * sigma_max) + 1


def mask_frame(sigma_max: float) -> int:
    """The mask blur's frame: OpenCV's float32 side cvRound(8 sigma_max + 1) | 1."""
    return int(round(sigma_max * 8.0 + 1.0)) | 1


def spatter_op(images: Images, params, seeds, liquid_taps, mask_taps, colour) -> tf.Tensor:
    """The SpatterMud kernel op (argument shapes in cc/ops/spatter_ops.cc)."""
    from tfgpuaug.augment.ops import check_images
    return _loader.ops().tf_gpu_aug_spatter_mud(
        check_images(images), tf.convert_to_tensor(params, tf.float64), tf.convert_to_tensor(seeds, tf.int32),
        tf.convert_to_tensor(liquid_taps, tf.float64), tf.convert_to_tensor(mask_taps, tf.float32),
        tf.convert_to_tensor(colour, tf.float64))


def spatter_rain_op(images: Images, params, seeds, liquid_taps, colour) -> tf.Tensor:
    """The SpatterRain kernel op (argument shapes in cc/ops/spatter_ops.cc)."""
    from tfgpuaug.augment.ops import check_images
    return _loader.ops().tf_gpu_aug_spatter_rain(
        check_images(images), tf.convert_to_tensor(params, tf.float64), tf.convert_to_tensor(seeds, tf.int32),
        tf.convert_to_tensor(liquid_taps, tf.float64), tf.convert_to_tensor(colour, tf.float64))


def spatter_plan(images: Images, mean, std, gauss_sigma, cutout_threshold, intensity, mode, color, probability,
                 seed) -> tuple:
    """spatter's checked images and the ops' arguments (params, seeds, liquid_taps, mask_taps
    (None for rain), colour), drawn per sample in float64 as Albumentations draws them, then the
    sigmas `[B]` (tests restate Albumentations' functions from them)."""
    *ranges, mode, colour = check_spatter_args(mean, std, gauss_sigma, cutout_threshold, intensity, mode, color,
                                            probability)
    images, n, seeds = _draws(images, seed, 7)
    if images.shape[-1] is not None and images.shape[-1] != 3:
        raise ValueError(f"Spatter takes RGB images (3 channels), got {images.shape[-1]} (its colour is an RGB "
                         "triple, as Albumentations requires)")
    draws = [tf.random.stateless_uniform([n], seeds[i], lo, hi, tf.float64) for i, (lo, hi) in enumerate(ranges)]
    m, s, sigma, cutout, strength = draws
    apply = tf.random.stateless_uniform([n], seeds[5]) < probability
    noise = tf.random.stateless_uniform([n], seeds[6], tf.int32.min, tf.int32.max, tf.int32)
    params = tf.stack([m, s, cutout, tf.where(apply, strength, 0.0)], axis=1)
    sigma_max = ranges[2][1]
    mask_taps = _mask_taps(sigma, mask_frame(sigma_max)) if mode == "mud" else None
    return images, (params, noise, _liquid_taps(sigma, liquid_frame(sigma_max)), mask_taps,
                    tf.constant(colour, tf.float64), sigma)


def spatter(images: Images, mean: Range = (0.65, 0.65), std: Range = (0.3, 0.3), gauss_sigma: Range = (2.0, 2.0),
            cutout_threshold: Range = (0.68, 0.68), intensity: Range = (0.6, 0.6), mode: str = "rain",
            color: Optional[Sequence[int]] = None, probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' Spatter, with probability `probability` per sample: a liquid layer of
    normal noise (mean and std uniform in their ranges) blurred by a Gaussian of sigma s
    (uniform in `gauss_sigma`; side 2 round(3 s) + 1, replicated edges), zeroed below the cutout
    (uniform in `cutout_threshold`). "rain": the layer's bytes, their Canny edges (50, 150), the
    distance to them (DIST_L2, 5x5 mask) cut at 20, blurred, equalised, a relief filter, blurred,
    times the layer, over its peak: m; each channel v / 255 + m c 0.9 i for the colour's c =
    level / 255 and i uniform in `intensity`. "mud": the pixels above the cutout marked (none: a
    tenth of the pixels at random), blurred by the same sigma, over their peak, times i: m; each
    channel v (c - m c) / c + m c. A number x for a range means (0, x), as Albumentations reads it.

    Args:
      images: uint8 `[B, H, W, 3]`.
      mean: (min, max) mean of the liquid's noise, within [0, 1].
      std: (min, max) standard deviation of the liquid's noise, within [0, 1].
      gauss_sigma: (min, max) sigma of the liquid's blur (and of the mud's mask), within [0, 100].
      cutout_threshold: (min, max) level above which the liquid makes drops, within [0, 1].
      intensity: (min, max) strength of the effect, within [0, 1].
      mode: "rain" (Albumentations' default) or "mud".
      color: the effect's RGB levels; None: (238, 238, 175) for rain, (20, 42, 63) for mud.
      probability: per-sample probability.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    images, (params, seeds, liquid_taps, mask_taps, colour, _) = spatter_plan(
        images, mean, std, gauss_sigma, cutout_threshold, intensity, mode, color, probability, seed)
    if mask_taps is None:
        return spatter_rain_op(images, params, seeds, liquid_taps, colour)
    return spatter_op(images, params, seeds, liquid_taps, mask_taps, colour)
