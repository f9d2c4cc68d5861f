"""Albumentations' Superpixels per sample: the image (shrunk so its longer side is at most
`max_size`, by cv2.resize's taps) cut into about n superpixels by Albumentations' own SLIC (ten
rounds; each pixel labelled by the nearest centre within a grid step, distances kept across
rounds; centres moved to their pixels' truncated mean), some segments replaced by their rounded
mean colour, and the result resized back. The SLIC and the replacement are one Superpixels kernel
op (cc/kernels/augment/superpixels.h, CPU and GPU), float64 in numpy's order: given the same
shrunk image, Albumentations' bytes. The shrink and the growth take OpenCV's INTER_LINEAR taps
with a float32 blend (cv2.resize uses 11-bit fixed-point weights: a level apart at most), so
where a sample is resized a pixel near a segment's edge may join the neighbouring segment.

Albumentations' segment rules kept as its code runs them: label 0 (the first centre's) is never
replaced; the i-th other label present takes flag i mod n of the n drawn (so with more centres
than n, flags repeat); no flag set leaves the sample untouched (no resize either)."""
from __future__ import annotations

from typing import Optional, Tuple, Union

import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability, _draws

MOST_SEGMENTS = 1 << 20  # kMostSuperpixelFlags of cc/ops/superpixels_kernels.cc
INTERPOLATIONS = ("bilinear", "nearest")
FloatRange = Union[float, Tuple[float, float]]
IntRange = Union[int, Tuple[int, int]]


def check_superpixels_args(p_replace: FloatRange, n_segments: IntRange, max_size: Optional[int],
                           interpolation: str, probability: float
                           ) -> Tuple[Tuple[float, float], Tuple[int, int]]:
    """The checked (p_replace, n_segments) ranges, read as Albumentations 2.0.8's code reads them
    (its docstring says otherwise): a number p for p_replace means (0, p), an int n for
    n_segments means (1, n)."""
    who = "Superpixels"
    p = (0.0, float(p_replace)) if isinstance(p_replace, (int, float)) else tuple(map(float, p_replace))
    if len(p) != 2 or not 0.0 <= p[0] <= p[1] <= 1.0:
        raise ValueError(f"{who}: p_replace must be a probability p (meaning (0, p), as Albumentations reads it) or "
                         f"(min, max) with 0 <= min <= max <= 1, got {p_replace!r}")
    if isinstance(n_segments, bool) or isinstance(n_segments, float):
        raise ValueError(f"{who}: n_segments must be an int or (min, max) ints, got {n_segments!r}")
    n = (1, n_segments) if isinstance(n_segments, int) else tuple(n_segments)
    if len(n) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in n) or \
            not 1 <= n[0] <= n[1] <= MOST_SEGMENTS:
        raise ValueError(f"{who}: n_segments must be an int n (meaning (1, n), as Albumentations reads it) or "
                         f"(min, max) ints with 1 <= min <= max <= {MOST_SEGMENTS}, got {n_segments!r}; pass "
                         "(n, n) for a fixed count")
    if max_size is not None and (isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 1):
        raise ValueError(f"{who}: max_size must be a positive int or None (no resizing), got {max_size!r}")
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"{who}: interpolation must be one of {INTERPOLATIONS} (cv2.INTER_LINEAR, "
                         f"cv2.INTER_NEAREST), got {interpolation!r}")
    _check_probability(probability)
    return (p[0], p[1]), (int(n[0]), int(n[1]))


def superpixels_op(images: Images, segments: tf.Tensor, replace: tf.Tensor) -> tf.Tensor:
    """The Superpixels kernel op: sample b cut into about segments[b] superpixels by
    Albumentations' SLIC, the i-th label present (label 0 excepted) replaced by its rounded mean
    colour where replace[b, i mod n] is set (n = segments[b] clamped to [1, M]); a sample with no
    flag set among its first n is left as it is.

    Args:
      images: uint8 `[B, H, W, C]`, at most 2^28 pixels an image.
      segments: int32 `[B]` segment counts.
      replace: bool `[B, M]` flags, M >= 1.
    """
    from tfgpuaug.augment.ops import check_images
    return _loader.ops().tf_gpu_aug_superpixels(check_images(images), tf.convert_to_tensor(segments, tf.int32),
                                                tf.convert_to_tensor(replace, tf.bool))


