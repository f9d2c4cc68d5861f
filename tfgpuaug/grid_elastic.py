"""Albumentations' GridElasticDeform: the image cut into a grid of cells (each axis into parts
whose sizes differ by at most one pixel, in a random order), every inner grid vertex moved by
whole pixels, and each cell's rectangle carried by its own homography onto the moved
quadrilateral.

Albumentations warps the whole image once per cell (cv2.warpPerspective) and copies each warp
into the pixels cv2.fillConvexPoly paints for the quadrilateral, later cells (row-major) over
earlier ones. Here, per sample in the graph: the pixels each cell paints are spans (the
scanline fill and the four 8-connected edge lines, OpenCV's integer rules restated), painted in
cell order by the SpanRaster kernel op into an owner plane; each pixel's map entry is its
owner's inverse homography in OpenCV 5's float arithmetic (the CellMaps kernel op: fma(m0, x,
float(y m1 + m2)) over fma(m6, x, float(y m7 + m8)) in float32), and the Remap kernel resamples
images and masks through the maps (CPU and GPU). Boxes and keypoints follow the maps as in the
other distortions: a box becomes the extent of the output pixels that sample it
(Albumentations' mask rule), a keypoint moves to the output position whose map value it is
(Albumentations moves it by its cell's homography in corner coordinates and clips it: the same
place to within a fraction of a pixel, where the image itself is warped about pixel centres).
"""
from __future__ import annotations

import warnings
from typing import List, NamedTuple, Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug import targets as tg
from tfgpuaug.augment.raster import clip_line, convex_quad_spans, span_raster
from tfgpuaug.distortions import Dim, _Distortion, identity_maps
from tfgpuaug.grid_shuffle import shuffled_starts
from tfgpuaug.transforms import TransformOutput


class GridMesh(NamedTuple):
    """Per sample: `col_edges` `[n, cols + 1]` and `row_edges` `[n, rows + 1]` int32, the cells'
    source rectangles; `vertices` `[n, rows + 1, cols + 1, 2]` int32, the moved grid (x, y)."""
    col_edges: tf.Tensor
    row_edges: tf.Tensor
    vertices: tf.Tensor


def grid_mesh(n: Dim, height: Dim, width: Dim, grid: Tuple[int, int], magnitude: int, seed: tf.Tensor,
              applied: Optional[tf.Tensor] = None) -> GridMesh:
    """The cells and moved vertices for `n` images: `grid` = (cols, rows) parts, shuffled per axis
    (Albumentations' split_uniform_grid), each inner vertex moved by integers uniform in
    [-magnitude, magnitude] per axis, the border fixed. Samples where `applied` is False keep the
    unshuffled grid, unmoved."""
    cols, rows = grid
    s_rows, s_cols, s_moves = tf.unstack(tf.random.experimental.stateless_split(seed, 3))
    row_edges = shuffled_starts(n, height, rows, s_rows, applied)
    col_edges = shuffled_starts(n, width, cols, s_cols, applied)
    moves = tf.random.stateless_uniform([n, rows - 1, cols - 1, 2], s_moves, minval=-magnitude,
                                        maxval=magnitude + 1, dtype=tf.int32)
    if applied is not None:
        moves = moves * tf.cast(applied, tf.int32)[:, tf.newaxis, tf.newaxis, tf.newaxis]
    moves = tf.pad(moves, [[0, 0], [1, 1], [1, 1], [0, 0]])
    xs = tf.broadcast_to(col_edges[:, tf.newaxis, :], [n, rows + 1, cols + 1])
    ys = tf.broadcast_to(row_edges[:, :, tf.newaxis], [n, rows + 1, cols + 1])
    return GridMesh(col_edges, row_edges, tf.stack([xs, ys], -1) + moves)


def cell_quads(mesh: GridMesh) -> tf.Tensor:
    """`[n, rows * cols, 4, 2]` int32: each cell's moved corners (top-left, top-right,
    bottom-right, bottom-left), row-major."""
    v = mesh.vertices
    corners = [v[:, :-1, :-1], v[:, :-1, 1:], v[:, 1:, 1:], v[:, 1:, :-1]]
    quads = tf.stack(corners, axis=3)  # [n, rows, cols, 4, 2]
    shape = tf.shape(quads)
    return tf.reshape(quads, [shape[0], shape[1] * shape[2], 4, 2])


