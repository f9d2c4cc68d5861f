"""Albumentations' weather effects (issue 36: RandomShadow, RandomRain, RandomSnow, RandomGravel,
RandomFog). The shape rasteriser is checked against numpy rules and, where installed, OpenCV's
own drawing; each effect's apply step against Albumentations 2.0.8's function given the same
drawn shapes; the draws against Albumentations' integer rules; probability, inference, configs
and refusals without either library."""
import importlib

import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug.augment import raster
from tfgpuaug.augment.pixel_tables import hls_lightness, level_tables

import hls8_reference as hls

wx = importlib.import_module("tfgpuaug.augment.weather")


def natural_images(n, h, w, seed=0):
    rng = np.random.default_rng(seed)
    coarse = rng.uniform(0, 255, (n, h // 4 + 2, w // 4 + 2, 3)).astype(np.float32)
    smooth = tf.image.resize(coarse, (h, w), "bicubic").numpy()
    return np.clip(np.round(smooth + rng.normal(0, 10, smooth.shape)), 0, 255).astype(np.uint8)


def pixel_functions():
    pytest.importorskip("albumentations")
    from albumentations.augmentations.pixel import functional as fpixel
    return fpixel


# --- rasteriser ---------------------------------------------------------------------------------

def test_disc_counts_follow_the_distance_rule_and_overlap_adds():
    cx, cy, r = (np.array(v, np.int32) for v in ([[10, 20, -2]], [[12, 14, 20]], [[6, 9, 4]]))
    got = raster.disc_counts(tf.constant(cx), tf.constant(cy), tf.constant(r), tf.constant([[True, True, True]]),
                             9, 26, 40).numpy()[0]
    yy, xx = np.mgrid[0:26, 0:40]
    want = sum(((xx - x) ** 2 + (yy - y) ** 2 <= rr * rr).astype(np.float32) for x, y, rr in zip(cx[0], cy[0], r[0]))
    np.testing.assert_array_equal(got, want)
    assert got.max() == 2.0  # the first two overlap


def test_disc_counts_equal_cv2_circle():
    cv2 = pytest.importorskip("cv2")
    for radius in range(1, 40):
        want = np.zeros((90, 90), np.uint8)
        cv2.circle(want, (44, 41), radius, (1,), -1)
        got = raster.disc_counts(tf.constant([[44]]), tf.constant([[41]]), tf.constant([[radius]]),
                                 tf.constant([[True]]), radius, 90, 90).numpy()[0]
        np.testing.assert_array_equal(got, want, err_msg=f"radius {radius}")


def test_span_counts_clip_and_skip_invalid():
    rows = tf.constant([[0, 0, 3, 5, -1]], tf.int32)
    got = raster.span_counts(rows, tf.constant([[2, -5, 4, 1, 0]], tf.int32), tf.constant([[4, 0, 99, 3, 3]], tf.int32),
                             tf.constant([[True, True, True, False, True]]), 4, 6).numpy()[0]
    want = np.zeros((4, 6), np.float32)
    want[0, 2:5] += 1
    want[0, 0:1] += 1
    want[3, 4:6] += 1
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("connectivity", [4, 8])
def test_line_points_are_connected_and_hug_the_segment(connectivity):
    rng = np.random.default_rng(1)
    ends = rng.integers(-20, 20, (2, 50, 4)).astype(np.int32)
    x, y, on = raster.line_points(*(tf.constant(ends[..., i]) for i in range(4)), 40, connectivity=connectivity)
    x, y, on = x.numpy(), y.numpy(), on.numpy()
    for b in range(2):
        for p in range(50):
            x0, y0, x1, y1 = ends[b, p]
            points = sorted(set(zip(x[b, p][on[b, p]], y[b, p][on[b, p]])))
            assert (x0, y0) in points and (x1, y1) in points
            want = abs(x1 - x0) + abs(y1 - y0) + 1 if connectivity == 4 else max(abs(x1 - x0), abs(y1 - y0)) + 1
            assert len(points) == want, (ends[b, p], points)
            px, py = np.array(points).T
            length = np.hypot(x1 - x0, y1 - y0)
            if length:  # distance of each point from the segment's line
                distance = np.abs((x1 - x0) * (py - y0) - (y1 - y0) * (px - x0)) / length
                assert distance.max() <= 1.0, (ends[b, p], distance.max())


@pytest.mark.parametrize("connectivity", [4, 8])
def test_line_points_equal_cv2_line(connectivity):
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(2)
    ends = rng.integers(0, 60, (300, 4)).astype(np.int32)
    x, y, on = raster.line_points(*(tf.constant(ends[None, :, i]) for i in range(4)), 60, connectivity=connectivity)
    mismatched, drawn = 0, 0
    for p in range(300):
        want = np.zeros((60, 60), np.uint8)
        cv2.line(want, tuple(map(int, ends[p, :2])), tuple(map(int, ends[p, 2:])), (1,), 1,
                 cv2.LINE_4 if connectivity == 4 else cv2.LINE_8)
        got = np.zeros_like(want)
        got[y[0, p][on[0, p]], x[0, p][on[0, p]]] = 1
        mismatched += int((got != want).sum())
        drawn += int(want.sum())
    if connectivity == 4:
        assert mismatched == 0  # OpenCV's walk, exactly
    else:
        assert mismatched / drawn < 0.05, mismatched / drawn  # rounding ties split their own way


def _polygon_cover(vertices: tf.Tensor, height: int, width: int) -> np.ndarray:
    """cv2.fillPoly's cover read from the codes as the shadow's tables read them: odd or above V."""
    codes = raster.polygon_codes(vertices, height, width).numpy()
    return (codes > vertices.shape[2]) | (codes % 2 == 1)


def test_polygon_cover_close_to_cv2_fill_poly():
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(3)
    vertices = rng.integers(0, 70, (300, 5, 2))
    got = _polygon_cover(tf.constant(vertices[None].astype(np.float32)), 70, 70)[0]
    differ, area = 0, 0
    for p in range(300):
        want = np.zeros((70, 70), np.uint8)
        cv2.fillPoly(want, [vertices[p].astype(np.int32)], (1,))
        differ += int((got[p] != want).sum())
        area += int(want.sum())
    assert differ / area < 0.01, differ / area  # measured 0.57%: edge pixels OpenCV's scan converter rounds otherwise


def test_polygon_cover_is_even_odd_inside():
    # A square wound twice over itself: even-odd leaves the overlap empty, which nonzero would fill.
    star = np.array([[[[2, 2], [20, 2], [20, 20], [2, 20]], [[8, 8], [30, 8], [30, 30], [8, 30]]]], np.float32)
    cover = _polygon_cover(tf.constant(star), 40, 40)[0]
    assert cover[0, 10, 10] == 1 and cover[1, 10, 10] == 1 and cover[0, 25, 25] == 0
    bowtie = np.array([[[[0, 0], [20, 20], [20, 0], [0, 20]]]], np.float32)
    cover = _polygon_cover(tf.constant(bowtie), 24, 24)[0, 0]
    assert cover[10, 3] == 1 and cover[3, 10] == 0 and cover[10, 17] == 1  # two triangles meeting at the centre


# --- the two kernel ops ----------------------------------------------------------------------------

@pytest.mark.parametrize("sets, per_channel, with_rows", [(1, False, True), (5, True, True), (5, False, False),
                                                          (1, True, False)])
def test_level_tables_equal_a_numpy_gather(sets, per_channel, with_rows):
    rng = np.random.default_rng(10)
    images = rng.integers(0, 256, (5, 7, 9, 3), dtype=np.uint8)
    tables = rng.integers(0, 256, (sets, 4, 3 if per_channel else 1, 256), dtype=np.uint8)
    rows = rng.integers(-3, 7, (5, 7, 9)).astype(np.int32)  # out of range on both sides: clamped
    got = level_tables(images, tables, rows if with_rows else None).numpy()
    held = np.clip(rows, 0, 3) if with_rows else np.zeros_like(rows)
    b, y, x, c = np.indices(images.shape)
    want = tables[b if sets > 1 else 0, held[b, y, x], c if per_channel else 0, images]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("channels, per_channel", [(3, False), (3, True), (1, False), (4, True)])
def test_level_tables_identity_rows_and_runs_equal_a_numpy_gather(channels, per_channel):
    # rows whose tables are the identity are copied (or left, in place) a run at a time (the CPU
    # checks them when the table set is no larger than the image): rows
    # 0 and 2 are the identity, row 1 the identity but for one entry (must not be taken for it),
    # row 3 darkens; the row planes hold long runs, runs of one and out-of-range indices
    rng = np.random.default_rng(11)
    images = rng.integers(0, 256, (4, 40, 64, channels), dtype=np.uint8)  # no smaller than the tables
    k = channels if per_channel else 1
    tables = np.broadcast_to(np.arange(256, dtype=np.uint8), (4, 4, k, 256)).copy()
    tables[:, 1, -1, 255] = 254
    tables[:, 3] = (np.arange(256) // 2).astype(np.uint8)
    tables[2, 3] = rng.integers(0, 256, (k, 256), dtype=np.uint8)
    rows = np.zeros((4, 40, 64), np.int32)
    rows[0, 3:9, 5:20] = 3
    rows[1] = rng.integers(-2, 6, (40, 64))
    rows[2, :, ::2] = 2
    rows[2, 6] = 3
    rows[3, :7] = 1  # sample 3 otherwise untouched: one run of row 0 through the rest
    images[3, 0, :4] = 255  # row 1's one changed entry is reached in every channel
    b, y, x, c = np.indices(images.shape)
    want = tables[b, np.clip(rows, 0, 3)[b, y, x], c if per_channel else 0, images]
    assert (want != images).any() and (want == images).any()
    given = tf.constant(images)
    np.testing.assert_array_equal(level_tables(given, tables, rows).numpy(), want)
    np.testing.assert_array_equal(given.numpy(), images)  # an input still held is not written

    @tf.function
    def through_an_intermediate(x):  # the op may take over x + 0's buffer
        return level_tables(x + 0, tables, rows), x

    got, kept = through_an_intermediate(given)
    np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal(kept.numpy(), images)
    no_rows = np.broadcast_to(np.arange(256, dtype=np.uint8), (1, 1, k, 256))
    np.testing.assert_array_equal(level_tables(images, no_rows).numpy(), images)  # one identity row


def test_level_tables_refusals():
    images = np.zeros((2, 4, 4, 3), np.uint8)
    for tables in (np.zeros((2, 1, 1, 255), np.uint8), np.zeros((3, 1, 1, 256), np.uint8),
                   np.zeros((1, 1, 2, 256), np.uint8)):
        with pytest.raises((ValueError, tf.errors.InvalidArgumentError)):
            level_tables(images, tables).numpy()
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError), match="rows"):
        level_tables(images, np.zeros((1, 1, 1, 256), np.uint8), np.zeros((2, 4, 5), np.int32)).numpy()


def test_hls8_reference_known_colours_and_greys():
    rgb = np.array([[255, 0, 0], [0, 255, 0], [0, 0, 255], [128, 128, 128], [255, 255, 255]], np.uint8)
    h, l, s = hls.rgb_to_hls8(rgb)  # noqa: E741
    np.testing.assert_array_equal(h, [0, 60, 120, 0, 0])
    np.testing.assert_array_equal(l, [128, 128, 128, 128, 255])
    np.testing.assert_array_equal(s, [255, 255, 255, 0, 0])
    greys = np.arange(256, dtype=np.float32)
    np.testing.assert_array_equal(hls.hls8_to_rgb(np.zeros(256), greys, np.zeros(256)),
                                  np.repeat(np.arange(256)[:, None], 3, 1))


def test_hls8_reference_equals_opencv():
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(4)
    image = rng.integers(0, 256, (300, 400, 3), dtype=np.uint8)
    want = cv2.cvtColor(image, cv2.COLOR_RGB2HLS).astype(np.float32)
    got = np.stack(hls.rgb_to_hls8(image), -1)
    assert np.abs(got - want).max() <= 1 and (got != want).mean() < 5e-4  # measured 1.1e-4, hue or saturation ties
    levels = rng.integers(0, 256, (300, 400, 3)).astype(np.uint8)
    levels[..., 0] %= 181
    np.testing.assert_array_equal(hls.hls8_to_rgb(*np.moveaxis(levels, -1, 0)), cv2.cvtColor(levels, cv2.COLOR_HLS2RGB))


def test_hls_lightness_op_equals_the_numpy_statement():
    rng = np.random.default_rng(11)
    images = rng.integers(0, 256, (3, 40, 50, 3), dtype=np.uint8)
    images[0, 0, :50] = np.arange(0, 250, 5, dtype=np.uint8)[:, None]  # greys
    tables = rng.integers(-1, 300, (3, 256)).astype(np.int32)
    levels = np.where(rng.uniform(size=(3, 40, 50)) < 0.3, rng.integers(-2, 300, (3, 40, 50)), -1).astype(np.int32)
    got = hls_lightness(images, tables, levels).numpy()
    h, l, s = hls.rgb_to_hls8(images)  # noqa: E741
    target = np.where(levels >= 0, levels, np.take_along_axis(tables, l.reshape(3, -1).astype(int), 1).reshape(l.shape))
    want = hls.hls8_to_rgb(h, np.minimum(target, 255), s)
    want = np.where((target < 0)[..., None], images, want)
    np.testing.assert_array_equal(got, want)  # the same float32 operations
    shared = hls_lightness(images, tables[:1]).numpy()
    target = tables[0][l.astype(int)]
    np.testing.assert_array_equal(shared, np.where((target < 0)[..., None], images,
                                                   hls.hls8_to_rgb(h, np.minimum(target, 255), s)))


def test_hls_lightness_round_trip_equals_opencv():
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(12)
    images = rng.integers(0, 256, (2, 120, 160, 3), dtype=np.uint8)
    identity = np.arange(256, dtype=np.int32)[None]
    got = hls_lightness(images, identity).numpy()
    want = np.stack([cv2.cvtColor(cv2.cvtColor(i, cv2.COLOR_RGB2HLS), cv2.COLOR_HLS2RGB) for i in images])
    # OpenCV's hue ties (1.1e-4 of colours, above) move a saturated pixel by a 2-degree hue step
    assert (got == want).mean() > 0.999 and np.abs(got.astype(int) - want).max() <= 8


def test_hls_lightness_refusals():
    with pytest.raises(ValueError, match="RGB"):
        hls_lightness(np.zeros((1, 4, 4, 4), np.uint8), np.zeros((1, 256), np.int32))
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError)):
        hls_lightness(np.zeros((2, 4, 4, 3), np.uint8), np.zeros((3, 256), np.int32)).numpy()
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError), match="levels"):
        hls_lightness(np.zeros((2, 4, 4, 3), np.uint8), np.zeros((1, 256), np.int32),
                      np.zeros((2, 4, 3), np.int32)).numpy()


