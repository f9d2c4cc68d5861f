"""Shapes drawn per sample in the graph as int32 planes `[B, H, W]`: every shape is horizontal
spans of rows, painted by the SpanRaster kernel op (cover counts as +v/-v events at the span
ends and one running sum along each row, so the work is in the shapes' rows, not the image's
pixels; or each pixel's largest value; then optionally cv2.blur's box sums). Discs, polygons
(even-odd) and 4-connected lines follow OpenCV's pixel rules; the weather effects draw with
them."""
from __future__ import annotations

from typing import Union

import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug._types import TensorLike

COMBINES = ("sum", "max", "last")


def span_raster(rows: TensorLike, starts: TensorLike, stops: TensorLike, values: TensorLike,
                height: Union[int, tf.Tensor], width: Union[int, tf.Tensor], combine: str = "sum",
                box: int = 1, fill: int = 0) -> tf.Tensor:
    """Spans painted into int32 planes `[B, height, width]` (the SpanRaster kernel op).

    Args:
      rows, starts, stops, values: int32 `[B, K]`: span k of image b covers row `rows[b, k]`,
        columns `starts[b, k] <= x < stops[b, k]`, clipped to the plane (spans outside add nothing).
      height, width: the plane's size.
      combine: every pixel starts at `fill`; "sum": plus the values of the spans covering it;
        "max": the largest of `fill` and theirs; "last": the value of the last span in the list
        covering it (painter's order), `fill` where none does.
      box: when above 1, each pixel then holds the sum over the box x box window around it
        (box // 2 pixels before, reflect-101 border: cv2.blur's window), at most 255.
      fill: the plane's starting value, a 32-bit integer.
    """
    if combine not in COMBINES:
        raise ValueError(f"span_raster: combine must be one of {COMBINES}, got {combine!r}")
    if not isinstance(box, int) or not 1 <= box <= 255:
        raise ValueError(f"span_raster: box must be a whole window side in [1, 255], got {box!r}")
    spans = [tf.convert_to_tensor(t, tf.int32) for t in (rows, starts, stops, values)]
    for name, t in zip(("rows", "starts", "stops", "values"), spans):
        if t.shape.rank is not None and t.shape.rank != 2:
            raise ValueError(f"span_raster: {name} must be int32 [B, K], got shape {t.shape}")
    size = tf.stack([tf.cast(height, tf.int32), tf.cast(width, tf.int32)])
    if not isinstance(fill, int) or not -2 ** 31 <= fill < 2 ** 31:
        raise ValueError(f"span_raster: fill must be a 32-bit integer, got {fill!r}")
    return _loader.ops().tf_gpu_aug_span_raster(*spans, size, combine=combine, box=box, fill=fill)


def line_raster(x0: TensorLike, y0: TensorLike, x1: TensorLike, y1: TensorLike, values: TensorLike,
                height: Union[int, tf.Tensor], width: Union[int, tf.Tensor], span_width: int = 1,
                combine: str = "sum", box: int = 1, fill: int = 0) -> tf.Tensor:
    """Lines painted into int32 planes `[B, height, width]` (the LineRaster kernel op), as
    `span_raster` paints spans: line k of image b from (x0, y0) to (x1, y1) as cv2.line draws it
    4-connected (LINE_4, thickness 1, walked from its left end), each pixel widened to
    `span_width` columns ((span_width - 1) // 2 of them left of it), with the value
    `values[b, k]`; one span per row the line crosses, painted in the lines' order.

    Args:
      x0, y0, x1, y1, values: int32 `[B, K]`.
      height, width: the plane's size.
      span_width: columns each line pixel covers, 1 .. 255.
      combine, box, fill: as `span_raster`'s ("last": the last line in the list covering a pixel).
    """
    if combine not in COMBINES:
        raise ValueError(f"line_raster: combine must be one of {COMBINES}, got {combine!r}")
    for name, v in (("box", box), ("span_width", span_width)):
        if not isinstance(v, int) or not 1 <= v <= 255:
            raise ValueError(f"line_raster: {name} must be a whole number in [1, 255], got {v!r}")
    if not isinstance(fill, int) or not -2 ** 31 <= fill < 2 ** 31:
        raise ValueError(f"line_raster: fill must be a 32-bit integer, got {fill!r}")
    lines = [tf.convert_to_tensor(t, tf.int32) for t in (x0, y0, x1, y1, values)]
    for name, t in zip(("x0", "y0", "x1", "y1", "values"), lines):
        if t.shape.rank is not None and t.shape.rank != 2:
            raise ValueError(f"line_raster: {name} must be int32 [B, K], got shape {t.shape}")
    size = tf.stack([tf.cast(height, tf.int32), tf.cast(width, tf.int32)])
    return _loader.ops().tf_gpu_aug_line_raster(*lines, size, span_width=span_width, combine=combine, box=box,
                                                fill=fill)