def cell_rects(mesh: GridMesh) -> tf.Tensor:
    """`[n, rows * cols, 4, 2]` int32: each cell's source rectangle's corners, in `cell_quads`'
    order."""
    x0, x1 = mesh.col_edges[:, tf.newaxis, :-1], mesh.col_edges[:, tf.newaxis, 1:]
    y0, y1 = mesh.row_edges[:, :-1, tf.newaxis], mesh.row_edges[:, 1:, tf.newaxis]
    x0, x1, y0, y1 = (tf.broadcast_to(t, tf.shape(x0 + y0)) for t in (x0, x1, y0, y1))
    rects = tf.stack([tf.stack(p, -1) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))], axis=3)
    shape = tf.shape(rects)
    return tf.reshape(rects, [shape[0], shape[1] * shape[2], 4, 2])


def _ceil_div(a: tf.Tensor, b: tf.Tensor) -> tf.Tensor:
    return -tf.math.floordiv(-a, b)


def _line_spans(x1, y1, x2, y2, height, width, rows: tf.Tensor) -> List[tf.Tensor]:
    """cv2.line's pixels (LINE_8, thickness 1) as one span per row: clipped by clipLine, walked
    from the left end; with M, m the major and minor extents, step i of the walk sits at minor
    offset ceil((2 m i - M) / 2 M) (OpenCV's error term, ties staying on the major axis). `rows`
    `[R]`: row offsets along the line."""
    x1, y1, x2, y2, visible = clip_line(x1, y1, x2, y2, height, width)
    swap = x2 < x1
    x1, y1, x2, y2 = (tf.where(swap, b, a) for a, b in ((x1, x2), (y1, y2), (x2, x1), (y2, y1)))
    dx, dy = x2 - x1, y2 - y1
    sy = tf.where(dy < 0, -tf.ones_like(dy), tf.ones_like(dy))
    ady = tf.abs(dy)
    steep = ady > dx
    big, small = tf.maximum(dx, ady), tf.minimum(dx, ady)
    x1, y1, sy, steep, big, small, visible = (t[..., tf.newaxis] for t in (x1, y1, sy, steep, big, small, visible))
    r = rows
    # Steep: row r holds step r alone.
    m = _ceil_div(2 * small * r - big, tf.maximum(2 * big, 1))
    steep_start = x1 + m
    # Shallow: row r holds the steps whose minor offset is r.
    safe_small = tf.maximum(small, 1)
    lo = tf.where(tf.equal(small, 0), tf.zeros_like(r), tf.math.floordiv((2 * r - 1) * big, 2 * safe_small) + 1)
    hi = tf.where(tf.equal(small, 0), big + 0 * r, tf.math.floordiv((2 * r + 1) * big, 2 * safe_small))
    lo, hi = tf.maximum(lo, 0), tf.minimum(hi, big)
    start = tf.where(steep, steep_start, x1 + lo)
    stop = tf.where(steep, steep_start + 1, x1 + hi + 1)
    valid = visible & (r <= tf.where(steep, big, small)) & (start < stop)
    row = y1 + sy * r
    return [tf.where(valid, row, -1), tf.where(valid, start, 0), tf.where(valid, stop, 0)]


def cell_owners(quads: tf.Tensor, height: Dim, width: Dim, span_rows: Dim) -> tf.Tensor:
    """`[n, height, width]` int32: the last cell (row-major) whose cv2.fillConvexPoly covers each
    pixel, -1 where none does. `quads` `[n, K, 4, 2]` int32; `span_rows` bounds the rows any
    quad or edge crosses."""
    q = tf.cast(quads, tf.int64)
    h, w = tf.cast(height, tf.int64), tf.cast(width, tf.int64)
    rows = tf.range(tf.cast(span_rows, tf.int64))
    parts = [convex_quad_spans(q, rows)]
    for e in range(4):  # OpenCV draws the edge from the last vertex to the first, then on in order
        a, b = q[:, :, (e + 3) % 4], q[:, :, e]
        parts.append(_line_spans(a[..., 0], a[..., 1], b[..., 0], b[..., 1], h, w, rows))
    n, k = tf.shape(quads)[0], tf.shape(quads)[1]
    # [n, K, 5, R] in cell order: every span of cell k before those of cell k + 1.
    fields = [tf.reshape(tf.stack([p[i] for p in parts], axis=2), [n, -1]) for i in range(3)]
    values = tf.reshape(tf.broadcast_to(tf.range(k)[tf.newaxis, :, tf.newaxis, tf.newaxis],
                                        [n, k, 5, tf.size(rows)]), [n, -1])
    return span_raster(*(tf.cast(f, tf.int32) for f in fields), values, height, width, combine="last", fill=-1)