# --- the effects against Albumentations' functions, same shapes ----------------------------------

def test_shadow_equals_albumentations_add_shadow():
    fpixel = pixel_functions()
    images = natural_images(6, 72, 90)
    rng = np.random.default_rng(5)
    vertices = np.stack([rng.integers(0, 90, (6, 3, 6)), rng.integers(20, 72, (6, 3, 6))], -1).astype(np.int32)
    count = np.array([1, 2, 3, 3, 2, 1], np.int32)
    darkness = rng.uniform(0.2, 0.9, (6, 3))
    got = wx.shadowed(tf.constant(images), tf.constant(vertices), tf.constant(count),
                      tf.constant(darkness, tf.float32)).numpy()
    equal = 0
    for b in range(6):
        want = fpixel.add_shadow(images[b], [vertices[b, s] for s in range(count[b])], 1.0 - darkness[b, :count[b]])
        equal += (got[b] == want).mean()
    assert equal / 6 > 0.998, equal / 6  # measured 0.9995: polygon edge pixels (above), float32 truncation ties


def test_rain_equals_albumentations_add_rain():
    fpixel = pixel_functions()
    images = natural_images(4, 96, 120)
    rng = np.random.default_rng(6)
    length, drops = 12, 32
    starts = np.stack([rng.integers(0, 120, (4, drops)), rng.integers(0, 96 - length, (4, drops))], -1)
    slants = [-7.5, 0.0, 3.2, 9.9]  # drops leave the image at both sides: cv2.line's clipping
    x1 = np.stack([(starts[b, :, 0] + slants[b]).astype(np.int32) for b in range(4)])
    for blur in (7, 1, 4):  # odd, none, even (the box's anchor and its fixed-point ties)
        got = wx.rained(tf.constant(images), tf.constant(starts[..., 0], tf.int32),
                        tf.constant(starts[..., 1], tf.int32), tf.constant(x1, tf.int32),
                        tf.constant(starts[..., 1] + length, tf.int32), 1, (200, 190, 180), blur, 0.7).numpy()
        for b in range(4):
            want = fpixel.add_rain(images[b], slants[b], length, 1, (200, 190, 180), blur, 0.7, starts[b])
            np.testing.assert_array_equal(got[b], want, err_msg=f"blur {blur}, slant {slants[b]}")