def shrunk_size(height, width, max_size: int):
    """Albumentations' size for the SLIC: (int(h s), int(w s)) with s = max_size / max(h, w)
    when that side is above max_size (float64, as Python computes it; at least 1), else (h, w).
    Python ints for static sides, int32 tensors otherwise."""
    if isinstance(height, int) and isinstance(width, int):
        side = max(height, width)
        if side <= max_size:
            return height, width
        scale = max_size / side
        return max(int(height * scale), 1), max(int(width * scale), 1)
    h, w = tf.cast(height, tf.float64), tf.cast(width, tf.float64)
    side = tf.maximum(h, w)
    scale = max_size / side

    def shrink(v, size):
        return tf.where(side > max_size, tf.maximum(tf.cast(v * scale, tf.int32), 1), size)

    return shrink(h, tf.cast(height, tf.int32)), shrink(w, tf.cast(width, tf.int32))


def _resized(images: tf.Tensor, height, width, linear: bool) -> tf.Tensor:
    from tfgpuaug.crop_and_pad import resize_taps, separable_resample
    shape = tf.shape(images)
    rows = resize_taps(tf.fill(shape[:1], shape[1]), height, linear)
    cols = resize_taps(tf.fill(shape[:1], shape[2]), width, linear)
    return separable_resample(images, rows, cols, 0.0)


def superpixels(images: Images, p_replace: FloatRange = (0.0, 0.1), n_segments: IntRange = (100, 100),
                max_size: Optional[int] = 128, interpolation: str = "bilinear", probability: float = 0.5,
                seed: Seed = None) -> tf.Tensor:
    """Albumentations' Superpixels per sample, with probability `probability`: n uniform in
    `n_segments` (inclusive), p uniform in `p_replace`, n flags each set with probability p; the
    image shrunk to at most `max_size` on its longer side, cut into about n superpixels by
    Albumentations' SLIC, the segments whose flag is set replaced by their mean colour (see the
    module for which flag a segment takes), and resized back.

    Args:
      images: uint8 `[B, H, W, C]` (every channel, as Albumentations).
      p_replace: (min, max) probability that a segment is replaced; p means (0, p).
      n_segments: (min, max) ints, the rough number of superpixels; n means (1, n).
      max_size: longest side the SLIC runs at (the image is shrunk and grown back); None: none.
      interpolation: "bilinear" (cv2.INTER_LINEAR) or "nearest" (cv2.INTER_NEAREST) for the resizes.
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    p_range, n_range = check_superpixels_args(p_replace, n_segments, max_size, interpolation, probability)
    images, b, (s_count, s_p, s_flags, s_apply) = _draws(images, seed, 4)
    count = tf.random.stateless_uniform([b], s_count, n_range[0], n_range[1] + 1, dtype=tf.int32)
    p = tf.random.stateless_uniform([b], s_p, p_range[0], p_range[1], dtype=tf.float64)
    apply = tf.random.stateless_uniform([b], s_apply) < probability
    flags = (tf.random.stateless_uniform([b, n_range[1]], s_flags, dtype=tf.float64) < p[:, tf.newaxis]) \
        & apply[:, tf.newaxis]
    if max_size is None:
        return superpixels_op(images, count, flags)
    height, width = images.shape[1], images.shape[2]
    static = height is not None and width is not None
    if not static:
        height, width = tf.shape(images)[1], tf.shape(images)[2]
    small = shrunk_size(height, width, max_size)
    if static and small == (height, width):
        return superpixels_op(images, count, flags)
    linear = interpolation == "bilinear"
    replaced = _resized(superpixels_op(_resized(images, *small, linear), count, flags), height, width, linear)
    # a sample with no flag among its first n is Albumentations' early return: no resize either
    active = tf.reduce_any(flags & (tf.range(n_range[1])[tf.newaxis, :] < count[:, tf.newaxis]), axis=1)
    return tf.where(active[:, tf.newaxis, tf.newaxis, tf.newaxis], replaced, images)