def inverse_3x3(m: tf.Tensor) -> tf.Tensor:
    """`[..., 3, 3]` float64 inverses as cv2.invert computes them for 3x3 (DECOMP_LU): the
    adjugate times 1 / det."""
    s = [[m[..., i, j] for j in range(3)] for i in range(3)]
    det = (s[0][0] * (s[1][1] * s[2][2] - s[1][2] * s[2][1]) - s[0][1] * (s[1][0] * s[2][2] - s[1][2] * s[2][0])
           + s[0][2] * (s[1][0] * s[2][1] - s[1][1] * s[2][0]))
    d = 1.0 / det
    t = [(s[1][1] * s[2][2] - s[1][2] * s[2][1]), (s[0][2] * s[2][1] - s[0][1] * s[2][2]),
         (s[0][1] * s[1][2] - s[0][2] * s[1][1]), (s[1][2] * s[2][0] - s[1][0] * s[2][2]),
         (s[0][0] * s[2][2] - s[0][2] * s[2][0]), (s[0][2] * s[1][0] - s[0][0] * s[1][2]),
         (s[1][0] * s[2][1] - s[1][1] * s[2][0]), (s[0][1] * s[2][0] - s[0][0] * s[2][1]),
         (s[0][0] * s[1][1] - s[0][1] * s[1][0])]
    return tf.reshape(tf.stack([v * d for v in t], -1), tf.shape(m))


def cell_homographies(mesh: GridMesh) -> tf.Tensor:
    """`[n, K, 3, 3]` float64: each cell's source rectangle onto its moved quadrilateral, in
    closed form (the unit square onto the quadrilateral, after the rectangle onto the unit
    square), scaled to a last entry of 1 as cv2.getPerspectiveTransform returns it. (Its 8x8
    system with that entry fixed at 1 is singular when the true entry is 0, which whole-pixel
    moves can make exact: the closed form has no such case.)"""
    rect = tf.cast(cell_rects(mesh), tf.float64)
    q = tf.cast(cell_quads(mesh), tf.float64)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = ((q[..., i, 0], q[..., i, 1]) for i in range(4))
    sx, sy = x0 - x1 + x2 - x3, y0 - y1 + y2 - y3
    dx1, dx2, dy1, dy2 = x1 - x2, x3 - x2, y1 - y2, y3 - y2
    den = dx1 * dy2 - dx2 * dy1
    g, h = (sx * dy2 - dx2 * sy) / den, (dx1 * sy - sx * dy1) / den
    zero, one = tf.zeros_like(x0), tf.ones_like(x0)
    square = tf.stack([tf.stack([x1 - x0 + g * x1, x3 - x0 + h * x3, x0], -1),
                       tf.stack([y1 - y0 + g * y1, y3 - y0 + h * y3, y0], -1),
                       tf.stack([g, h, one], -1)], -2)
    left, top = rect[..., 0, 0], rect[..., 0, 1]
    width, height = rect[..., 2, 0] - left, rect[..., 2, 1] - top
    to_square = tf.stack([tf.stack([1.0 / width, zero, -left / width], -1),
                          tf.stack([zero, 1.0 / height, -top / height], -1),
                          tf.stack([zero, zero, one], -1)], -2)
    forward = tf.linalg.matmul(square, to_square)
    last = forward[..., 2:3, 2:3]
    scale = tf.where(tf.abs(last) > 1e-9 * tf.norm(forward, axis=[-2, -1], keepdims=True), last,
                     tf.ones_like(last))
    return forward / scale


def mesh_maps(mesh: GridMesh, height: Dim, width: Dim, span_rows: Dim) -> tf.Tensor:
    """`[n, height, width, 2]` float32 maps: each pixel through its owner cell's inverse
    homography (cv2.invert's adjugate over the determinant), computed by the CellMaps kernel op
    (CPU and GPU) in cv2.warpPerspective's arithmetic (OpenCV 5, bilinear): per row float(y m1 +
    m2), float(y m4 + m5), float(y m7 + m8) from the float64 matrix, then along the row the float32
    fma(m0, x, .) / fma(m6, x, .) and fma(m3, x, .) / fma(m6, x, .). NaN where no cell paints."""
    owner = cell_owners(cell_quads(mesh), height, width, span_rows)  # [n, H, W]
    return _loader.ops().tf_gpu_aug_cell_maps(owner, inverse_3x3(cell_homographies(mesh)))


