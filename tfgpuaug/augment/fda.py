"""Albumentations' FDA (Fourier Domain Adaptation, Yang and Soatto 2020) per sample: the
low-frequency amplitudes of each channel's spectrum replaced by those of a reference drawn from
a bank, the phases kept; TensorFlow's complex128 FFTs, as numpy's."""
from __future__ import annotations

from typing import Tuple

import tensorflow as tf

from tfgpuaug._types import Images, Seed, TensorLike
from tfgpuaug.augment.photometric import _check_probability, _draws
from tfgpuaug.augment.references import check_bank, check_channels, drawn_references

MAX_BETA = 0.5  # Albumentations' MAX_BETA_LIMIT


def check_fda_args(reference_images: TensorLike, beta_limit, probability: float) -> Tuple[tf.Tensor, tuple]:
    """The bank and the checked beta range (a single b means (0, b), as Albumentations reads it)."""
    bank = check_bank("FDA", reference_images)
    betas = (0.0, float(beta_limit)) if isinstance(beta_limit, (int, float)) else tuple(float(v) for v in beta_limit)
    if len(betas) != 2 or not 0.0 <= betas[0] <= betas[1] <= MAX_BETA:
        raise ValueError(f"FDA: beta_limit must be a number or (min, max) within [0, {MAX_BETA}], got {beta_limit!r}")
    _check_probability(probability)
    return bank, betas


def low_frequency_masks(hw: tf.Tensor, beta: tf.Tensor) -> tf.Tensor:
    """[B, 1, H, W] bool, in unshifted FFT order: Albumentations' window of the centred spectrum,
    rows int(cy - b) .. int(cy + b) (truncated toward zero, clipped), cy = H / 2 - 0.5, b =
    floor(min(H, W) beta), likewise columns; moved back by ifftshift."""
    h, w = tf.cast(hw[0], tf.float64), tf.cast(hw[1], tf.float64)
    border = tf.floor(tf.minimum(h, w) * tf.cast(beta, tf.float64))[:, None]  # [B, 1]
    def span(size, length):
        centre = size / 2.0 - 0.5
        lo = tf.maximum(0, tf.cast(centre - border, tf.int32))
        hi = tf.minimum(tf.cast(centre + border, tf.int32), length)
        at = tf.range(length)[None, :]
        return (at >= lo) & (at < hi)  # [B, length]
    rows, cols = span(h, hw[0]), span(w, hw[1])
    shifted = tf.cast(rows[:, :, None] & cols[:, None, :], tf.float32)  # float: GPU rolls take it
    return (tf.signal.ifftshift(shifted, axes=(1, 2)) > 0.5)[:, None]


def fda(images: Images, reference_images: TensorLike, beta_limit: Tuple[float, float] = (0.0, 0.1),
        probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' FDA per sample, with probability `probability`: a reference drawn uniformly
    from `reference_images`, resized to the image's size where it differs (bilinear); per
    channel, the amplitudes of the image's 2-D spectrum inside the centred window of half-side
    floor(min(H, W) beta) replaced by the reference's, the phases kept, the inverse transform's
    real part rounded and saturated; beta uniform in `beta_limit`.

    Args:
      images: uint8 `[B, H, W, C]`.
      reference_images: uint8 `[R, h, w, C]`, the bank (one size, the images' channels).
      beta_limit: (min, max) within [0, 0.5]: the window's half-side as a fraction of the
        shorter side; b means (0, b).
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    bank, betas = check_fda_args(reference_images, beta_limit, probability)
    images, n, (s_pick, s_beta, s_apply) = _draws(images, seed, 3)
    check_channels("FDA", images, bank)
    hw = tf.shape(images)[1:3]
    pick = tf.random.stateless_uniform([n], s_pick, 0, bank.shape[0], dtype=tf.int32)
    references = drawn_references(bank, pick, hw)
    beta = tf.random.stateless_uniform([n], s_beta, betas[0], betas[1])
    to_planes = lambda x: tf.complex(tf.transpose(tf.cast(x, tf.float64), [0, 3, 1, 2]),  # noqa: E731
                                     tf.constant(0.0, tf.float64))
    source = tf.signal.fft2d(to_planes(images))
    target = tf.signal.fft2d(to_planes(references))
    amplitude = tf.where(low_frequency_masks(hw, beta), tf.abs(target), tf.abs(source))
    phase = tf.math.angle(source)
    mutated = tf.complex(amplitude * tf.cos(phase), amplitude * tf.sin(phase))
    planes = tf.math.real(tf.signal.ifft2d(mutated))
    out = tf.cast(tf.clip_by_value(tf.round(tf.transpose(planes, [0, 2, 3, 1])), 0.0, 255.0), tf.uint8)
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    return tf.where(apply[:, None, None, None], out, images)
