"""Shapes drawn per sample in the graph, as coverage counts `[B, H, W]` float32: horizontal
spans become +1/-1 events on a row, one scatter-add, one running sum along the row (the work is
proportional to the shapes' rows, not to the image). Discs, polygons (even-odd) and 4-connected
lines follow OpenCV's pixel rules closely; the weather effects draw with them. Float counts
throughout: scatter-add and cumsum have GPU kernels for float32, and counts stay exact below 2^24."""
from __future__ import annotations

import tensorflow as tf


def _batch_index(like: tf.Tensor) -> tf.Tensor:
    """int32 tensor shaped like `like` holding each element's batch index (axis 0)."""
    n = tf.shape(like)[0]
    shape = tf.concat([[n], tf.ones([tf.rank(like) - 1], tf.int32)], 0)
    return tf.broadcast_to(tf.reshape(tf.range(n), shape), tf.shape(like))


def span_counts(rows: tf.Tensor, x0: tf.Tensor, x1: tf.Tensor, valid: tf.Tensor, height, width) -> tf.Tensor:
    """How many spans cover each pixel: `[B, H, W]` float32.

    Args:
      rows, x0, x1: int32 `[B, ...]`: span on row `rows` from column x0 to x1, both included;
        clipped to the image (a span wholly outside adds nothing).
      valid: bool `[B, ...]`: spans that count.
    """
    start = tf.clip_by_value(x0, 0, width)
    stop = tf.clip_by_value(x1 + 1, 0, width)
    keep = valid & (rows >= 0) & (rows < height) & (start < stop)
    return _running_sums(_batch_index(rows), tf.where(keep, rows, 0), [start, stop], [keep, keep], [1.0, -1.0],
                         tf.shape(rows)[0], height, width)


def _running_sums(batch, rows, columns, keeps, signs, n, height, width) -> tf.Tensor:
    """`[n, H, W]` running sums along each row of events: at (batch, rows, columns[i]) the
    weight signs[i] where keeps[i]. Events are counted by one bincount (threaded on the CPU,
    where a scatter-add of millions of events is serial), then summed along the rows."""
    line = (batch * height + rows) * (width + 1)
    index = tf.concat([tf.reshape(line + c, [-1]) for c in columns], 0)
    weight = tf.concat([tf.reshape(tf.cast(k, tf.float32) * sign, [-1]) for k, sign in zip(keeps, signs)], 0)
    size = n * height * (width + 1)
    events = tf.math.bincount(index, weight, minlength=size, maxlength=size)
    return tf.cumsum(tf.reshape(events, tf.stack([n, height, width + 1])), axis=2)[:, :, :width]


def mark_points(plane: tf.Tensor, xs: tf.Tensor, ys: tf.Tensor, on: tf.Tensor) -> tf.Tensor:
    """`plane` `[B, H, W]` float32 with 1 at the points (x, y) (int32 `[B, ...]`) where `on` and
    inside the image (one scatter-max: no running sum, so points need no spans)."""
    height, width = tf.shape(plane)[1], tf.shape(plane)[2]
    keep = on & (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
    index = tf.stack([tf.reshape(_batch_index(xs), [-1]), tf.reshape(tf.where(keep, ys, 0), [-1]),
                      tf.reshape(tf.where(keep, xs, 0), [-1])], 1)
    return tf.tensor_scatter_nd_max(plane, index, tf.reshape(tf.cast(keep, tf.float32), [-1]))


def disc_counts(cx: tf.Tensor, cy: tf.Tensor, radius: tf.Tensor, valid: tf.Tensor, max_radius, height,
                width) -> tf.Tensor:
    """How many filled discs cover each pixel (cv2.circle's filled rule: dx^2 + dy^2 <= r^2):
    `[B, H, W]` float32 for int32 centres and radii `[B, P]` (radii at most `max_radius`)."""
    dy = tf.range(-max_radius, max_radius + 1)
    r = radius[..., None]
    inside = valid[..., None] & (tf.abs(dy) <= r)
    squared = tf.cast(tf.maximum(r * r - dy * dy, 0), tf.float32)
    half = tf.cast(tf.floor(tf.sqrt(squared)), tf.int32)  # exact: IEEE sqrt of a perfect square is exact
    x = cx[..., None]
    return span_counts(cy[..., None] + dy, x - half, x + half, inside, height, width)


def polygon_cover(vertices: tf.Tensor, height, width) -> tf.Tensor:
    """cv2.fillPoly's cover of closed polygons: `[B, S, H, W]` float32 1/0 for float32 integer
    vertices `[B, S, V, 2]` (x, y), pixel centres at whole coordinates: even-odd inside plus
    the outline (polygon_codes)."""
    codes = polygon_codes(vertices, height, width)
    sides = tf.shape(vertices)[2]
    return tf.cast((codes > sides) | (tf.math.floormod(codes, 2) == 1), tf.float32)


def polygon_codes(vertices: tf.Tensor, height, width) -> tf.Tensor:
    """int32 `[B, S, H, W]` codes of cv2.fillPoly's cover of closed polygons with V vertices
    (float32 integer vertices `[B, S, V, 2]` (x, y), pixel centres at whole coordinates): the
    number of outline crossings left of the pixel's centre (odd: inside, even-odd; edges take
    rows min(y0, y1) <= y < max(y0, y1), a crossing at c counts for pixels x >= ceil(c)), plus
    V + 1 on the outline's 8-connected pixels, which OpenCV fills too (self-crossing polygons
    included). A pixel is covered when its code is odd or above V: level tables of 2 V + 2
    rows read the cover without a parity pass."""
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
    crossings = _running_sums(_batch_index(column), rows, [column], [crosses], [1.0], b * s, height, width)
    ends = [tf.cast(c, tf.int32) for c in (p0[..., 0], p0[..., 1], p1[..., 0], p1[..., 1])]
    xs, ys, on = line_points(*ends, tf.maximum(height, width), connectivity=8)
    outline = mark_points(tf.zeros_like(crossings), xs, ys, on)
    codes = tf.cast(crossings + outline * tf.cast(v + 1, tf.float32), tf.int32)
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