def flat_spans(*parts: tf.Tensor) -> list:
    """`[B, ...]` tensors as `[B, K]`."""
    return [tf.reshape(p, tf.stack([tf.shape(p)[0], -1])) for p in parts]


def span_counts(rows: tf.Tensor, x0: tf.Tensor, x1: tf.Tensor, valid: tf.Tensor, height, width) -> tf.Tensor:
    """How many spans cover each pixel: int32 `[B, H, W]`.

    Args:
      rows, x0, x1: int32 `[B, ...]`: span on row `rows` from column x0 to x1, both included;
        clipped to the image (a span wholly outside adds nothing).
      valid: bool `[B, ...]`: spans that count.
    """
    return span_raster(*flat_spans(rows, x0, x1 + 1, tf.cast(valid, tf.int32)), height, width)


def disc_counts(cx: tf.Tensor, cy: tf.Tensor, radius: tf.Tensor, valid: tf.Tensor, max_radius, height,
                width) -> tf.Tensor:
    """How many filled discs cover each pixel (cv2.circle's filled rule: dx^2 + dy^2 <= r^2):
    int32 `[B, H, W]` for int32 centres and radii `[B, P]` (radii at most `max_radius`)."""
    dy = tf.range(-max_radius, max_radius + 1)
    r = radius[..., None]
    inside = valid[..., None] & (tf.abs(dy) <= r)
    squared = tf.cast(tf.maximum(r * r - dy * dy, 0), tf.float32)
    half = tf.cast(tf.floor(tf.sqrt(squared)), tf.int32)  # exact: IEEE sqrt of a perfect square is exact
    x = cx[..., None]
    return span_counts(cy[..., None] + dy, x - half, x + half, inside, height, width)


def polygon_codes(vertices: tf.Tensor, height, width) -> tf.Tensor:
    """int32 `[B, S, H, W]` codes of cv2.fillPoly's cover of closed polygons with V vertices
    (float32 integer vertices `[B, S, V, 2]` (x, y), pixel centres at whole coordinates): the
    number of outline crossings left of the pixel's centre (odd: inside, even-odd; edges take
    rows min(y0, y1) <= y < max(y0, y1), a crossing at c counts for pixels x >= ceil(c)), plus
    V + 1 for each time the outline's 8-connected lines reach the pixel (OpenCV fills the
    outline too, self-crossing polygons included). A pixel is covered when its code is odd or
    above V: level tables of 2 V + 2 rows (larger codes held at the last) read the cover without
    a parity pass. One SpanRaster pass: crossings are spans to the row's end, outline pixels
    spans of one."""
    b, s, v = tf.shape(vertices)[0], tf.shape(vertices)[1], tf.shape(vertices)[2]
    flat = tf.reshape(vertices, tf.stack([b * s, v, 2]))
    p0, p1 = flat, tf.roll(flat, -1, axis=1)
    y = tf.cast(tf.range(height), tf.float32)[None, None, :]
    x0, y0, x1, y1 = (c[..., None] for c in (p0[..., 0], p0[..., 1], p1[..., 0], p1[..., 1]))
    crosses = (y >= tf.minimum(y0, y1)) & (y < tf.maximum(y0, y1))
    slope = tf.math.divide_no_nan(x1 - x0, y1 - y0)
    column = tf.cast(tf.clip_by_value(tf.math.ceil(x0 + (y - y0) * slope), 0.0, tf.cast(width, tf.float32)),
                     tf.int32)
    rows = tf.broadcast_to(tf.range(height)[None, None, :], tf.shape(column))
    ends = [tf.cast(c, tf.int32) for c in (p0[..., 0], p0[..., 1], p1[..., 0], p1[..., 1])]
    xs, ys, on = line_points(*ends, tf.maximum(height, width), connectivity=8)
    crossing = flat_spans(rows, column, tf.fill(tf.shape(column), width), tf.cast(crosses, tf.int32))
    outline = flat_spans(ys, xs, xs + 1, tf.cast(on, tf.int32) * (v + 1))
    codes = span_raster(*(tf.concat([c, o], 1) for c, o in zip(crossing, outline)), height, width)
    return tf.reshape(codes, tf.stack([b, s, height, width]))


