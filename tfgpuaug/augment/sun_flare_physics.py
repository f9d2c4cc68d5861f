"""Albumentations' RandomSunFlare "physics_based" method per sample. A flare layer is painted as
OpenCV paints it in Albumentations' add_sun_flare_physics_based: the sun a filled disc of
src_radius, four lines through it at 0, 45, 90 and 135 degrees as cv2.line draws them 2 pixels
thick (OpenCV's quadrilateral of the line's edges, filled by its scanline walkers, its four edge
lines and a round cap at each end), then each flare circle filled in its colour (the circles'
draws are the "overlay" method's; a circle's radius is int(size ** 0.33) of its size rad^3). The
layer is blurred by cv2.GaussianBlur's float32 kernel for sigma 15, multiplied by the radial fade
1 - min(d / (0.7 max(H, W)), 1) (float64, as numpy multiplies), its first channel blurred again
with sigma 3 and its third with sigma 5, and screened over the image: 255 - (255 - x)(255 - f) /
255 in float32, clipped and truncated to bytes (Albumentations' clip).

The lines and discs become spans in the graph, which the SpanRaster kernel op paints in order
(the last shape over a pixel gives its colour); the blurs are the SeparableBlur kernel op (rows,
then columns, reflect-101, float32 fused multiply-adds in tap order: another order than OpenCV's
sums, so a byte lies within one level of Albumentations', equal on all but a few bytes in a
million on photos); the unpacking of the painted colours, both blurs, the fade and the screen
are one FlareBlend kernel op (a sample's channels one at a time through the SeparableBlur op's
loops, the fade computed in float64 and applied in float32, the screen in float32)."""
from __future__ import annotations

from typing import List, Tuple

import numpy as np
import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug._types import TensorLike
from tfgpuaug.augment.raster import XY_ONE, clip_line, convex_quad_spans, flat_spans, span_raster

LINE_ANGLES = (0, 45, 90, 135)  # degrees, as Albumentations draws its diffraction spikes
FLARE_SIGMA, FIRST_CHANNEL_SIGMA, THIRD_CHANNEL_SIGMA = 15.0, 3.0, 5.0
_DBL_EPSILON = float(np.finfo(np.float64).eps)


def gaussian_taps(sigma: float) -> np.ndarray:
    """cv2.GaussianBlur's float32 kernel for ksize (0, 0) and a float32 image: side
    cvRound(8 sigma + 1) | 1, each value float32(exp(-x^2 / (2 sigma^2))), their float64 sum,
    float32(value / sum)."""
    side = int(np.rint(sigma * 8.0 + 1.0)) | 1
    x = np.arange(side, dtype=np.float64) - side // 2
    t = np.exp((-0.5 / (sigma * sigma) * x) * x).astype(np.float32).astype(np.float64)
    return (t * (1.0 / t.sum())).astype(np.float32)


def separable_blur(planes: tf.Tensor, kernels: TensorLike) -> tf.Tensor:
    """Float planes `[P, H, W]` blurred along each row, then each column, by `kernels[p % K]`
    (`[K, T]` float32, T odd, centred) over OpenCV's reflect-101 border (the SeparableBlur kernel
    op: the fused multiply-adds of each kernel's non-zero taps in order, the same floats on the CPU
    and the GPU)."""
    kernels = tf.convert_to_tensor(kernels, tf.float32)
    if kernels.shape.rank != 2 or (kernels.shape[1] is not None and kernels.shape[1] % 2 != 1):
        raise ValueError(f"separable_blur: kernels must be [K, T] with T odd, got {kernels.shape}")
    return _loader.ops().tf_gpu_aug_separable_blur(tf.convert_to_tensor(planes, tf.float32), kernels)


def _centred(taps: np.ndarray, side: int) -> np.ndarray:
    """taps zero-padded on both sides to `side` (both odd)."""
    pad = (side - len(taps)) // 2
    return np.pad(taps, (pad, pad))


