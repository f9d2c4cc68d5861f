"""Albumentations' HistogramMatching per sample: each image's channels mapped so that their
cumulative histograms follow those of a reference image drawn from a bank, blended with the
image. Everything but two passes over the pixels is on 256-entry tables: the histograms (the
ChannelHistograms kernel op, one read of the bytes), the matching (skimage's quantile
interpolation, as Albumentations restates it) and the blend fold into one lookup table per
sample and channel, applied by the LevelTables kernel op (one read and one write of the bytes)."""
from __future__ import annotations

from typing import Tuple

import tensorflow as tf

from tfgpuaug._types import Images, Seed, TensorLike
from tfgpuaug.augment.photometric import _check_probability, _draws
from tfgpuaug.augment.pixel_tables import channel_histograms, level_tables
from tfgpuaug.augment.references import check_bank, check_channels, drawn_references


def check_histogram_matching_args(reference_images: TensorLike, blend_ratio,
                                  probability: float) -> Tuple[tf.Tensor, tuple]:
    """The reference bank as a uint8 `[R, h, w, C]` constant and the checked blend range."""
    bank = check_bank("HistogramMatching", reference_images)
    ratio = tuple(float(v) for v in blend_ratio)
    if len(ratio) != 2 or not 0.0 <= ratio[0] <= ratio[1] <= 1.0:
        raise ValueError(f"HistogramMatching: blend_ratio must be (min, max) within [0, 1], got {blend_ratio!r}")
    _check_probability(probability)
    return bank, ratio


def matching_tables(source_counts: tf.Tensor, template_counts: tf.Tensor) -> tf.Tensor:
    """[..., 256] float64 level maps: each source level's quantile x (its cumulative count over
    the pixels) located among the template's quantiles at the template's present levels and
    the level interpolated linearly there, slope (x - q_j) + level_j, clamped to the first and
    last present levels (np.interp, as skimage's _match_cumulative_cdf uses it). Levels are
    float64 throughout: TensorFlow has GPU gathers and argmax for them, not for int32."""
    batch_dims = len(source_counts.shape) - 1
    src_q = tf.cumsum(tf.cast(source_counts, tf.float64), axis=-1)
    src_q /= src_q[..., -1:]
    tmpl = tf.cast(template_counts, tf.float64)
    tmpl_q = tf.cumsum(tmpl, axis=-1)
    tmpl_q /= tmpl_q[..., -1:]
    present = tmpl > 0.0
    levels = tf.range(256, dtype=tf.float64)
    last_present = _running_max(tf.where(present, levels, -1.0))
    first = tf.reduce_min(tf.where(present, levels, 256.0), axis=-1, keepdims=True)
    top = last_present[..., -1:]
    # the first level whose quantile exceeds x is a present one (quantiles only rise there)
    above = tf.minimum(tf.searchsorted(tmpl_q, src_q, side="right"), 255)
    below = tf.maximum(tf.gather(last_present, tf.maximum(above - 1, 0), batch_dims=batch_dims), 0.0)
    q_above = tf.gather(tmpl_q, above, batch_dims=batch_dims)
    q_below = tf.gather(tmpl_q, tf.cast(below, tf.int32), batch_dims=batch_dims)
    slope = (tf.cast(above, tf.float64) - below) / (q_above - q_below)
    inner = slope * (src_q - q_below) + below
    q_first = tf.gather(tmpl_q, tf.cast(first, tf.int32), batch_dims=batch_dims)
    out = tf.where(src_q >= 1.0, top, inner)
    return tf.where(src_q <= q_first, first, out)


def _running_max(marks: tf.Tensor) -> tf.Tensor:
    """Along the last axis (256), the running maximum: the last present level so far (-1 before)."""
    out = marks
    shift = 1
    while shift < 256:  # Hillis-Steele: eight steps of shifted maxima
        pad = tf.fill(tf.concat([tf.shape(out)[:-1], [shift]], 0), tf.constant(-1, marks.dtype))
        out = tf.maximum(out, tf.concat([pad, out[..., :-shift]], axis=-1))
        shift *= 2
    return out


def histogram_matching(images: Images, reference_images: TensorLike, blend_ratio: Tuple[float, float] = (0.5, 1.0),
                       probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' HistogramMatching per sample, with probability `probability`: a reference
    drawn uniformly from `reference_images` and resized to the image's size when it differs
    (bilinear, as cv2.resize), each channel's levels mapped to the reference's by their
    cumulative histograms (truncated to whole levels), blended rint(r matched + (1 - r) image)
    with r uniform in `blend_ratio`.

    Args:
      images: uint8 `[B, H, W, C]`.
      reference_images: uint8 `[R, h, w, C]`, the bank (one size, the images' channels).
      blend_ratio: (min, max) weight of the matched image within [0, 1].
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    bank, ratio = check_histogram_matching_args(reference_images, blend_ratio, probability)
    images, n, (s_pick, s_ratio, s_apply) = _draws(images, seed, 3)
    check_channels("HistogramMatching", images, bank)
    pick = tf.random.stateless_uniform([n], s_pick, 0, bank.shape[0], dtype=tf.int32)
    if images.shape[1:3] == bank.shape[1:3]:
        # references of the images' size are used as they are: their histograms once, here
        source_counts = channel_histograms(images)
        template_counts = tf.gather(tf.cast(channel_histograms(bank), tf.float64), pick)
    else:  # each drawn reference resized to the image's size (bilinear, as cv2.resize)
        references = tf.cast(drawn_references(bank, pick, tf.shape(images)[1:3]), tf.uint8)
        counts = channel_histograms(tf.concat([images, references], axis=0))
        source_counts, template_counts = counts[:n], counts[n:]
    matched = tf.floor(matching_tables(source_counts, template_counts))  # [B, C, 256], astype(uint8)
    r = tf.random.stateless_uniform([n], s_ratio, ratio[0], ratio[1])[:, None, None]
    levels = tf.range(256, dtype=tf.float32)
    blended = tf.clip_by_value(tf.round(tf.cast(matched, tf.float32) * r + levels * (1.0 - r)), 0.0, 255.0)
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    table = tf.where(apply[:, None, None], blended, levels)  # [B, C, 256]
    return level_tables(images, tf.cast(table, tf.uint8)[:, None])  # one row, a table per channel