def test_rain_drop_width_is_a_horizontal_run():
    images = np.zeros((1, 20, 30, 3), np.uint8)
    x0, y0 = tf.constant([[10, 20]], tf.int32), tf.constant([[2, 5]], tf.int32)
    got = wx.rained(images, x0, y0, x0, y0 + 8, 3, (100, 100, 100), 1, 1.0).numpy()[0, ..., 0]
    want = np.zeros((20, 30), np.uint8)
    want[2:11, 9:12] = 100
    want[5:14, 19:22] = 100
    np.testing.assert_array_equal(got, want)


def test_rain_layer_blur_is_cv2_blur():
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(7)
    plane = (rng.uniform(size=(2, 23, 31)) < 0.1).astype(np.int32)
    b, y, x = np.nonzero(plane)
    rows, starts = (np.zeros((2, 23 * 31), np.int32) - 1 for _ in range(2))
    for i in range(2):  # the marked pixels as spans of one; the rest of each row list off the plane
        rows[i, :np.sum(b == i)], starts[i, :np.sum(b == i)] = y[b == i], x[b == i]
    for side in (2, 3, 4, 7, 9):
        got = raster.span_raster(rows, starts, starts + 1, np.ones_like(rows), 23, 31, combine="max", box=side)
        for i in range(2):
            want = cv2.blur(plane[i].astype(np.float64), (side, side)) * side * side
            np.testing.assert_allclose(got.numpy()[i], want, atol=1e-4)


