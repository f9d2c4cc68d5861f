"""GridElasticDeform (issue 36): Albumentations' per-cell perspective warps painted by
cv2.fillConvexPoly in cell order. The owner plane is held to a statement of OpenCV's own
procedure written here in plain Python (clipLine, the 8-connected LineIterator, the convex
scanline walker with its 16.16 fixed point, cells painted in order), byte for byte; the maps to
a numpy statement (the homography as the null vector of the 8x9 point system, inverted, OpenCV
5's per-row float arithmetic); the images to the Remap port in test_distortions through those
maps. Where OpenCV and Albumentations are installed (a dev venv), the transform is checked
against Albumentations' own distort_image, bbox_distort_image and distort_image_keypoints given
the same mesh, and the owners against cv2.fillConvexPoly."""
import warnings

import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import grid_elastic as ge
from tfgpuaug import targets as tg
import fixtures
from fixtures import photo
from test_distortions import numpy_remap, rectangle_oracle


def draw_line(plane, p1, p2, value):
    """cv2.line, LINE_8, thickness 1: LineIterator's error-term walk from the left end."""
    h, w = plane.shape
    ok, (x1, y1), (x2, y2) = fixtures.clip_line(w, h, p1, p2)
    if not ok:
        return
    dx, dy = x2 - x1, y2 - y1
    if dx < 0:
        dx, dy, x1, y1 = -dx, -dy, x2, y2
    sy = -1 if dy < 0 else 1
    dy = abs(dy)
    steep = dy > dx
    if steep:
        dx, dy = dy, dx
    err, x, y = dx - 2 * dy, x1, y1
    for _ in range(dx + 1):
        plane[y, x] = value
        if err < 0:
            err += 2 * dx - 2 * dy
            if steep:
                x += 1
            else:
                y += sy
        else:
            err -= 2 * dy
        if steep:
            y += sy
        else:
            x += 1


def fill_convex_poly(plane, v, value):
    """cv2.fillConvexPoly (LINE_8, shift 0): the edges drawn, then two walkers down the sides
    from the top vertex, x in 16.16 fixed point, each row filled between the rounded walkers."""
    h, w = plane.shape
    for i in range(len(v)):
        draw_line(plane, v[i - 1], v[i], value)
    for y, x1, x2 in fixtures.convex_poly_rows(v, h, w):
        plane[y, x1:x2 + 1] = value


def owner_statement(quads, h, w):
    """Cells painted in order, as Albumentations' distort_image paints its copies."""
    plane = np.full((h, w), -1, np.int64)
    for k, quad in enumerate(quads):
        fill_convex_poly(plane, [tuple(int(c) for c in p) for p in quad], k)
    return plane


def homography_statement(rect, quad):
    """The 3x3 map taking the rectangle's corners to the quad's: the null vector of the 8x9
    point system (SVD), scaled to a last entry of 1."""
    rows = []
    for (x, y), (u, v) in zip(rect, quad):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    h = np.linalg.svd(np.asarray(rows, np.float64))[2][-1].reshape(3, 3)
    return h / h[2, 2]


def maps_statement(mesh, h, w):
    rects, quads = ge.cell_rects(mesh).numpy(), ge.cell_quads(mesh).numpy()
    out = np.full((len(quads), h, w, 2), np.nan, np.float32)
    x = np.arange(w, dtype=np.float64)
    for b in range(len(quads)):
        owner = owner_statement(quads[b], h, w)
        for k in range(quads.shape[1]):
            m = np.linalg.inv(homography_statement(rects[b, k].astype(np.float64), quads[b, k].astype(np.float64)))
            for y in np.unique(np.nonzero(owner == k)[0]):
                sel = owner[y] == k
                # float32 fma(m[i, 0], x, float32(y m[i, 1] + m[i, 2])): the product and sum in
                # float64 are exact here, then one rounding
                num_x, num_y, den = ((np.float64(np.float32(m[i, 0])) * x[sel]
                                      + np.float64(np.float32(y * m[i, 1] + m[i, 2]))).astype(np.float32)
                                     for i in range(3))
                out[b, y, sel, 0] = num_x / den
                out[b, y, sel, 1] = num_y / den
    return out


