"""Albumentations' FDA (Fourier Domain Adaptation, Yang and Soatto 2020) per sample: the
low-frequency amplitudes of each channel's spectrum replaced by those of a reference drawn from
a bank, the phases kept; TensorFlow's real float32 FFTs."""
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
    # Real FFTs on float32 planes: real(ifft(X)) of the mutated (not Hermitian: the window is
    # not symmetric) spectrum X is the inverse real FFT of its Hermitian part, whose amplitude at
    # k is the mean of X's at k and -k: the reference's amplitude weighted by the mean of the
    # window's masks at k and -k (both spectra's amplitudes are symmetric), the image's by the
    # rest, the image's phase kept.
    planes = lambda x: tf.transpose(tf.cast(x, tf.float32), [0, 3, 1, 2])  # noqa: E731
    source = tf.signal.rfft2d(planes(images))
    target = tf.signal.rfft2d(planes(references))
    mask = tf.cast(low_frequency_masks(hw, beta), tf.float32)  # [B, 1, H, W]
    mirrored = tf.roll(tf.reverse(mask, axis=[2, 3]), shift=[1, 1], axis=[2, 3])  # the mask at -k
    weight = ((mask + mirrored) / 2.0)[..., : tf.shape(source)[-1]]
    source_amplitude = tf.abs(source)
    amplitude = weight * tf.abs(target) + (1.0 - weight) * source_amplitude
    # the image's phase: source / |source| (1 where the source is 0, as angle(0) = 0)
    ratio = tf.where(source_amplitude > 0.0, amplitude / tf.where(source_amplitude > 0.0, source_amplitude, 1.0), 0.0)
    at_zero = tf.where(source_amplitude > 0.0, 0.0, amplitude)
    mutated = source * tf.complex(ratio, 0.0) + tf.complex(at_zero, 0.0)
    planes_out = tf.signal.irfft2d(mutated, fft_length=hw)
    out = tf.cast(tf.clip_by_value(tf.round(tf.transpose(planes_out, [0, 2, 3, 1])), 0.0, 255.0), tf.uint8)
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    return tf.where(apply[:, None, None, None], out, images)
