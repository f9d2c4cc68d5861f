"""PiecewiseAffine and ThinPlateSpline (Albumentations' names): a grid of control points is
jittered per sample and every pixel's map is a fixed blend of the control points, so each
sample's map is one matrix product `[H*W, P] @ [P, 2]` with a blend matrix shared by the batch.
The images, masks, boxes and keypoints then go through the Remap kernel as in
`tfgpuaug.distortions`.
"""
from __future__ import annotations

from typing import List, Optional, Tuple, Union

import numpy as np
import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug._select import select_samples
from tfgpuaug._types import Seed
from tfgpuaug.distortions import Dim, _Distortion, identity_maps
from tfgpuaug.transforms import TransformInput, TransformOutput

IntRange = Union[int, Tuple[int, int]]
MAX_BLEND_POINTS = 1024  # control-point columns of a blend matrix: H * W * 4 bytes each


def blend_maps(blend: tf.Tensor, points: tf.Tensor, height: Dim, width: Dim) -> tf.Tensor:
    """`[n, height, width, 2]` maps from a blend matrix `[height * width, P]` and each sample's
    control points `[n, P, 2]` (x, y in pixels)."""
    maps = tf.einsum("pk,nkc->npc", blend, tf.cast(points, blend.dtype))
    return tf.reshape(maps, tf.stack([tf.shape(points)[0], height, width, 2]))


def _int_range(name: str, value: IntRange, low: int, high: int) -> Tuple[int, int]:
    pair = (int(value), int(value)) if isinstance(value, (int, np.integer)) else tuple(int(v) for v in value)
    if len(pair) != 2 or not low <= pair[0] <= pair[1] <= high:
        raise ValueError(f"{name} must be an int or (min, max) with {low} <= min <= max <= {high}, got {value}")
    return pair


def _float_range(name: str, value: Union[float, Tuple[float, float]], low: float, high: float) -> Tuple[float, float]:
    pair = (0.0, float(value)) if isinstance(value, (int, float)) else tuple(float(v) for v in value)
    if len(pair) != 2 or not low <= pair[0] <= pair[1] <= high:
        raise ValueError(f"{name} must be a number v (the range (0, v)) or (min, max) with {low:g} <= min <= max "
                         f"<= {high:g}, got {value}")
    return pair


def grid_shapes(rows: Tuple[int, int], cols: Tuple[int, int]) -> List[Tuple[int, int]]:
    """Every (rows, cols) a sample can draw, in the order of the blend matrix's blocks."""
    return [(r, c) for r in range(rows[0], rows[1] + 1) for c in range(cols[0], cols[1] + 1)]


def idw_blend(height: Dim, width: Dim, shapes: List[Tuple[int, int]]) -> tf.Tensor:
    """`[height * width, sum(r * c)]`: for each grid shape (r, c) a block of inverse squared
    distance weights 1 / (d^2 + 1e-8) from every pixel to the r x c points
    linspace(0, height - 1, r) x linspace(0, width - 1, c), normalised per pixel within the
    block (Albumentations 2.0.8's create_piecewise_affine_maps, in float32 as it computes)."""
    h, w = tf.cast(height, tf.float32), tf.cast(width, tf.float32)
    py, px = tf.meshgrid(tf.range(h), tf.range(w), indexing="ij")
    px, py = tf.reshape(px, [-1, 1]), tf.reshape(py, [-1, 1])
    blocks = []
    for r, c in shapes:
        gy, gx = tf.meshgrid(tf.linspace(0.0, h - 1.0, r), tf.linspace(0.0, w - 1.0, c), indexing="ij")
        dx, dy = px - tf.reshape(gx, [1, -1]), py - tf.reshape(gy, [1, -1])
        weights = 1.0 / (dx * dx + dy * dy + 1e-8)
        blocks.append(weights / tf.reduce_sum(weights, axis=1, keepdims=True))
    return tf.concat(blocks, axis=1)