CASES = [((3, 3), 2, 30, 37), ((4, 2), 3, 41, 29), ((2, 5), 1, 33, 40), ((1, 1), 4, 17, 21), ((5, 4), 2, 26, 31)]


@pytest.mark.parametrize("grid,magnitude,h,w", CASES)
def test_owners_equal_the_statement_of_opencvs_painting(grid, magnitude, h, w):
    """Every pixel's last painting cell, byte for byte (edges reaching the right and bottom
    border are clipped by clipLine; shared edges go to the later cell)."""
    mesh = ge.grid_mesh(3, h, w, grid, magnitude, tf.constant([7, grid[0] * 10 + magnitude], tf.int64))
    quads = ge.cell_quads(mesh)
    span_rows = -(-h // grid[1]) + 2 * magnitude + 1
    owners = ge.cell_owners(quads, h, w, span_rows).numpy()
    for b in range(3):
        np.testing.assert_array_equal(owners[b], owner_statement(quads[b].numpy(), h, w))
    assert (owners >= 0).all()  # the cells tile the image


def test_owners_of_random_quadrilaterals_equal_the_statement():
    """The rasteriser alone on 600 random quadrilaterals whose sides run downwards (rectangles of
    5-40 px inside the image, corners moved up to 6 px: some cross the image's edges, some fold
    sideways), 12 per image painted in order: byte for byte (and equal to cv2.fillConvexPoly
    where OpenCV is installed).
    Mutants caught: the fill's step rounded down instead of towards zero; lines not clipped at
    the right edge; the steep lines' ties moved off the major axis."""
    rng = np.random.default_rng(3)
    n, k, h, w = 50, 12, 47, 53
    width, height = rng.integers(5, 41, (n, k)), rng.integers(13, 41, (n, k))
    x0, y0 = rng.integers(0, w - width + 1), rng.integers(0, h - height + 1)
    rect = np.stack([np.stack([x0, y0], -1), np.stack([x0 + width, y0], -1), np.stack([x0 + width, y0 + height], -1),
                     np.stack([x0, y0 + height], -1)], axis=2)
    quads = (rect + rng.integers(-6, 7, rect.shape)).astype(np.int32)
    owners = ge.cell_owners(tf.constant(quads), h, w, 54).numpy()
    for b in range(n):
        np.testing.assert_array_equal(owners[b], owner_statement(quads[b], h, w), err_msg=str(b))
    try:
        import cv2
    except ModuleNotFoundError:
        return
    for b in range(n):  # the statement itself, where OpenCV is installed
        painted = np.full((h, w), -1)
        for i, quad in enumerate(quads[b]):
            plane = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(plane, quad, 1)
            painted[plane > 0] = i
        np.testing.assert_array_equal(painted, owners[b], err_msg=str(b))


@pytest.mark.parametrize("grid,magnitude,h,w", CASES)
def test_maps_and_images_equal_the_numpy_statement(grid, magnitude, h, w):
    """Maps within 1e-3 px of the statement's (float32 rounding of matrices solved two ways),
    NaN nowhere; the transform's images equal the Remap port through the statement's maps on all
    but 0.2% of bytes, those within one level (a last-bit map difference moves a rounding)."""
    images = np.stack([photo(h, w, seed=s) for s in range(2)])
    t = tga.GridElasticDeform(grid, magnitude)
    seed = tf.constant([3, 9], tf.int64)
    out = t(images, seed=seed).numpy()
    s_maps, _ = tf.unstack(tf.random.experimental.stateless_split(seed, 2))
    maps = t.maps(2, h, w, s_maps).numpy()
    expected = maps_statement(ge.grid_mesh(2, h, w, grid, magnitude, s_maps), h, w)
    assert not np.isnan(maps).any()
    np.testing.assert_allclose(maps, expected, atol=1e-3)
    reference = np.stack([numpy_remap(images[b], expected[b], "bilinear", "constant", 0) for b in range(2)])
    diff = np.abs(out.astype(int) - reference)
    assert diff.max() <= 1 and (diff > 0).mean() <= 0.002, ((diff > 0).mean(), diff.max())


def test_the_draws_follow_albumentations_law():
    """Splits: almost-equal parts (the first size % parts one longer) in a uniformly random
    order; inner vertices moved by integers uniform in [-m, m] on each axis, border vertices
    fixed; independent per sample."""
    n, h, w, grid, m = 4000, 50, 43, (4, 3), 3
    mesh = ge.grid_mesh(n, h, w, grid, m, tf.constant([1, 2], tf.int64))
    cols, rows, v = mesh.col_edges.numpy(), mesh.row_edges.numpy(), mesh.vertices.numpy()
    assert sorted(np.diff(cols[0]).tolist()) == [10, 11, 11, 11] and sorted(np.diff(rows[0]).tolist()) == [16, 17, 17]
    first_long = (np.diff(rows, axis=1) == 16).mean(axis=0)  # where the short part lands: each slot a third
    np.testing.assert_allclose(first_long, 1 / 3, atol=0.04)
    moves = v[:, 1:-1, 1:-1] - np.stack(np.broadcast_arrays(cols[:, None, 1:-1], rows[:, 1:-1, None]), -1)
    values, counts = np.unique(moves, return_counts=True)
    assert values.tolist() == list(range(-m, m + 1))
    np.testing.assert_allclose(counts / counts.sum(), 1 / (2 * m + 1), atol=0.01)
    border = np.concatenate([v[:, 0], v[:, -1], v[:, :, 0], v[:, :, -1]], axis=1)
    edges = np.concatenate([np.stack(np.broadcast_arrays(cols, rows[:, :1]), -1),
                            np.stack(np.broadcast_arrays(cols, rows[:, -1:]), -1),
                            np.stack(np.broadcast_arrays(cols[:, :1], rows), -1),
                            np.stack(np.broadcast_arrays(cols[:, -1:], rows), -1)], axis=1)
    np.testing.assert_array_equal(border, edges)
    assert abs(np.corrcoef(moves[:, 0, 0, 0], moves[:, 0, 0, 1])[0, 1]) < 0.05


def test_targets_follow_the_maps():
    """Masks through the nearest remap of the same maps; boxes the rectangle oracle; keypoints
    land where the maps take them back (to 0.01 px)."""
    h, w = 36, 44
    images = np.stack([photo(h, w, seed=s) for s in range(2)])
    masks = np.zeros((2, h, w, 1), np.uint8)
    masks[:, 8:25, 10:33] = 4
    boxes = tf.ragged.constant([[[10.0, 8.0, 33.0, 25.0], [2.5, 1.5, 9.0, 30.0]], [[20.2, 3.3, 41.0, 33.5]]],
                               ragged_rank=1)
    points = tf.ragged.constant([[[12.5, 9.5], [30.25, 20.75]], [[21.0, 17.5]]], ragged_rank=1)
    t = tga.GridElasticDeform((3, 3), 3)
    seed = tf.constant([5, 6], tf.int64)
    out, moved = t.apply(images, tg.Targets(boxes=boxes, masks=tf.constant(masks), keypoints=points), seed=seed)
    s_maps, _ = tf.unstack(tf.random.experimental.stateless_split(seed, 2))
    maps = t.maps(2, h, w, s_maps).numpy()
    for b in range(2):
        np.testing.assert_array_equal(out[b].numpy(), numpy_remap(images[b], maps[b], "bilinear", "constant", 0))
        np.testing.assert_array_equal(moved.masks[b].numpy(), numpy_remap(masks[b], maps[b], "nearest", "constant", 0))
        expected = [rectangle_oracle(box, maps[b], (h, w)) for box in boxes[b].numpy()]
        np.testing.assert_allclose(moved.boxes[b].numpy(), np.array(expected, np.float32).reshape(-1, 4))
        for p, q in zip(points[b].numpy(), moved.keypoints[b].numpy()):
            # The map at the moved point (pixel centres at integers) gives the point back.
            qx, qy = q - 0.5
            x0, y0 = int(np.floor(qx)), int(np.floor(qy))
            fx, fy = qx - x0, qy - y0
            at = ((1 - fy) * ((1 - fx) * maps[b, y0, x0] + fx * maps[b, y0, x0 + 1])
                  + fy * ((1 - fx) * maps[b, y0 + 1, x0] + fx * maps[b, y0 + 1, x0 + 1]))
            np.testing.assert_allclose(at, p - 0.5, atol=0.01)
    assert (out.numpy() != images).mean() > 0.3


def test_probability_inference_and_config():
    images = np.stack([photo(30, 30, seed=s) for s in range(3)])
    np.testing.assert_array_equal(tga.GridElasticDeform((3, 3), 3, probability=0.0)(images, seed=[1, 2]).numpy(),
                                  images)
    np.testing.assert_array_equal(tga.GridElasticDeform((3, 3), 3)(images, seed=[1, 2], training=False), images)
    twins = np.stack([images[0]] * 8)
    out = tga.GridElasticDeform((3, 3), 3, probability=0.5)(twins, seed=[4, 5]).numpy()
    moved = [(o != images[0]).any() for o in out]
    assert 0 < sum(moved) < 8  # per sample
    t = tga.GridElasticDeform((2, 4), 3, interpolation="nearest", probability=0.7, seed=8)
    config = t.get_config()
    assert config == dict(num_grid_xy=(2, 4), magnitude=3, interpolation="nearest", probability=0.7, seed=8)
    again = tga.GridElasticDeform(**config)
    np.testing.assert_array_equal(t(images, seed=[1, 1]), again(images, seed=[1, 1]))


def test_refusals_and_the_dynamic_height_warning():
    with pytest.raises(ValueError, match="num_grid_xy"):
        tga.GridElasticDeform((0, 3), 2)
    with pytest.raises(ValueError, match="num_grid_xy"):
        tga.GridElasticDeform((3,), 2)
    with pytest.raises(ValueError, match="magnitude"):
        tga.GridElasticDeform((3, 3), 0)
    with pytest.raises(ValueError, match="magnitude"):
        tga.GridElasticDeform((3, 3), 2.5)
    with pytest.raises(ValueError, match="interpolation"):
        tga.GridElasticDeform((3, 3), 2, interpolation="cubic")
    images = np.zeros((1, 30, 30, 3), np.uint8)
    with pytest.raises(ValueError, match="pixels tall"):
        tga.GridElasticDeform((3, 3), 5)(images)  # cells 10 tall, need more than 10
    tga.GridElasticDeform((3, 3), 4)(images)
    with pytest.raises(ValueError, match="uint8"):
        tga.GridElasticDeform((3, 3), 2)(images.astype(np.float32))
    fn = tf.function(lambda x: tga.GridElasticDeform((3, 3), 2)(x, seed=[1, 2]),
                     input_signature=[tf.TensorSpec([None, None, None, 3], tf.uint8)])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert fn(tf.constant(images)).shape == (1, 30, 30, 3)
    assert any("height is unknown" in str(c.message) for c in caught)


def albumentations_mesh(mesh, b):
    rects, quads = ge.cell_rects(mesh).numpy()[b], ge.cell_quads(mesh).numpy()[b]
    dims = np.stack([rects[:, 0, 0], rects[:, 0, 1], rects[:, 2, 0], rects[:, 2, 1]], 1).astype(np.int16)
    return np.hstack([dims, quads.reshape(-1, 8).astype(np.float32)])


@pytest.mark.parametrize("grid,magnitude", [((4, 4), 10), ((8, 8), 5), ((3, 5), 7), ((1, 1), 3)])
def test_against_albumentations_where_installed(grid, magnitude):
    """Albumentations' distort_image given the same mesh: within one level on at most 0.1% of
    bytes (measured 0.01-0.02% on ImageNet-like photos: its matrices come from another solver,
    its multiply-adds fused); the owners equal cv2.fillConvexPoly painted in order; masks
    (nearest) within 0.5% of pixels; boxes within a pixel of bbox_distort_image's; keypoints
    within 0.6 px of distort_image_keypoints' (it moves them in corner coordinates)."""
    cv2 = pytest.importorskip("cv2")
    fg = pytest.importorskip("albumentations.augmentations.geometric.functional")
    h, w, n = 200, 224, 3
    images = np.stack([photo(h, w, seed=s) for s in range(n)])
    t = tga.GridElasticDeform(grid, magnitude)
    seed = tf.constant([13, 14], tf.int64)
    s_maps, _ = tf.unstack(tf.random.experimental.stateless_split(seed, 2))
    mesh = ge.grid_mesh(n, h, w, grid, magnitude, s_maps)
    masks = np.zeros((n, h, w, 1), np.uint8)
    masks[:, 40:150, 30:170] = 1
    masks[:, 90:110, 60:200] = 2
    boxes = np.array([[30.0, 40.0, 170.0, 150.0], [60.0, 90.0, 200.0, 110.0]], np.float32)
    out, moved = t.apply(images, tg.Targets(boxes=tf.ragged.constant([boxes] * n, ragged_rank=1),
                                           masks=tf.constant(masks)), seed=seed)
    maps = t.maps(n, h, w, s_maps)
    points = np.array([[50.5, 60.5], [120.25, 101.75], [200.0, 180.0]], np.float32)
    moved_points = t.apply(images, tg.Targets(keypoints=tf.ragged.constant([points] * n, ragged_rank=1)),
                           seed=seed)[1].keypoints
    differing = 0
    for b in range(n):
        mesh_b = albumentations_mesh(mesh, b)
        owner = np.full((h, w), -1)
        for k, q in enumerate(mesh_b[:, 4:]):
            plane = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(plane, np.int32(q.reshape(4, 2)), 255)
            owner[plane > 0] = k
        np.testing.assert_array_equal(ge.cell_owners(ge.cell_quads(mesh)[b:b + 1], h, w,
                                                     t._span_rows(h)).numpy()[0], owner)
        ref = fg.distort_image(images[b], mesh_b, cv2.INTER_LINEAR)
        diff = np.abs(ref.astype(int) - out[b].numpy())
        assert diff.max() <= 1
        differing += (diff > 0).sum()
        ref_mask = fg.distort_image(masks[b, ..., 0], mesh_b, cv2.INTER_NEAREST)
        assert (ref_mask != moved.masks[b, ..., 0].numpy()).mean() <= 0.005
        ref_boxes = fg.bbox_distort_image(np.concatenate([boxes, np.zeros((2, 1), np.float32)], 1), mesh_b, (h, w))
        np.testing.assert_allclose(moved.boxes[b].numpy(), ref_boxes[:, :4], atol=1.0)
        ref_points = fg.distort_image_keypoints(np.concatenate([points, np.zeros((3, 2), np.float32)], 1), mesh_b,
                                                (h, w))
        np.testing.assert_allclose(moved_points[b].numpy(), ref_points[:, :2], atol=0.6)
    assert differing <= 0.001 * images.size
    assert not np.isnan(maps.numpy()).any()


def test_cell_maps_op_marks_foreign_owners_and_refuses_bad_shapes():
    """Owners outside [0, K) map to NaN (Remap's fill); a projective matrix whose last entry is
    0 is used as it is; shapes other than owners [B, H, W], matrices [B, K, 3, 3] are refused."""
    from tfgpuaug import _loader
    ops = _loader.ops()
    owners = tf.constant([[[0, 1, -1], [2, 1, 0]]], tf.int32)
    m = np.stack([np.eye(3), [[2.0, 0, 1], [0, 1, 0], [0, 0, 1]], [[0.0084, 0.0, -0.92], [0.0017, 0.0042, -0.39],
                                                                   [1.9e-5, 0.0, 0.0]]])[np.newaxis, :2]
    maps = ops.tf_gpu_aug_cell_maps(owners, tf.constant(m, tf.float64)).numpy()[0]
    np.testing.assert_array_equal(maps[0, 0], [0.0, 0.0])
    np.testing.assert_array_equal(maps[0, 1], [3.0, 0.0])  # 2 x + 1 at x = 1
    assert np.isnan(maps[0, 2]).all() and np.isnan(maps[1, 0]).all()  # owner -1 and owner 2 of 2 cells
    np.testing.assert_array_equal(maps[1, 2], [2.0, 1.0])
    with pytest.raises((tf.errors.InvalidArgumentError, ValueError)):
        ops.tf_gpu_aug_cell_maps(owners, tf.zeros([1, 2, 9], tf.float64))
    with pytest.raises((tf.errors.InvalidArgumentError, ValueError)):
        ops.tf_gpu_aug_cell_maps(owners[0], tf.zeros([1, 2, 3, 3], tf.float64))


def test_empty_batches_pass_through():
    empty = np.zeros((0, 30, 30, 3), np.uint8)
    assert tga.GridElasticDeform((3, 3), 3)(empty, seed=[1, 2]).shape == (0, 30, 30, 3)