def test_snow_equals_albumentations_where_it_bleaches_and_keeps_the_rest():
    fpixel = pixel_functions()
    images = natural_images(4, 64, 80)
    points = [0.0, 0.15, 0.4, 1.0]
    got = wx.snowed(tf.constant(images), tf.constant(points, tf.float32), 2.5).numpy()
    for b in range(4):
        want = fpixel.add_snow_bleach(images[b], points[b], 2.5)
        lightness = hls.rgb_to_hls8(images[b])[1]
        bleached = lightness < points[b] * 127.5 + 85.0
        assert bleached.any() and (got[b][bleached] == want[bleached]).mean() > 0.999
        np.testing.assert_array_equal(got[b][~bleached], images[b][~bleached])


def test_gravel_equals_albumentations_add_gravel():
    fpixel = pixel_functions()
    images = natural_images(3, 80, 100)
    rng = np.random.default_rng(8)
    m = 40
    x, y = rng.integers(-2, 102, (3, m)), rng.integers(-2, 82, (3, m))
    r, level = rng.integers(1, 4, (3, m)), rng.integers(0, 256, (3, m))
    valid = rng.uniform(size=(3, m)) < 0.9
    got = wx.graveled(tf.constant(images), *(tf.constant(v, tf.int32) for v in (x, y, r)),
                      tf.constant(level, tf.float32), tf.constant(valid)).numpy()
    for b in range(3):
        rows = [[max(y[b, i] - r[b, i], 0), min(y[b, i] + r[b, i], 79), max(x[b, i] - r[b, i], 0),
                 min(x[b, i] + r[b, i], 99), level[b, i]] for i in range(m) if valid[b, i]]
        want = fpixel.add_gravel(images[b], np.array(rows, np.int64))
        written = np.zeros((80, 100), bool)
        for y0, y1, x0, x1, _ in rows:
            written[y0:y1, x0:x1] = True
        assert (got[b][written] == want[written]).mean() > 0.998  # 8-bit HLS ties (test_hls8_reference_equals_opencv)
        np.testing.assert_array_equal(got[b][~written], images[b][~written])


