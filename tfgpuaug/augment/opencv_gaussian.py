"""cv2.GaussianBlur's kernels for 8-bit images, one rule for every caller (GlassBlur, RandomFog).

OpenCV blurs bytes in fixed point: it takes cv2.getGaussianKernel's taps (its fixed tables for
odd sides up to 9 when sigma <= 0, else exp(-x^2 / (2 sigma^2)) normalised, sigma <= 0 meaning
0.3 ((side - 1) / 2 - 1) + 0.8), rounds them to 1/256 from the outside in, each rounding error
carried to the next tap and the centre taking what makes 256, and the blur is then the exact
correlation with the outer product of those taps, rounded half up (the Filter2D op's
`ties_up`). The products are multiples of 2^-16, so float32 sums of them below 256 are exact."""
from __future__ import annotations

import numpy as np
import tensorflow as tf

# cv2.getGaussianKernel's fixed tables (sigma <= 0), in 1/256ths: already whole, so the
# rounding below keeps them as they are.
_FIXED_TAPS = {1: [256], 3: [64, 128, 64], 5: [16, 64, 96, 64, 16], 7: [8, 28, 56, 72, 56, 28, 8],
               9: [4, 13, 30, 51, 60, 51, 30, 13, 4]}


def side_for_sigma(sigma: float) -> int:
    """cv2.GaussianBlur's side for ksize (0, 0) on 8-bit images: round(6 sigma + 1), made odd."""
    return int(np.rint(sigma * 6.0 + 1.0)) | 1


def taps_8bit(side: int, sigma: float = 0.0) -> np.ndarray:
    """The 1-D taps cv2.GaussianBlur uses on bytes for an odd `side` and `sigma` (<= 0: from the
    side), as int64 `[side]` in 1/256ths summing to 256."""
    if side < 1 or side % 2 == 0:
        raise ValueError(f"the Gaussian side must be odd and positive, got {side}")
    if sigma <= 0.0 and side in _FIXED_TAPS:
        return np.array(_FIXED_TAPS[side], np.int64)
    if sigma <= 0.0:
        sigma = 0.3 * ((side - 1) * 0.5 - 1.0) + 0.8
    x = np.arange(side, dtype=np.float64) - (side - 1) / 2.0
    line = np.exp(-(x * x) / (2.0 * sigma * sigma))
    line /= line.sum()
    taps, carried = np.zeros(side, np.int64), 0.0
    for i in range(side // 2):
        wanted = line[i] * 256.0 + carried
        taps[i] = taps[side - 1 - i] = int(np.rint(wanted))
        carried = wanted - taps[i]
    taps[side // 2] = 256 - 2 * taps[: side // 2].sum()
    return taps


def kernel_8bit(side: int, sigma: float = 0.0) -> tf.Tensor:
    """float32 `[1, side, side]`: the outer product of `taps_8bit` as fractions of 1."""
    taps = taps_8bit(side, sigma)
    return tf.constant(np.outer(taps, taps)[None] / 65536.0, tf.float32)


def kernel_8bit_of_side(side: tf.Tensor, max_side: int) -> tf.Tensor:
    """`kernel_8bit(side)` (sigma from the side) for a scalar int32 tensor `side`, odd in
    [1, max_side]: float32 `[side, side]`, gathered from every odd side's taps."""
    rows = np.zeros((max_side // 2 + 1, max_side), np.float64)
    for s in range(1, max_side + 1, 2):
        rows[s // 2, :s] = taps_8bit(s) / 256.0
    line = tf.gather(tf.constant(rows, tf.float32), side // 2)[:side]
    return line[:, None] * line[None, :]
