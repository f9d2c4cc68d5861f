"""The SpanRaster kernel op against numpy statements of its rules: from a starting value, sums of
values over spans (clipped, wrapping as 32-bit integers), the largest value, the last span's
value (painter's order), and box sums with a reflect-101 border (numpy's "reflect" padding,
repeated for windows wider than the plane)."""
import numpy as np
import pytest
import tensorflow as tf

from tfgpuaug.augment import raster


def random_spans(rng, b, k, h, w):
    rows = rng.integers(-2, h + 2, (b, k)).astype(np.int32)
    starts = rng.integers(-5, w + 3, (b, k)).astype(np.int32)
    stops = (starts + rng.integers(-2, w // 2, (b, k))).astype(np.int32)  # some empty or reversed
    values = rng.integers(-4, 9, (b, k)).astype(np.int32)
    return rows, starts, stops, values


def painted_reference(rows, starts, stops, values, h, w, combine, fill=0):
    out = np.full((rows.shape[0], h, w), fill, np.int64)
    rule = {"sum": lambda seg, v: seg + v, "max": np.maximum, "last": lambda seg, v: v}[combine]
    for i in range(rows.shape[0]):
        for y, a, z, v in zip(rows[i], starts[i], stops[i], values[i]):
            if 0 <= y < h and max(a, 0) < min(z, w):
                out[i, y, max(a, 0):min(z, w)] = rule(out[i, y, max(a, 0):min(z, w)], v)
    return out


def box_reference(plane, side):
    before, after = side // 2, side - 1 - side // 2
    padded = np.pad(plane, [(0, 0), (before, after), (before, after)], mode="reflect")
    h, w = plane.shape[1:]
    return sum(padded[:, dy:dy + h, dx:dx + w] for dy in range(side) for dx in range(side))


@pytest.mark.parametrize("combine", ["sum", "max", "last"])
@pytest.mark.parametrize("h, w", [(17, 23), (1, 9), (6, 1)])
@pytest.mark.parametrize("fill", [0, -1, 7])
def test_painting_equals_numpy(combine, h, w, fill):
    spans = random_spans(np.random.default_rng(h * w), 3, 40, h, w)
    got = raster.span_raster(*spans, h, w, combine=combine, fill=fill).numpy()
    np.testing.assert_array_equal(got, painted_reference(*spans, h, w, combine, fill))


@pytest.mark.parametrize("side", [2, 3, 4, 7, 12])
@pytest.mark.parametrize("combine", ["sum", "max", "last"])
def test_box_sums_equal_numpy_reflect_101(side, combine):
    h, w = 9, 11  # side 12 reaches past both edges: the border reflects more than once
    spans = random_spans(np.random.default_rng(side), 2, 30, h, w)
    got = raster.span_raster(*spans, h, w, combine=combine, box=side, fill=1).numpy()
    want = box_reference(painted_reference(*spans, h, w, combine, 1), side)
    np.testing.assert_array_equal(got, want)


def test_sums_wrap_as_32_bit_integers():
    big = np.int32(2 ** 31 - 1)
    spans = [np.array([[0, 0]], np.int32), np.array([[0, 0]], np.int32), np.array([[2, 1]], np.int32),
             np.array([[big, 2]], np.int32)]
    got = raster.span_raster(*spans, 1, 3).numpy()[0, 0]
    assert got.tolist() == [-(2 ** 31) + 1, big, 0]


def test_no_spans_and_empty_planes():
    none = np.zeros((2, 0), np.int32)
    np.testing.assert_array_equal(raster.span_raster(none, none, none, none, 3, 4, box=3).numpy(),
                                  np.zeros((2, 3, 4), np.int32))
    assert raster.span_raster(none, none, none, none, 0, 4).shape == (2, 0, 4)


def test_static_shape_follows_size():
    spans = [tf.zeros([5, 7], tf.int32)] * 4
    assert raster.span_raster(*spans, 12, 13).shape.as_list() == [5, 12, 13]


def test_refusals():
    spans = [np.zeros((1, 2), np.int32)] * 4
    with pytest.raises(ValueError, match="combine must be one of"):
        raster.span_raster(*spans, 3, 3, combine="mean")
    for box in (0, 256, 2.0):
        with pytest.raises(ValueError, match="box must be a whole window side"):
            raster.span_raster(*spans, 3, 3, box=box)
    for fill in (2 ** 31, 0.5):
        with pytest.raises(ValueError, match="fill must be a 32-bit integer"):
            raster.span_raster(*spans, 3, 3, fill=fill)
    with pytest.raises(ValueError, match="rows must be int32"):
        raster.span_raster(np.zeros((2,), np.int32), *spans[1:], 3, 3)


def test_run_time_refusals_name_what_was_expected():
    ops = raster._loader.ops()
    one = tf.zeros([1, 2], tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="one shape"):
        ops.tf_gpu_aug_span_raster(one, one, one, tf.zeros([1, 3], tf.int32), [3, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="size"):
        ops.tf_gpu_aug_span_raster(one, one, one, one, [-1, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="too large"):
        ops.tf_gpu_aug_span_raster(tf.zeros([40000, 0], tf.int32), tf.zeros([40000, 0], tf.int32),
                                   tf.zeros([40000, 0], tf.int32), tf.zeros([40000, 0], tf.int32), [60000, 60000])


# --- LineRaster: lines as one span per row they cross -------------------------------------------

def line_spans_reference(x0, y0, x1, y1, span_width):
    """A line's spans from `raster.line_points` (cv2.line's 4-connected walk, itself checked
    against cv2.line in test_weather.py): each pixel a run of span_width columns,
    (span_width - 1) // 2 of them left of it, merged per row."""
    parts = [tf.constant([[v]], tf.int32) for v in (x0, y0, x1, y1)]
    xs, ys, on = (t.numpy()[0, 0] for t in raster.line_points(*parts, max(abs(x1 - x0), abs(y1 - y0))))
    runs = {}
    for x, y in zip(xs[on], ys[on]):
        lo, hi = runs.get(y, (x, x))
        runs[y] = (min(lo, x), max(hi, x))
    left = (span_width - 1) // 2
    return [(y, lo - left, hi - left + span_width) for y, (lo, hi) in sorted(runs.items())]


@pytest.mark.parametrize("span_width", [1, 2, 3])
def test_lines_paint_the_4_connected_walk_one_span_a_row(span_width):
    """Every slope and direction, points, horizontals and verticals, lines leaving the plane on
    every side: the op's plane equals the walk's pixels painted and clipped."""
    rng = np.random.default_rng(3 + span_width)
    ends = rng.integers(-12, 50, (300, 4)).astype(np.int32)
    ends[:20, 3] = ends[:20, 1]  # horizontal
    ends[20:40, 2] = ends[20:40, 0]  # vertical
    ends[40:50, 2:] = ends[40:50, :2]  # single points
    h, w = 30, 40
    lines = [ends[:, i:i + 1] for i in range(4)]
    got = raster.line_raster(*lines, np.ones((300, 1), np.int32), h, w, span_width=span_width, combine="sum").numpy()
    for i in range(300):
        spans = line_spans_reference(*(int(v) for v in ends[i]), span_width)
        assert len(spans) == abs(int(ends[i, 3]) - int(ends[i, 1])) + 1
        want = painted_reference(*(np.array([[s[j] for s in spans]], np.int32) for j in range(3)),
                                 np.ones((1, len(spans)), np.int32), h, w, "sum")
        np.testing.assert_array_equal(got[i], want[0], err_msg=str(ends[i]))  # sums of 1: no row painted twice


@pytest.mark.parametrize("combine, fill, box", [("sum", 2, 1), ("max", 0, 3), ("last", -1, 1), ("last", 0, 5)])
def test_lines_combine_fill_and_box_as_their_spans(combine, fill, box):
    rng = np.random.default_rng(11)
    b, k, h, w = 3, 25, 26, 31
    ends = rng.integers(-6, 36, (4, b, k)).astype(np.int32)
    values = rng.integers(-3, 9, (b, k)).astype(np.int32)
    got = raster.line_raster(*ends, values, h, w, span_width=2, combine=combine, box=box, fill=fill).numpy()
    for i in range(b):
        spans = [(y, a, z, values[i, j]) for j in range(k)
                 for y, a, z in line_spans_reference(*(int(e[i, j]) for e in ends), 2)]
        parts = [np.array([[s[n] for s in spans]], np.int32) for n in range(4)]
        want = painted_reference(*parts, h, w, combine, fill)
        if box > 1:
            want = box_reference(want, box)
        np.testing.assert_array_equal(got[i], want[0].astype(np.int32))


def test_lines_far_outside_and_long_are_clipped_without_overflow():
    x0, y0 = np.array([[-2 ** 31, 5, -100000]], np.int32), np.array([[-2 ** 31, -2 ** 31, 3]], np.int32)
    x1, y1 = np.array([[2 ** 31 - 1, 5, 100000]], np.int32), np.array([[2 ** 31 - 1, 2 ** 31 - 1, 3]], np.int32)
    got = raster.line_raster(x0, y0, x1, y1, np.array([[1, 2, 4]], np.int32), 8, 10).numpy()[0]
    np.testing.assert_array_equal(got[:, 5] & 2, np.full(8, 2))  # the vertical crosses every row
    np.testing.assert_array_equal(got[3] & 4, np.full(10, 4))  # the horizontal every column
    diagonal = (got & 1) > 0  # x = y from far away, 4-connected: (y, y) and (y, y + 1) on every row
    assert all(diagonal[y, y] and diagonal[y, y + 1] for y in range(8)) and diagonal.sum() == 16


def test_line_raster_refusals():
    ones = np.ones((1, 2), np.int32)
    with pytest.raises(ValueError, match="span_width"):
        raster.line_raster(ones, ones, ones, ones, ones, 4, 4, span_width=0)
    with pytest.raises(ValueError, match="combine"):
        raster.line_raster(ones, ones, ones, ones, ones, 4, 4, combine="min")
    with pytest.raises(tf.errors.InvalidArgumentError, match="one shape"):
        raster.line_raster(ones, ones, ones, ones, np.ones((1, 3), np.int32), 4, 4)