def piecewise_affine_points(n: Dim, height: Dim, width: Dim, shapes: List[Tuple[int, int]], scale: tf.Tensor,
                            absolute_scale: bool, seed: tf.Tensor) -> tf.Tensor:
    """`[n, sum(r * c), 2]` jittered control points of PiecewiseAffine laid out as `idw_blend`'s
    blocks: sample i draws one grid shape and its block holds the grid points moved by
    N(0, scale_i / 3) (times min(height, width) unless `absolute_scale`), clipped to the image;
    every other block is zero, so the blend picks the drawn grid."""
    h, w = tf.cast(height, tf.float32), tf.cast(width, tf.float32)
    s_shape, s_jitter = tf.unstack(tf.random.experimental.stateless_split(seed, 2))
    pick = tf.random.stateless_uniform([n], s_shape, maxval=len(shapes), dtype=tf.int32)
    sigma = scale / 3.0 if absolute_scale else scale * tf.minimum(w, h) / 3.0
    grids, block_of = [], []
    for b, (r, c) in enumerate(shapes):
        gy, gx = tf.meshgrid(tf.linspace(0.0, h - 1.0, r), tf.linspace(0.0, w - 1.0, c), indexing="ij")
        grids.append(tf.stack([tf.reshape(gx, [-1]), tf.reshape(gy, [-1])], axis=-1))
        block_of += [b] * (r * c)
    grid = tf.concat(grids, axis=0)                                   # [K, 2]
    jitter = tf.random.stateless_normal(tf.stack([n, grid.shape[0], 2]), s_jitter)
    points = grid[tf.newaxis] + jitter * sigma[:, tf.newaxis, tf.newaxis]
    points = tf.clip_by_value(points, 0.0, tf.stack([w - 1.0, h - 1.0]))
    chosen = tf.equal(tf.constant(block_of)[tf.newaxis, :, tf.newaxis], pick[:, tf.newaxis, tf.newaxis])
    return tf.where(chosen, points, 0.0)


def tps_control_points(num_control_points: int) -> np.ndarray:
    """`[P, 2]` source points in [0, 1]^2: a num x num grid, or the corners and the centre for 2
    (Albumentations' and kornia's layout)."""
    if num_control_points == 2:
        return np.array([[0, 0], [0, 1], [1, 0], [1, 1], [0.5, 0.5]], np.float64)
    t = np.linspace(0.0, 1.0, num_control_points)
    return np.stack(np.meshgrid(t, t), axis=-1).reshape(-1, 2)


TPS_MODES = ("spline", "albumentations")


def _tps_basis(r2):
    """The thin-plate radial basis in squared distances: r^2 log r^2 (0 at r = 0)."""
    return tf.where(r2 > 0.0, r2 * tf.math.log(tf.maximum(r2, 1e-300)), tf.zeros_like(r2))


def _albumentations_basis(r2):
    """Albumentations 2.0.8's evaluation basis: r^2 log(r^2 + 1e-6) (0 at r = 0)."""
    return tf.where(r2 > 0.0, r2 * tf.math.log(r2 + 1e-6), tf.zeros_like(r2))


def tps_solver(src: np.ndarray, mode: str = "spline") -> np.ndarray:
    """`[P + 3, P]`: the thin-plate spline's coefficients (P radial weights, then the affine
    part 1, x, y) are this matrix times the destination points `[P, 2]` (Bookstein's system,
    which depends on the source points only, so one inverse serves every sample). "albumentations"
    builds the system as Albumentations 2.0.8 does, with r^4 log(r^2 + 1e-6)."""
    p = len(src)
    d2 = np.sum((src[:, None] - src[None]) ** 2, axis=-1)
    system = np.zeros((p + 3, p + 3))
    if mode == "spline":
        system[:p, :p] = np.where(d2 > 0, d2 * np.log(np.where(d2 > 0, d2, 1.0)), 0.0)
    else:
        system[:p, :p] = np.where(d2 > 0, d2 * d2 * np.log(d2 + 1e-6), 0.0)
    system[:p, p:] = np.concatenate([np.ones((p, 1)), src], axis=1)
    system[p:, :p] = system[:p, p:].T
    return np.linalg.inv(system)[:, :p]


