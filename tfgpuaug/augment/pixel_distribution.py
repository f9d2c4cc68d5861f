"""Albumentations' PixelDistributionAdaptation per sample, as its code intends: each image's
pixel distribution (levels / 255, channels as features) moved onto a reference's by fitting the
same statistical map to both, mapping the image through its own and back through the
reference's inverse, then blending with the image. Each of the three maps is affine in the
pixel, so the whole step is one colour matrix and offset per sample: two reductions over the
batch (the statistics) and one batched matmul."""
from __future__ import annotations

from typing import Tuple

import tensorflow as tf

from tfgpuaug._types import Images, Seed, TensorLike
from tfgpuaug.augment.photometric import _check_probability, _draws
from tfgpuaug.augment.references import check_bank, check_channels

TRANSFORM_TYPES = ("pca", "standard", "minmax")


def check_pixel_distribution_args(reference_images: TensorLike, blend_ratio, transform_type: str,
                                  probability: float) -> Tuple[tf.Tensor, tuple]:
    """The bank and the checked blend range."""
    bank = check_bank("PixelDistributionAdaptation", reference_images)
    ratio = tuple(float(v) for v in blend_ratio)
    if len(ratio) != 2 or not 0.0 <= ratio[0] <= ratio[1] <= 1.0:
        raise ValueError(f"PixelDistributionAdaptation: blend_ratio must be (min, max) within [0, 1], got "
                         f"{blend_ratio!r}")
    if transform_type not in TRANSFORM_TYPES:
        raise ValueError(f"PixelDistributionAdaptation: transform_type must be one of {TRANSFORM_TYPES}, got "
                         f"{transform_type!r}")
    _check_probability(probability)
    return bank, ratio


def _components(pixels: tf.Tensor, mean: tf.Tensor) -> tf.Tensor:
    """[n, C, C] principal axes as rows, by decreasing variance, each with its largest-magnitude
    entry positive (a fixed sign; the covariance's eigenvectors have none of their own)."""
    centred = pixels - mean[:, None, :]
    covariance = tf.matmul(centred, centred, transpose_a=True) / tf.cast(tf.shape(pixels)[1], pixels.dtype)
    _, vectors = tf.linalg.eigh(covariance)  # columns, increasing eigenvalues
    rows = tf.reverse(tf.transpose(vectors, [0, 2, 1]), axis=[1])
    largest = tf.gather(rows, tf.argmax(tf.abs(rows), axis=-1, output_type=tf.int32), axis=2, batch_dims=2)
    return tf.where(largest[..., None] < 0.0, -rows, rows)


def _fit(pixels: tf.Tensor, transform_type: str):
    """Per sample, the map's statistics of [n, N, C] float32 levels in [0, 1]."""
    if transform_type == "standard":
        mean, variance = tf.nn.moments(pixels, axes=[1])
        scale = tf.sqrt(variance)
        return mean, tf.where(scale == 0.0, 1.0, scale)
    if transform_type == "minmax":
        low, high = tf.reduce_min(pixels, axis=1), tf.reduce_max(pixels, axis=1)
        span = high - low
        return low, tf.where(span == 0.0, 1.0, span)
    mean = tf.reduce_mean(pixels, axis=1)
    return mean, _components(pixels, mean)


def colour_maps(source: Tuple[tf.Tensor, tf.Tensor], target: Tuple[tf.Tensor, tf.Tensor],
                transform_type: str) -> Tuple[tf.Tensor, tf.Tensor]:
    """([n, C, C] matrices A, [n, C] offsets b) with adapted = x A + b for levels x, from the
    image's and the reference's fits (`_fit`):
    "standard" (x - mean_s) / sd_s sd_t + mean_t, "minmax" (x - min_s) / range_s range_t + min_t
    (a zero deviation or range taken as 1), "pca" the source's principal coordinates
    (x - mean_s) V_s' put back on the reference's axes, y V_t + mean_t, each reference axis
    signed to agree with the source's (non-negative dot product)."""
    (s_loc, s_shape), (t_loc, t_shape) = source, target
    if transform_type in ("standard", "minmax"):
        gain = t_shape / s_shape
        return tf.linalg.diag(gain), t_loc - s_loc * gain
    agree = tf.reduce_sum(s_shape * t_shape, axis=-1, keepdims=True) >= 0.0
    t_axes = tf.where(agree, t_shape, -t_shape)
    matrix = tf.matmul(s_shape, t_axes, transpose_a=True)  # V_s' V_t
    return matrix, t_loc - tf.linalg.matvec(matrix, s_loc, transpose_a=True)


def pixel_distribution_adaptation(images: Images, reference_images: TensorLike,
                                  blend_ratio: Tuple[float, float] = (0.25, 1.0), transform_type: str = "pca",
                                  probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' PixelDistributionAdaptation per sample, as its code intends, with
    probability `probability`: a reference drawn uniformly from `reference_images`; the map
    (`transform_type`) fitted to the image's levels v / 255 and to the reference's; adapted =
    255 inverse_reference(map_image(v / 255)); rint((1 - r) v + r adapted), saturated, r uniform
    in `blend_ratio`. (Albumentations 2.0.8 blends the adapted levels on the 0..1 scale with
    the image on 0..255, so its output is the image times (1 - r).)

    Args:
      images: uint8 `[B, H, W, C]`.
      reference_images: uint8 `[R, h, w, C]`, the bank (the images' channels); its statistics
        are taken at its own size.
      blend_ratio: (min, max) weight of the adapted image within [0, 1].
      transform_type: "pca", "standard" or "minmax".
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    bank, ratio = check_pixel_distribution_args(reference_images, blend_ratio, transform_type, probability)
    images, n, (s_pick, s_ratio, s_apply) = _draws(images, seed, 3)
    check_channels("PixelDistributionAdaptation", images, bank)
    c = bank.shape[-1]
    shape = tf.shape(images)
    # statistics in float32 (each a reduction over the image; 2e-7 relative is far below a level)
    pixels = tf.reshape(tf.cast(images, tf.float32) / 255.0, [n, -1, c])
    bank_pixels = tf.reshape(tf.cast(bank, tf.float32) / 255.0, [bank.shape[0], -1, c])
    pick = tf.random.stateless_uniform([n], s_pick, 0, bank.shape[0], dtype=tf.int32)
    # the bank's fits once (R of them), then each sample's
    target = tuple(tf.gather(v, pick) for v in _fit(bank_pixels, transform_type))
    matrix, offset = colour_maps(_fit(pixels, transform_type), target, transform_type)
    matrix, offset = tf.cast(matrix, tf.float64), tf.cast(offset, tf.float64)
    r = tf.random.stateless_uniform([n], s_ratio, ratio[0], ratio[1], dtype=tf.float64)
    r = tf.where(tf.random.stateless_uniform([n], s_apply) < probability, r, 0.0)[:, None, None]
    # (1 - r) v + r 255 (v / 255 A + b) = v ((1 - r) I + r A) + 255 r b
    blend = tf.cast((1.0 - r) * tf.eye(c, dtype=tf.float64) + r * matrix, tf.float32)
    shift = tf.cast(255.0 * r[:, 0] * offset, tf.float32)[:, None, :]
    out = tf.matmul(tf.reshape(tf.cast(images, tf.float32), [n, -1, c]), blend) + shift
    return tf.reshape(tf.cast(tf.clip_by_value(tf.round(out), 0.0, 255.0), tf.uint8), shape)
