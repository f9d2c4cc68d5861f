"""PiecewiseAffine and ThinPlateSpline maps (issue 36): PiecewiseAffine's against a numpy port of
Albumentations 2.0.8's create_piecewise_affine_maps fed the same jitter (and Albumentations
itself where installed); ThinPlateSpline's against a thin-plate spline solved here per sample in
float64 with numpy, its interpolation of the moved control points, and its exact reproduction of
affine moves. The images, masks, boxes and keypoints through these maps are checked in
test_distortions.py with the other distortions."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import control_point_distortions as cp


class FixedNormal:
    """A numpy Generator stand-in whose normal() returns given draws (Albumentations' jitter)."""

    def __init__(self, values):
        self.values = values

    def normal(self, loc, scale, size):
        assert tuple(size) == self.values.shape
        return self.values * scale


def numpy_idw_maps(h, w, rows, cols, dst):
    """Albumentations' per-pixel loop, vectorised: the inverse-squared-distance average of the
    moved points `dst` [rows * cols, 2] weighted by distances to the unmoved grid, clipped."""
    gx, gy = np.meshgrid(np.linspace(0, w - 1, cols, dtype=np.float32), np.linspace(0, h - 1, rows, dtype=np.float32))
    py, px = np.mgrid[:h, :w].astype(np.float32)
    d2 = (px[..., None] - gx.ravel()) ** 2 + (py[..., None] - gy.ravel()) ** 2
    weights = 1 / (d2 + 1e-8)
    weights /= weights.sum(-1, keepdims=True)
    maps = np.stack([weights @ dst[:, 0], weights @ dst[:, 1]], -1)
    return np.clip(maps, 0, [w - 1, h - 1])


@pytest.mark.parametrize("hw,grid", [((30, 44), (4, 4)), ((23, 17), (3, 5)), ((40, 40), (2, 2))])
def test_piecewise_affine_maps_match_albumentations_for_the_same_jitter(hw, grid):
    h, w = hw
    rows, cols = grid
    jitter = np.random.default_rng(rows * 10 + cols).normal(size=(rows, cols, 2)).astype(np.float32)
    sigma = 0.05 * min(h, w) / 3
    gx, gy = np.meshgrid(np.linspace(0, w - 1, cols, dtype=np.float32), np.linspace(0, h - 1, rows, dtype=np.float32))
    dst = np.stack([np.clip(gx + jitter[..., 1] * sigma, 0, w - 1), np.clip(gy + jitter[..., 0] * sigma, 0, h - 1)],
                   -1).reshape(-1, 2)
    ours = cp.blend_maps(cp.idw_blend(h, w, [grid]), tf.constant(dst[None]), h, w)
    ours = tf.clip_by_value(ours, 0.0, [w - 1.0, h - 1.0]).numpy()[0]
    np.testing.assert_allclose(ours, numpy_idw_maps(h, w, rows, cols, dst), atol=1e-3)
    alb = pytest.importorskip("albumentations.augmentations.geometric.functional")
    mx, my = alb.create_piecewise_affine_maps((h, w), grid, 0.05, False, FixedNormal(jitter))
    np.testing.assert_allclose(ours, np.stack([mx, my], -1), atol=1e-3)


def test_piecewise_affine_draws_a_grid_shape_and_a_jitter_per_sample():
    """Per sample: one of the grid shapes (each drawn about equally often), its block of the
    points the grid moved by N(0, scale * min(h, w) / 3) clipped to the image, zeros elsewhere.
    Mutant caught: the jitter's scale taken from the longer side."""
    h, w, n = 60, 90, 3000
    shapes = cp.grid_shapes((2, 3), (4, 4))
    scale = tf.fill([n], 0.05)
    points = cp.piecewise_affine_points(n, h, w, shapes, scale, False, tf.constant([5, 6], tf.int64)).numpy()
    sizes = [r * c for r, c in shapes]
    starts = np.cumsum([0] + sizes)
    counts = np.zeros(len(shapes))
    offsets = []
    for sample in points:
        used = [b for b in range(len(shapes)) if np.any(sample[starts[b]:starts[b + 1]] != 0)]
        assert len(used) == 1
        b = used[0]
        counts[b] += 1
        others = np.delete(sample, np.s_[starts[b]:starts[b + 1]], axis=0)
        assert not np.any(others)
        block = sample[starts[b]:starts[b + 1]]
        assert np.all((block >= 0) & (block <= [w - 1, h - 1]))
        r, c = shapes[b]
        gx, gy = np.meshgrid(np.linspace(0, w - 1, c), np.linspace(0, h - 1, r))
        interior = np.ones((r, c), bool)
        interior[[0, -1]], interior[:, [0, -1]] = False, False  # unclipped points only
        grid = np.stack([gx, gy], -1)
        offsets.append((block.reshape(r, c, 2) - grid)[interior] if interior.any() else np.zeros((0, 2)))
    np.testing.assert_allclose(counts / n, 1 / len(shapes), atol=0.04)
    offsets = np.concatenate(offsets)
    assert len(offsets) > 1000
    np.testing.assert_allclose(offsets.std(axis=0), 0.05 * min(h, w) / 3, rtol=0.06)
    # absolute_scale: the scale in pixels
    points = cp.piecewise_affine_points(n, h, w, [(3, 3)], tf.fill([n], 3.0), True, tf.constant([1, 1], tf.int64))
    centre = points.numpy()[:, 4]
    np.testing.assert_allclose(centre.std(axis=0), 1.0, rtol=0.06)


def numpy_tps_maps(h, w, src, dst):
    """The thin-plate spline through src -> dst (normalised), solved in float64, at every pixel
    (j / w, i / h), in pixels."""
    p = len(src)
    u = lambda d2: np.where(d2 > 0, d2 * np.log(np.where(d2 > 0, d2, 1)), 0)  # noqa: E731
    system = np.zeros((p + 3, p + 3))
    system[:p, :p] = u(((src[:, None] - src[None]) ** 2).sum(-1))
    system[:p, p:] = np.c_[np.ones(p), src]
    system[p:, :p] = system[:p, p:].T
    coef = np.linalg.solve(system, np.r_[dst, np.zeros((3, 2))])
    py, px = np.mgrid[:h, :w]
    pts = np.stack([px.ravel() / w, py.ravel() / h], -1)
    basis = np.c_[u(((pts[:, None] - src[None]) ** 2).sum(-1)), np.ones(len(pts)), pts]
    return (basis @ coef * [w, h]).reshape(h, w, 2)


@pytest.mark.parametrize("num", [2, 3, 4, 6])
def test_thin_plate_spline_maps_match_a_numpy_solve(num):
    h, w = 36, 45
    t = tga.ThinPlateSpline(scale_range=(0.3, 0.5), num_control_points=num, probability=1.0)
    seed = tf.constant([8, 9], tf.int64)
    src, dst = t.control_points(3, seed)
    maps = t.maps(3, h, w, seed).numpy()
    for i in range(3):
        np.testing.assert_allclose(maps[i], numpy_tps_maps(h, w, src, dst.numpy()[i].astype(np.float64)), atol=2e-3)


def test_thin_plate_spline_passes_through_the_moved_points_and_keeps_affine_moves():
    """At pixels that sit on control points the map is the moved point, exactly (to 1e-3 px);
    a move of every control point by one affine map gives that affine map everywhere."""
    h, w = 36, 45  # 4 points a side: 0, 1/3, 2/3 of 45 and 36 are pixels 0, 15, 30 and 0, 12, 24
    src = cp.tps_control_points(4)
    blend = cp.tps_blend(h, w, src)
    dst = src + np.random.default_rng(1).normal(0, 0.04, src.shape)
    maps = cp.blend_maps(blend, tf.constant((dst * [w, h])[None], tf.float32), h, w).numpy()[0]
    for (x, y), d in zip(src, dst):
        if x < 1 and y < 1:
            np.testing.assert_allclose(maps[round(y * h), round(x * w)], d * [w, h], atol=1e-3)
    a = np.array([[1.1, 0.2], [-0.15, 0.9]])
    moved = src @ a.T + [0.05, -0.02]
    maps = cp.blend_maps(blend, tf.constant((moved * [w, h])[None], tf.float32), h, w).numpy()[0]
    py, px = np.mgrid[:h, :w]
    pts = np.stack([px / w, py / h], -1)
    np.testing.assert_allclose(maps, (pts @ a.T + [0.05, -0.02]) * [w, h], atol=1e-3)


def albumentations_tps_maps(h, w, src, dst):
    """A numpy port of Albumentations 2.0.8's ThinPlateSpline maps (compute_tps_weights with
    r^4 log(r^2 + 1e-6), tps_transform with r^2 log(r^2 + 1e-6)), in float64."""
    p = len(src)
    system = np.zeros((p + 3, p + 3))
    d2 = ((src[:, None] - src[None]) ** 2).sum(-1)
    system[:p, :p] = np.where(d2 > 0, d2 * d2 * np.log(d2 + 1e-6), 0)
    system[:p, p:] = np.c_[np.ones(p), src]
    system[p:, :p] = system[:p, p:].T
    coef = np.linalg.solve(system, np.r_[dst, np.zeros((3, 2))])
    py, px = np.mgrid[:h, :w]
    pts = np.stack([px.ravel() / w, py.ravel() / h], -1)
    d2 = ((pts[:, None] - src[None]) ** 2).sum(-1)
    basis = np.c_[np.where(d2 > 0, d2 * np.log(d2 + 1e-6), 0), np.ones(len(pts)), pts]
    return (basis @ coef * [w, h]).reshape(h, w, 2)


@pytest.mark.parametrize("num", [2, 4])
def test_albumentations_mode_reproduces_albumentations_maps(num):
    """mode="albumentations": Albumentations 2.0.8's maps (the numpy port here, and the package
    itself where installed), which miss their own moved points, unlike the spline."""
    h, w = 40, 52
    t = tga.ThinPlateSpline(scale_range=(0.2, 0.4), num_control_points=num, mode="albumentations", probability=1.0)
    seed = tf.constant([3, 1], tf.int64)
    src, dst = t.control_points(2, seed)
    maps = t.maps(2, h, w, seed).numpy()
    for i in range(2):
        d = dst.numpy()[i].astype(np.float64)
        np.testing.assert_allclose(maps[i], albumentations_tps_maps(h, w, src, d), atol=2e-3)
    alb = pytest.importorskip("albumentations.augmentations.geometric.functional")
    for i in range(2):
        d = dst.numpy()[i]
        weights, affine = alb.compute_tps_weights(src.astype(np.float32), d)
        py, px = np.mgrid[:h, :w]
        pts = np.stack([px.ravel(), py.ravel()], -1).astype(np.float32)
        theirs = (alb.tps_transform(pts / [w, h], src, weights, affine) * [w, h]).reshape(h, w, 2)
        np.testing.assert_allclose(maps[i], theirs, atol=0.05)  # Albumentations solves in float32
        at_points = alb.tps_transform(src.astype(np.float32), src, weights, affine)
        assert np.abs(at_points - d).max() > 1e-2  # the miss the docstring names


def test_arguments_are_checked_at_construction():
    for kwargs, match in ((dict(nb_rows=1), "nb_rows"), (dict(nb_cols=(5, 3)), "nb_cols"),
                          (dict(scale=-0.1), "scale"), (dict(nb_rows=(2, 64), nb_cols=(2, 64)), "control points")):
        with pytest.raises(ValueError, match=match):
            tga.PiecewiseAffine(**kwargs)
    for kwargs, match in ((dict(scale_range=0.3), "scale_range"), (dict(scale_range=(0.2, 1.5)), "scale_range"),
                          (dict(num_control_points=1), "num_control_points"),
                          (dict(num_control_points=3.5), "num_control_points")):
        with pytest.raises(ValueError, match=match):
            tga.ThinPlateSpline(**kwargs)