class GridElasticDeform(_Distortion):
    """Albumentations' GridElasticDeform: per sample, the image cut into `num_grid_xy` = (cols,
    rows) cells (each axis into parts differing by at most a pixel, in a random order), every
    inner grid vertex moved by whole pixels uniform in [-magnitude, magnitude] per axis (the
    border fixed), and each cell's rectangle warped by its own homography onto the moved
    quadrilateral; where quadrilaterals overlap along shared edges the later cell (row-major)
    wins, as in Albumentations' painting order. Samples outside the image read 0. Masks follow
    with nearest sampling, boxes become the extent of the output pixels that sample them, a
    keypoint moves to the output position whose map value it is (dropped if none is).
    Inference leaves everything alone.

    Cells must be taller than 2 * magnitude (image height // rows > 2 * magnitude), so each
    quadrilateral's sides run downwards as cv2.fillConvexPoly's scanline needs; a smaller grid
    cell is refused. A cell at most 2 * magnitude wide can fold flat (three corners in a line):
    it has no homography and its pixels read 0. Albumentations 2.0.8 splits the height into
    num_grid_xy[0] parts (and the width into num_grid_xy[1]) and then reads the tiles as (rows,
    cols): the same grid for square grids; for others it follows its documented meaning here,
    (cols, rows).

    Args:
      num_grid_xy: (cols, rows), each at least 1.
      magnitude: the largest vertex move, whole pixels (> 0).
      interpolation: "bilinear" or "nearest".
      probability: probability that a sample is deformed.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> tga.GridElasticDeform(num_grid_xy=(4, 4), magnitude=10)
    """

    def __init__(self, num_grid_xy: Union[Sequence[int], Tuple[int, int]], magnitude: int,
                 interpolation: str = "bilinear", probability: float = 1.0, seed: Optional[int] = None):
        super().__init__(probability, interpolation, "constant", 0.0, 0.0, seed)
        grid = tuple(num_grid_xy)
        if len(grid) != 2 or not all(isinstance(g, int) and g >= 1 for g in grid):
            raise ValueError(f"num_grid_xy must be two whole numbers >= 1 (cols, rows), got {num_grid_xy!r}")
        if not isinstance(magnitude, int) or isinstance(magnitude, bool) or not 0 < magnitude < 2 ** 15:
            raise ValueError(f"magnitude must be a whole number of pixels in [1, 32767], got {magnitude!r}")
        self.num_grid_xy, self.magnitude = (int(grid[0]), int(grid[1])), int(magnitude)

    def _check_height(self, height: Optional[int]) -> None:
        """Refuses cells at most 2 * magnitude tall when the height is known while the graph is
        built; warns that it cannot when it is not."""
        rows = self.num_grid_xy[1]
        if height is None:
            warnings.warn(f"GridElasticDeform: the image height is unknown while the graph is built, so cells at "
                          f"most 2 * magnitude = {2 * self.magnitude} pixels tall cannot be refused; where such a "
                          "cell folds, its pixels follow the two crossing edges of each row, not OpenCV's walk. "
                          "Resize to a fixed size first to have it checked.", stacklevel=3)
        elif height // rows <= 2 * self.magnitude:
            raise ValueError(f"GridElasticDeform: cells {height} // {rows} = {height // rows} pixels tall, need more "
                             f"than 2 * magnitude = {2 * self.magnitude}: use fewer rows or a smaller magnitude")

    def _distort(self, images: tf.Tensor, targets: Optional[tg.Targets], applied: tf.Tensor,
                 seed: tf.Tensor) -> TransformOutput:
        self._check_height(images.shape[1])
        return super()._distort(images, targets, applied, seed)

    def _mesh(self, n: Dim, height: Dim, width: Dim, seed: tf.Tensor, applied: Optional[tf.Tensor]) -> GridMesh:
        return grid_mesh(n, height, width, self.num_grid_xy, self.magnitude, seed, applied)

    def _span_rows(self, height: Dim) -> Dim:
        return -(-height // self.num_grid_xy[1]) + 2 * self.magnitude + 1

    def maps(self, n: Dim, height: Dim, width: Dim, seed: tf.Tensor,
             applied: Optional[tf.Tensor] = None) -> tf.Tensor:
        maps = mesh_maps(self._mesh(n, height, width, seed, applied), height, width, self._span_rows(height))
        if applied is None:
            return maps
        return tf.where(applied[:, tf.newaxis, tf.newaxis, tf.newaxis], maps, identity_maps(n, height, width))

    def get_config(self) -> dict:
        return dict(num_grid_xy=self.num_grid_xy, magnitude=self.magnitude, interpolation=self.interpolation,
                    probability=self.probability, seed=self.seed)