def clip_end_column(x0: tf.Tensor, y0: tf.Tensor, x1: tf.Tensor, y1: tf.Tensor, width) -> tuple:
    """cv2.line's clipping of a segment whose start is inside the image and whose end is inside
    its rows: an end column outside [0, W - 1] moves to the edge it crossed, its row by
    trunc((edge - x1) (y1 - y0) / (x1 - x0)) in integers, as OpenCV's clipLine; OpenCV then
    draws the clipped segment, whose pixels differ from the unclipped one's near the edge."""
    edge = tf.where(x1 < 0, 0, width - 1)
    outside = (x1 < 0) | (x1 > width - 1)
    run = tf.where(outside, x1 - x0, 1)
    rise = (edge - x1) * (y1 - y0)
    shift = tf.sign(rise) * tf.sign(run) * (tf.abs(rise) // tf.abs(run))  # C's division: toward zero
    return tf.where(outside, edge, x1), tf.where(outside, y1 + shift, y1)


def line_points(x0: tf.Tensor, y0: tf.Tensor, x1: tf.Tensor, y1: tf.Tensor, max_steps,
                connectivity: int = 4) -> tuple:
    """Lines from (x0, y0) to (x1, y1), ends included (int32 `[B, ...]`), as cv2.line draws them
    (thickness 1): points `[B, ..., 2 (max_steps + 1)]` and which of them belong to the line
    (a point may repeat). `max_steps` bounds max(|dx|, |dy|).

    4-connected (LINE_4): drawn from the left end; at major-axis step j the minor axis has moved
    from ceil(m (j - 1) / M) to ceil(m j / M) (M, m the major and minor extents, x major on
    ties), one or two pixels a step: OpenCV's error-term walk in closed form. 8-connected: point
    j of the major extent is the segment's point there, rounded half to even."""
    flip = x1 < x0  # OpenCV walks from the left end
    x0, y0, x1, y1 = tf.where(flip, x1, x0), tf.where(flip, y1, y0), tf.where(flip, x0, x1), tf.where(flip, y0, y1)
    dx, dy = x1 - x0, y1 - y0
    x_major = tf.abs(dx) >= tf.abs(dy)
    major = tf.where(x_major, tf.abs(dx), tf.abs(dy))[..., None]
    minor = tf.where(x_major, tf.abs(dy), tf.abs(dx))[..., None]
    j = tf.range(max_steps + 1)
    if connectivity == 4:
        reach = lambda jj: (minor * jj + major - 1) // tf.maximum(major, 1)  # noqa: E731  ceil(m jj / M)
        low, high = reach(tf.maximum(j - 1, 0)), reach(j)
        along_major = tf.concat([tf.broadcast_to(j, tf.shape(low))] * 2, -1)
        along_minor = tf.concat([low, high], -1)
        on = tf.concat([j <= major] * 2, -1)
    else:
        ratio = tf.cast(minor * j, tf.float32) / tf.cast(tf.maximum(major, 1), tf.float32)
        along_major, along_minor = tf.broadcast_to(j, tf.shape(ratio)), tf.cast(tf.math.round(ratio), tf.int32)
        on = j <= major
    step_x, step_y = tf.sign(dx)[..., None], tf.sign(dy)[..., None]
    xm = x_major[..., None]
    x = x0[..., None] + step_x * tf.where(xm, along_major, along_minor)
    y = y0[..., None] + step_y * tf.where(xm, along_minor, along_major)
    return x, y, on



XY_ONE = 1 << 16  # OpenCV's drawing fixed point (XY_SHIFT = 16)


def convex_quad_spans(quads: tf.Tensor, rows: tf.Tensor, shift: int = 0) -> list:
    """cv2.fillConvexPoly's scanline rows (LINE_8) of quadrilaterals `[..., 4, 2]` int64 whose
    two side chains run downwards, with `shift` fractional bits in the vertices (0: whole
    pixels; 16: OpenCV's own fixed point, as its thick lines pass them): on row y (from the top
    vertex's rounded row to the bottom one's, that last row left to the edge lines, as OpenCV's
    walkers stop there) the two edges crossing it, each walked from its top end in 16.16 fixed
    point with OpenCV's rounded step, the row filled from the rounded smaller x to the rounded
    larger one. `rows` `[R]`: offsets from each quad's top row. Returns [rows, starts, stops]
    `[..., R]` int64, a start-inclusive, stop-exclusive span per row (row -1 where none)."""
    half = (1 << shift) >> 1
    x = quads[..., 0] * (1 << (16 - shift))  # 16.16
    y = tf.math.floordiv(quads[..., 1] + half, 1 << shift)  # rounded rows
    # Pairwise: int64 Min has no GPU kernel in TensorFlow (Minimum has).
    ymin = tf.minimum(tf.minimum(y[..., 0:1], y[..., 1:2]), tf.minimum(y[..., 2:3], y[..., 3:4]))
    ymax = tf.maximum(tf.maximum(y[..., 0:1], y[..., 1:2]), tf.maximum(y[..., 2:3], y[..., 3:4]))
    row = ymin + tf.cast(rows, tf.int64)  # [..., R]
    lo_x = tf.fill(tf.shape(row), tf.constant(2 ** 62, tf.int64))
    hi_x = -lo_x
    for e in range(4):
        xa, ya, xb, yb = x[..., e], y[..., e], x[..., (e + 1) % 4], y[..., (e + 1) % 4]
        top = ya <= yb
        tx, ty = tf.where(top, xa, xb), tf.where(top, ya, yb)
        bx, by = tf.where(top, xb, xa), tf.where(top, yb, ya)
        dy = tf.maximum(by - ty, 1)
        step = tf.truncatediv((bx - tx) * 2 + dy, 2 * dy)  # C's division: towards zero
        at = tx[..., tf.newaxis] + (row - ty[..., tf.newaxis]) * step[..., tf.newaxis]
        active = (ty[..., tf.newaxis] <= row) & (row < by[..., tf.newaxis])
        lo_x = tf.where(active, tf.minimum(lo_x, at), lo_x)
        hi_x = tf.where(active, tf.maximum(hi_x, at), hi_x)
    valid = (row < ymax) & (lo_x <= hi_x)
    start = tf.math.floordiv(lo_x + XY_ONE // 2, XY_ONE)
    stop = tf.math.floordiv(hi_x + XY_ONE // 2, XY_ONE) + 1
    return [tf.where(valid, row, -1), tf.where(valid, start, 0), tf.where(valid, stop, 0)]


def clip_line(x1, y1, x2, y2, height, width):
    """OpenCV's clipLine to [0, width - 1] x [0, height - 1] (int64, divisions towards zero):
    the clipped ends and whether anything is left."""
    right, bottom = width - 1, height - 1

    def code(x, y, with_y=True):
        c = tf.cast(x < 0, tf.int64) + 2 * tf.cast(x > right, tf.int64)
        return c + 4 * tf.cast(y < 0, tf.int64) + 8 * tf.cast(y > bottom, tf.int64) if with_y else c

    def nonzero(d):
        return tf.where(tf.equal(d, 0), tf.ones_like(d), d)

    c1, c2 = code(x1, y1), code(x2, y2)
    clip = tf.equal(tf.bitwise.bitwise_and(c1, c2), 0) & tf.not_equal(tf.bitwise.bitwise_or(c1, c2), 0)
    on = clip & tf.not_equal(tf.bitwise.bitwise_and(c1, 12), 0)
    a = tf.where(c1 < 8, tf.zeros_like(y1), bottom)
    x1 = tf.where(on, x1 + tf.truncatediv((a - y1) * (x2 - x1), nonzero(y2 - y1)), x1)
    y1 = tf.where(on, a, y1)
    c1 = tf.where(on, code(x1, y1, False), c1)
    on = clip & tf.not_equal(tf.bitwise.bitwise_and(c2, 12), 0)
    a = tf.where(c2 < 8, tf.zeros_like(y2), bottom)
    x2 = tf.where(on, x2 + tf.truncatediv((a - y2) * (x2 - x1), nonzero(y2 - y1)), x2)
    y2 = tf.where(on, a, y2)
    c2 = tf.where(on, code(x2, y2, False), c2)
    clip = clip & tf.equal(tf.bitwise.bitwise_and(c1, c2), 0) & tf.not_equal(tf.bitwise.bitwise_or(c1, c2), 0)
    on = clip & tf.not_equal(c1, 0)
    a = tf.where(tf.equal(c1, 1), tf.zeros_like(x1), right)
    y1 = tf.where(on, y1 + tf.truncatediv((a - x1) * (y2 - y1), nonzero(x2 - x1)), y1)
    x1 = tf.where(on, a, x1)
    c1 = tf.where(on, tf.zeros_like(c1), c1)
    on = clip & tf.not_equal(c2, 0)
    a = tf.where(tf.equal(c2, 1), tf.zeros_like(x2), right)
    y2 = tf.where(on, y2 + tf.truncatediv((a - x2) * (y2 - y1), nonzero(x2 - x1)), y2)
    x2 = tf.where(on, a, x2)
    c2 = tf.where(on, tf.zeros_like(c2), c2)
    return x1, y1, x2, y2, tf.equal(tf.bitwise.bitwise_or(c1, c2), 0)