def tps_blend(height: Dim, width: Dim, src: np.ndarray, mode: str = "spline") -> tf.Tensor:
    """`[height * width, P]` B with B @ dst the thin-plate spline through (src -> dst) evaluated
    at every pixel (j / width, i / height): the basis at each pixel times `tps_solver`
    ("albumentations": its two mismatched kernels)."""
    h, w = tf.cast(height, tf.float64), tf.cast(width, tf.float64)
    py, px = tf.meshgrid(tf.range(h) / h, tf.range(w) / w, indexing="ij")
    px, py = tf.reshape(px, [-1, 1]), tf.reshape(py, [-1, 1])
    s = tf.constant(src, tf.float64)
    r2 = (px - s[tf.newaxis, :, 0]) ** 2 + (py - s[tf.newaxis, :, 1]) ** 2
    radial = _tps_basis(r2) if mode == "spline" else _albumentations_basis(r2)
    basis = tf.concat([radial, tf.ones_like(px), px, py], axis=1)     # [H*W, P + 3]
    return tf.cast(basis @ tf.constant(tps_solver(src, mode)), tf.float32)


class PiecewiseAffine(_Distortion):
    """Albumentations' PiecewiseAffine (2.0.8): per sample, a `nb_rows` x `nb_cols` grid of
    points spanning the image is jittered by N(0, scale / 3) (scale a fraction of the shorter
    side unless `absolute_scale`, drawn uniformly from `scale`) and clipped to the image; each
    output pixel samples the inverse-squared-distance average of the moved points (what
    Albumentations 2.0.8 computes under this name; imgaug's original was a triangle-wise
    affine). Masks, boxes and keypoints follow as in ElasticTransform. Inference leaves
    everything alone.

    Args:
      scale: v (meaning (0, v)) or (min, max): the jitter's scale range, a fraction of the
        shorter side (pixels with `absolute_scale`); a sample that draws 0 is left alone.
      nb_rows: grid rows (>= 2), or (min, max) drawn per sample.
      nb_cols: grid columns (>= 2), or (min, max) drawn per sample.
      interpolation: "bilinear" or "nearest".
      absolute_scale: `scale` in pixels.
      border_mode: "constant", "replicate", "reflect", "wrap" or "reflect_101".
      fill: the image value outside it for "constant" (0..255).
      fill_mask: the mask value outside it.
      probability: probability that a sample is distorted.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> tga.PiecewiseAffine(scale=(0.03, 0.05), nb_rows=4, nb_cols=4, probability=1.0)
    """

    def __init__(self, scale: Union[float, Tuple[float, float]] = (0.03, 0.05), nb_rows: IntRange = 4,
                 nb_cols: IntRange = 4, interpolation: str = "bilinear", absolute_scale: bool = False,
                 border_mode: str = "constant", fill: float = 0.0, fill_mask: float = 0.0, probability: float = 0.5,
                 seed: Optional[int] = None):
        super().__init__(probability, interpolation, border_mode, fill, fill_mask, seed)
        self.scale = _float_range("scale", scale, 0.0, 1e6)
        self.nb_rows, self.nb_cols = _int_range("nb_rows", nb_rows, 2, 64), _int_range("nb_cols", nb_cols, 2, 64)
        self.absolute_scale = bool(absolute_scale)
        points = sum(r * c for r, c in grid_shapes(self.nb_rows, self.nb_cols))
        if points > MAX_BLEND_POINTS:
            raise ValueError(f"nb_rows {self.nb_rows} x nb_cols {self.nb_cols} give {points} control points over "
                             f"all grid shapes (the blend matrix holds them all); at most {MAX_BLEND_POINTS}: "
                             "narrow the ranges")

    def maps(self, n: Dim, height: Dim, width: Dim, seed: tf.Tensor,
             applied: Optional[tf.Tensor] = None) -> tf.Tensor:
        s_scale, s_points = tf.unstack(tf.random.experimental.stateless_split(seed, 2))
        scale = tf.random.stateless_uniform([n], s_scale, minval=self.scale[0], maxval=self.scale[1])
        shapes = grid_shapes(self.nb_rows, self.nb_cols)
        points = piecewise_affine_points(n, height, width, shapes, scale, self.absolute_scale, s_points)
        maps = blend_maps(idw_blend(height, width, shapes), points, height, width)
        maps = tf.clip_by_value(maps, 0.0, tf.stack([tf.cast(width, tf.float32) - 1.0,
                                                     tf.cast(height, tf.float32) - 1.0]))
        keep = scale > 0.0 if applied is None else applied & (scale > 0.0)  # Albumentations: scale 0, no map
        return select_samples(keep, maps, identity_maps(n, height, width))

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if self.scale[1] <= 0.0:  # Albumentations draws no map at scale 0: nothing moves, boxes included
            training = False
        return super().apply(images, targets, seed, training)

    def get_config(self) -> dict:
        return dict(scale=self.scale, nb_rows=self.nb_rows, nb_cols=self.nb_cols, absolute_scale=self.absolute_scale,
                    **super().get_config())