@pytest.mark.parametrize("height,width", [(64, 72), (330, 345), (700, 760)])  # blur sides 3, 11, 23
def test_fog_is_albumentations_add_fog(height, width):
    fpixel = pixel_functions()
    images = natural_images(2, height, width)
    rng = np.random.default_rng(9)
    p = 300
    x, y, radius = rng.integers(0, width, (2, p)), rng.integers(0, height, (2, p)), rng.integers(1, 6, (2, p))
    intensity = np.array([0.35, 0.9])
    got = wx.fogged(tf.constant(images), *(tf.constant(v, tf.int32) for v in (x, y, radius)),
                    tf.ones([2, p], tf.bool), tf.constant(0.08 * intensity, tf.float32), tf.constant([True, True]))
    for b in range(2):
        want = fpixel.add_fog(images[b], intensity[b], 0.08, list(zip(x[b], y[b])), list(radius[b]))
        diff = np.abs(got[b].numpy().astype(int) - want)
        # byte for byte: OpenCV's 8-bit Gaussian taps (opencv_gaussian.py), its ties rounded up
        assert diff.max() == 0, (diff.max(), (diff == 0).mean())


def test_fog_tables_stop_moving_before_their_last_row():
    alphas = tf.constant(np.linspace(0.0, 1.0, 401), tf.float32)
    tables = wx.fog_blend_tables(alphas).numpy()
    np.testing.assert_array_equal(tables[:, -1], tables[:, -2])
    one = np.arange(256, dtype=np.float32)
    for _ in range(3):  # the first rows are the blends themselves
        one = np.round(np.float32(255.0 * 0.04) + one * np.float32(0.96))
    np.testing.assert_array_equal(tables[16, 3], one)