def _disc_spans(cx: tf.Tensor, cy: tf.Tensor, radius: tf.Tensor, dy: tf.Tensor) -> List[tf.Tensor]:
    """cv2.circle's filled disc (dx^2 + dy^2 <= r^2) as spans on rows cy + dy: int64 centres and
    radii `[...]`, offsets `[R]` -> [rows, starts, stops] `[..., R]` (row -1 where the disc is not)."""
    r = radius[..., None]
    inside = tf.abs(dy) <= r
    half = tf.cast(tf.floor(tf.sqrt(tf.cast(tf.maximum(r * r - dy * dy, 0), tf.float64))), tf.int64)
    x = cx[..., None]
    return [tf.where(inside, cy[..., None] + dy, -1), x - half, x + half + 1]


def _line_edge_points(x1, y1, x2, y2, height, width, steps: tf.Tensor) -> List[tf.Tensor]:
    """OpenCV's fixed-point line (Line2, 16.16 ends, int64 `[...]`) as one-pixel spans `[...,
    steps + 1]`: clipped to the image by clipLine, walked one pixel a step along its major axis
    from its lower end with the minor coordinate's rounded 16.16 step, plus its rounded far end."""
    one, half = XY_ONE, XY_ONE // 2
    x1, y1, x2, y2, inside = clip_line(x1, y1, x2, y2, height * one, width * one)
    ax, ay = tf.abs(x2 - x1), tf.abs(y2 - y1)
    across = ax > ay  # x-major
    swap = tf.where(across, x2 < x1, y2 < y1)
    x1, x2 = tf.where(swap, x2, x1), tf.where(swap, x1, x2)
    y1, y2 = tf.where(swap, y2, y1), tf.where(swap, y1, y2)
    step = tf.where(across, tf.truncatediv((y2 - y1) * one, tf.bitwise.bitwise_or(ax, 1)),
                    tf.truncatediv((x2 - x1) * one, tf.bitwise.bitwise_or(ay, 1)))
    count = tf.where(across, tf.math.floordiv(x2 - x1, one), tf.math.floordiv(y2 - y1, one))
    k = tf.cast(steps, tf.int64)
    x1, y1 = x1[..., None] + half, y1[..., None] + half
    moved = tf.math.floordiv(tf.where(across[..., None], y1, x1) + k * step[..., None], one)
    fixed = tf.math.floordiv(tf.where(across[..., None], x1, y1), one) + k
    px = tf.where(across[..., None], fixed, moved)
    py = tf.where(across[..., None], moved, fixed)
    on = inside[..., None] & (k <= count[..., None])
    end_x, end_y = tf.math.floordiv(x2 + half, one), tf.math.floordiv(y2 + half, one)
    px = tf.concat([px, end_x[..., None]], -1)
    py = tf.concat([py, end_y[..., None]], -1)
    on = tf.concat([on, inside[..., None]], -1)
    return [tf.where(on, py, -1), px, px + 1]