class ThinPlateSpline(_Distortion):
    """Albumentations' ThinPlateSpline: per sample, a `num_control_points` x `num_control_points`
    grid of control points (the four corners and the centre for 2) in normalised coordinates is
    moved by N(0, s / 10), s uniform in `scale_range`, and every pixel samples the thin-plate
    spline (radial basis r^2 log r^2 plus an affine part) that takes each control point to its
    moved place, so the map passes through the moved points exactly (Bookstein; kornia's
    RandomThinPlateSpline). Albumentations 2.0.8 solves with r^4 log r^2 but evaluates with
    r^2 log r^2: its maps miss its moved points and move pixels about four times as far, less
    smoothly; `mode="albumentations"` reproduces them. Masks, boxes and keypoints follow as in
    ElasticTransform. Inference leaves everything alone.

    Args:
      scale_range: (min, max) in [0, 1] of the displacement scale (tenths of the image size).
      num_control_points: control points a side (>= 2).
      mode: "spline" (the thin-plate spline) or "albumentations" (Albumentations 2.0.8's maps).
      interpolation: "bilinear" or "nearest".
      border_mode: "constant", "replicate", "reflect", "wrap" or "reflect_101".
      fill: the image value outside it for "constant" (0..255).
      fill_mask: the mask value outside it.
      probability: probability that a sample is distorted.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> tga.ThinPlateSpline(scale_range=(0.2, 0.4), num_control_points=4, probability=1.0)
    """

    def __init__(self, scale_range: Tuple[float, float] = (0.2, 0.4), num_control_points: int = 4,
                 mode: str = "spline", interpolation: str = "bilinear", border_mode: str = "constant",
                 fill: float = 0.0, fill_mask: float = 0.0, probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, interpolation, border_mode, fill, fill_mask, seed)
        if mode not in TPS_MODES:
            raise ValueError(f"mode must be one of {TPS_MODES}, got {mode!r}")
        self.mode = mode
        if isinstance(scale_range, (int, float)):
            raise ValueError(f"scale_range must be (min, max) in [0, 1], got {scale_range}")
        self.scale_range = _float_range("scale_range", scale_range, 0.0, 1.0)
        if not isinstance(num_control_points, (int, np.integer)):
            raise ValueError(f"num_control_points must be an int, got {num_control_points!r}")
        self.num_control_points = _int_range("num_control_points", num_control_points, 2, 32)[0]

    def control_points(self, n: Dim, seed: tf.Tensor) -> Tuple[np.ndarray, tf.Tensor]:
        """The source points `[P, 2]` and each sample's moved points `[n, P, 2]`, normalised."""
        src = tps_control_points(self.num_control_points)
        s_scale, s_move = tf.unstack(tf.random.experimental.stateless_split(seed, 2))
        scale = tf.random.stateless_uniform([n], s_scale, minval=self.scale_range[0], maxval=self.scale_range[1]) / 10
        move = tf.random.stateless_normal(tf.stack([n, len(src), 2]), s_move) * scale[:, tf.newaxis, tf.newaxis]
        return src, tf.constant(src, tf.float32)[tf.newaxis] + move

    def maps(self, n: Dim, height: Dim, width: Dim, seed: tf.Tensor,
             applied: Optional[tf.Tensor] = None) -> tf.Tensor:
        src, dst = self.control_points(n, seed)
        size = tf.stack([tf.cast(width, tf.float32), tf.cast(height, tf.float32)])
        maps = blend_maps(tps_blend(height, width, src, self.mode), dst * size, height, width)
        if applied is None:
            return maps
        return select_samples(applied, maps, identity_maps(n, height, width))

    def get_config(self) -> dict:
        return dict(scale_range=self.scale_range, num_control_points=self.num_control_points, mode=self.mode,
                    **super().get_config())