# --- draws, probability, inference, configs, refusals ---------------------------------------------

def test_shadow_draws_stay_in_the_roi_with_the_intensity():
    images = np.full((32, 60, 80, 3), 200, np.uint8)
    out = tga.augment.random_shadow(images, shadow_roi=(0.25, 0.5, 0.75, 1.0), num_shadows_limit=(1, 1),
                                    shadow_intensity_range=(0.5, 0.5), probability=1.0, seed=3).numpy()
    changed = (out != 200).any(-1)
    assert changed.any(axis=(1, 2)).all()
    rows, cols = np.nonzero(changed.any(0))
    assert rows.min() >= 30 and cols.min() >= 20 and cols.max() <= 59  # int(fraction x side), upper end excluded
    assert set(np.unique(out)) == {100, 200}


def test_shadow_counts_reach_both_ends():
    images = np.full((200, 16, 16, 1), 255, np.uint8)
    out = tga.augment.random_shadow(images, shadow_roi=(0, 0, 1, 1), num_shadows_limit=(1, 2),
                                    shadow_intensity_range=(0.5, 0.5), probability=1.0, seed=4).numpy()
    darkest = out.reshape(200, -1).min(1)
    assert set(darkest) <= {127, 63} and (darkest == 63).mean() > 0.2  # two overlapping shadows: 63 = 255 / 4


def test_rain_darkens_everything_and_draws_drops():
    images = np.full((4, 64, 64, 3), 100, np.uint8)
    out = tga.augment.random_rain(images, blur_value=1, probability=1.0, seed=5).numpy()
    assert set(np.unique(out)) == {70, 178}  # 100 x 0.7; min(100 + 200, 255) x 0.7 = 178.5, to even
    drops = (out == 178).all(-1)
    assert 0.01 < drops.mean() < 0.2