def thick_line_spans(x0: tf.Tensor, y0: tf.Tensor, x1: tf.Tensor, y1: tf.Tensor, height: tf.Tensor,
                     width: tf.Tensor, rows: tf.Tensor, steps: tf.Tensor) -> List[tf.Tensor]:
    """cv2.line(img, (x0, y0), (x1, y1), colour, thickness=2) (LINE_8) as spans: int64 ends
    `[...]` -> [rows, starts, stops] `[..., S]`. The ends are first clipped (clipLine) to the
    image grown by 2 pixels on every side, as OpenCV 5 does before drawing a thick line
    (opencv/opencv pull request 27366; OpenCV 4.10 draws the whole segment, which moves a
    slanted line's pixels near where it leaves the image). Then OpenCV's ThickLine: the
    quadrilateral of the ends moved by dp = cvRound(65536 (dy, dx) / |d|) (16.16) either way
    across the line, filled by FillConvexPoly's walkers (`rows`: row offsets from its top row to
    cover) after its four edges are drawn by Line2 (`steps`: enough steps for the longest clipped
    edge), then a filled circle of radius 1 at each end."""
    one, margin = XY_ONE, 2
    height, width = tf.cast(height, tf.int64), tf.cast(width, tf.int64)
    x0, y0, x1, y1, seen = clip_line(x0 + margin, y0 + margin, x1 + margin, y1 + margin, height + 2 * margin,
                                     width + 2 * margin)
    x0, y0, x1, y1 = x0 - margin, y0 - margin, x1 - margin, y1 - margin
    dx = tf.cast((x0 - x1) * one, tf.float64) / one
    dy = tf.cast((y1 - y0) * one, tf.float64) / one
    r = dx * dx + dy * dy
    has_quad = r > _DBL_EPSILON
    scale = 65536.0 / tf.sqrt(tf.where(has_quad, r, 1.0))
    dpx, dpy = tf.cast(tf.math.rint(dy * scale), tf.int64), tf.cast(tf.math.rint(dx * scale), tf.int64)
    fx0, fy0, fx1, fy1 = x0 * one, y0 * one, x1 * one, y1 * one
    vx = tf.stack([fx0 + dpx, fx0 - dpx, fx1 - dpx, fx1 + dpx], -1)
    vy = tf.stack([fy0 + dpy, fy0 - dpy, fy1 - dpy, fy1 + dpy], -1)
    fill = convex_quad_spans(tf.stack([vx, vy], -1), rows, shift=16)
    fill[0] = tf.where(has_quad[..., None], fill[0], -1)
    # edges v3 -> v0, v0 -> v1, v1 -> v2, v2 -> v3, in FillConvexPoly's order
    sx, sy = tf.roll(vx, 1, axis=-1), tf.roll(vy, 1, axis=-1)
    edges = _line_edge_points(sx, sy, vx, vy, height, width, steps)
    edges[0] = tf.where(has_quad[..., None, None], edges[0], -1)
    cap_rows = tf.range(-1, 2, dtype=tf.int64)
    caps = [tf.concat(pair, -1) for pair in zip(_disc_spans(x0, y0, tf.ones_like(x0), cap_rows),
                                                 _disc_spans(x1, y1, tf.ones_like(x1), cap_rows))]
    flat = lambda t: tf.reshape(t, tf.concat([tf.shape(t)[:-2], [-1]], 0))  # noqa: E731
    spans = [tf.concat([f, flat(e), c], -1) for f, e, c in zip(fill, edges, caps)]
    spans[0] = tf.where(seen[..., None], spans[0], -1)  # nothing of the line is near the image
    return spans


def flare_layer(sun_x: tf.Tensor, sun_y: tf.Tensor, src_radius: int, src_color: Tuple[int, int, int],
                circles: tf.Tensor, circle_colours: tf.Tensor, apply: tf.Tensor, height: tf.Tensor,
                width: tf.Tensor) -> tf.Tensor:
    """The unblurred flare layer `[n, H, W]` int32, each pixel's colour packed r + 256 g + 65536 b:
    the sun's disc and lines in src_color, then the used circles (`circles` `[n, N, 3]` int32 x, y,
    size or -1; colours `[n, N, 3]`) in order; zero where nothing is drawn or the sample is left
    alone."""
    n = tf.shape(sun_x)[0]
    cx, cy = tf.cast(sun_x, tf.int64), tf.cast(sun_y, tf.int64)
    h64, w64 = tf.cast(height, tf.int64), tf.cast(width, tf.int64)
    side = tf.maximum(h64, w64)
    sun = _disc_spans(cx, cy, tf.fill(tf.shape(cx), tf.constant(src_radius, tf.int64)),
                      tf.range(h64)[None, :] - cy[:, None])  # rows 0 .. H - 1
    ends_x, ends_y = [], []
    for angle in LINE_ANGLES:
        c, s = float(np.cos(np.radians(angle))), float(np.sin(np.radians(angle)))
        # int(center + cos(angle) * max(width, height)): float64, truncated towards zero
        ends_x.append(tf.cast(tf.cast(cx, tf.float64) + c * tf.cast(side, tf.float64), tf.int64))
        ends_y.append(tf.cast(tf.cast(cy, tf.float64) + s * tf.cast(side, tf.float64), tf.int64))
    lines = thick_line_spans(tf.tile(cx[:, None], [1, 4]), tf.tile(cy[:, None], [1, 4]), tf.stack(ends_x, 1),
                             tf.stack(ends_y, 1), height, width, tf.range(h64 + 3), tf.range(side + 1))
    used = circles[..., 2] >= 0
    size = tf.cast(tf.maximum(circles[..., 2], 1), tf.float64)
    radius = tf.cast(tf.pow(size, 0.33), tf.int64)  # int(size ** 0.33)
    reach = tf.reduce_max(tf.concat([tf.reshape(radius, [-1]), [0]], 0))
    rings = _disc_spans(tf.cast(circles[..., 0], tf.int64), tf.cast(circles[..., 1], tf.int64), radius,
                        tf.range(-reach, reach + 1))
    rings[0] = tf.where(used[..., None], rings[0], -1)
    parts = [flat_spans(*sun), flat_spans(*lines), flat_spans(*rings)]
    sun_rows = tf.where(apply[:, None], parts[0][0], -1)
    line_rows = tf.where(apply[:, None], parts[1][0], -1)
    rows = tf.concat([sun_rows, line_rows, parts[2][0]], 1)
    starts = tf.concat([parts[0][1], parts[1][1], parts[2][1]], 1)
    stops = tf.concat([parts[0][2], parts[1][2], parts[2][2]], 1)
    # each span's colour packed r + 256 g + 65536 b: one painting in order, unpacked per channel
    packed = lambda rgb: rgb[..., 0] + 256 * rgb[..., 1] + 65536 * rgb[..., 2]  # noqa: E731
    sun_value = int(packed(np.asarray(src_color, np.int64)))
    ring_values = tf.broadcast_to(packed(tf.cast(circle_colours, tf.int32))[..., None], tf.shape(rings[0]))
    values = tf.concat([tf.fill(tf.shape(sun_rows), sun_value), tf.fill(tf.shape(line_rows), sun_value),
                        tf.reshape(ring_values, [n, -1])], 1)
    clamp = lambda t: tf.cast(tf.clip_by_value(t, -1, tf.cast(side, tf.int64) + 1), tf.int32)  # noqa: E731
    return span_raster(clamp(rows), clamp(starts), clamp(stops), values, height, width, combine="last")


def physics_flare(images: tf.Tensor, sun_x: tf.Tensor, sun_y: tf.Tensor, src_radius: int,
                  src_color: Tuple[int, int, int], circles: tf.Tensor, circle_colours: tf.Tensor) -> tf.Tensor:
    """add_sun_flare_physics_based per sample on uint8 `[n, H, W, 3]` images: samples with no
    used circle (the ones left alone) are returned as they are."""
    apply = tf.reduce_any(circles[..., 2] >= 0, axis=1)
    height, width = tf.shape(images)[1], tf.shape(images)[2]
    layer = flare_layer(sun_x, sun_y, src_radius, src_color, circles, circle_colours, apply, height, width)
    sun = tf.stack([tf.cast(sun_x, tf.int32), tf.cast(sun_y, tf.int32)], 1)
    return flare_blend(images, layer, sun, apply, gaussian_taps(FLARE_SIGMA), second_blur_kernels())


def second_blur_kernels() -> np.ndarray:
    """`[3, T]`: the first channel's sigma-3 kernel, a single tap of 1 (the second channel is
    kept), the third's sigma-5 kernel, zero-padded to one side."""
    first, third = gaussian_taps(FIRST_CHANNEL_SIGMA), gaussian_taps(THIRD_CHANNEL_SIGMA)
    side = max(len(first), len(third))
    return np.stack([_centred(first, side), _centred(np.ones(1, np.float32), side), _centred(third, side)])


def flare_blend(images: tf.Tensor, layer: tf.Tensor, sun: tf.Tensor, apply: tf.Tensor, flare_kernel: TensorLike,
                kernels: TensorLike) -> tf.Tensor:
    """Everything after the painting (the FlareBlend kernel op): per RGB sample of `images`
    `[n, H, W, 3]` uint8 whose `apply` is true, its packed `layer` `[n, H, W]` int32 (r + 256 g +
    65536 b) as three float planes blurred by `flare_kernel` (`[T]`), times the radial fade around
    `sun` `[n, 2]` (x, y), channel c blurred by `kernels[c]` (`[3, T2]`), and screened over the
    image; other samples come back unchanged. No batch of float planes is made: each sample's
    channels go through the steps one at a time."""
    return _loader.ops().tf_gpu_aug_flare_blend(
        tf.convert_to_tensor(images, tf.uint8), tf.convert_to_tensor(layer, tf.int32),
        tf.convert_to_tensor(sun, tf.int32), tf.convert_to_tensor(apply, tf.bool),
        tf.convert_to_tensor(flare_kernel, tf.float32), tf.convert_to_tensor(kernels, tf.float32))