def test_gravel_lands_in_its_roi():
    images = natural_images(8, 200, 240, seed=2)
    out = tga.augment.random_gravel(images, gravel_roi=(0.2, 0.3, 0.7, 0.9), probability=1.0, seed=6).numpy()
    changed = (out != images).any(-1)
    assert changed.any(axis=(1, 2)).all()
    rows, cols = np.nonzero(changed.any(0))
    assert rows.min() >= 60 - 3 and rows.max() < 180 + 3 and cols.min() >= 48 - 3 and cols.max() < 168 + 3


def test_fog_brightens_and_blurs():
    images = natural_images(4, 96, 96, seed=3)
    out = tga.augment.random_fog(images, probability=1.0, seed=7).numpy().astype(float)
    assert out.mean() > images.mean() + 5
    centre = slice(36, 60)
    assert out[:, centre, centre].mean() > out[:, :10, :10].mean()  # denser at the centre


@pytest.mark.parametrize("name", ["RandomShadow", "RandomRain", "RandomSnow", "RandomGravel", "RandomFog"])
def test_probability_inference_and_config(name):
    cls = getattr(tga, name)
    # Gravel needs room: at 160 x 200 every patch holds at least one particle.
    images = natural_images(64, 160, 200, seed=4) if name == "RandomGravel" else natural_images(64, 48, 56, seed=4)
    never = cls(probability=0.0, seed=1)(images).numpy()
    np.testing.assert_array_equal(never, images)
    half = cls(probability=0.5, seed=2)(images).numpy()
    changed = (half != images).reshape(64, -1).any(1).mean()
    assert 0.25 < changed < 0.75, changed
    np.testing.assert_array_equal(np.asarray(cls(probability=1.0, seed=3)(images, training=False)), images)
    again = cls(**cls(probability=0.5, seed=2).get_config())(images).numpy()
    np.testing.assert_array_equal(again, half)


@pytest.mark.parametrize("make", [
    lambda: tga.RandomShadow(shadow_roi=(0.5, 0, 0.4, 1)),
    lambda: tga.RandomShadow(num_shadows_limit=(0, 2)),
    lambda: tga.RandomShadow(shadow_dimension=2),
    lambda: tga.RandomShadow(shadow_intensity_range=(0.5, 1.5)),
    lambda: tga.RandomRain(slant_range=(10, -10)),
    lambda: tga.RandomRain(drop_width=0),
    lambda: tga.RandomRain(drop_color=(300, 0, 0)),
    lambda: tga.RandomRain(blur_value=0),
    lambda: tga.RandomRain(brightness_coefficient=0.0),
    lambda: tga.RandomRain(rain_type="monsoon"),
    lambda: tga.RandomSnow(method="texture"),
    lambda: tga.RandomSnow(brightness_coeff=0.0),
    lambda: tga.RandomSnow(snow_point_range=(0.5, 0.2)),
    lambda: tga.RandomGravel(gravel_roi=(0.1, 0.5, 0.9, 0.5)),
    lambda: tga.RandomGravel(number_of_patches=0),
    lambda: tga.RandomFog(fog_coef_range=(0.2, 1.2)),
    lambda: tga.RandomFog(alpha_coef=2.0),
])
def test_refusals(make):
    with pytest.raises(ValueError):
        make()


def test_rgb_only_effects_refuse_gray():
    gray = np.zeros((1, 16, 16, 1), np.uint8)
    for fn in (tga.augment.random_rain, tga.augment.random_snow, tga.augment.random_gravel, tga.augment.random_fog):
        with pytest.raises(ValueError, match="RGB"):
            fn(gray, probability=1.0, seed=1)


def test_rain_longer_than_the_image_is_refused_or_cut():
    with pytest.raises(ValueError, match="drop_length"):
        tga.augment.random_rain(np.zeros((1, 10, 10, 3), np.uint8), drop_length=10, probability=1.0, seed=1)
    dynamic = tf.function(lambda x: tga.augment.random_rain(x, drop_length=10, blur_value=1, probability=1.0, seed=1))
    out = dynamic.get_concrete_function(tf.TensorSpec([None, None, None, 3], tf.uint8))(
        tf.zeros([1, 10, 10, 3], tf.uint8)).numpy()
    assert (out[0, 0] > 0).any() and (out[0, -1] > 0).any()  # drops from row 0 run off the bottom
