"""Albumentations' RandomGridShuffle: the image cut into a grid of tiles (each axis into parts
whose sizes differ by at most one pixel, the parts' order shuffled per axis), and the tiles
shuffled among those of the same shape. Per sample, in the graph: the plan (`grid_shuffle_plan`)
gives the tiles' edges and where each tile goes; images and masks move through the TileShuffle
kernel (CPU and GPU: every byte copied as it is); keypoints move with their tile.

Boxes: a box is cut along the tiles it crosses and each piece moves with its tile, one box per
piece (its fields repeated), filtered by the box filter (`min_area`; `min_visibility` as the
piece's share of the box). Albumentations cuts the same pieces from the box's pixel mask and
merges the ones that land next to each other (connected components); here they stay separate
boxes, with their fractional edges kept.
"""
from __future__ import annotations

from typing import NamedTuple, Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug import _loader
from tfgpuaug.distortions import Dim, _Distortion
from tfgpuaug.transforms import TransformOutput


class GridShufflePlan(NamedTuple):
    """Per sample: `row_starts` `[n, rows + 1]` and `col_starts` `[n, cols + 1]` int32, the
    tiles' edges (Albumentations' shuffled splits); `mapping` `[n, rows * cols]` int32: tile t
    (row-major, t = row * cols + col) moves to where tile `mapping[t]` was."""
    row_starts: tf.Tensor
    col_starts: tf.Tensor
    mapping: tf.Tensor


def shuffled_starts(n: Dim, size: Dim, parts: int, seed: tf.Tensor, applied: Optional[tf.Tensor]) -> tf.Tensor:
    """Albumentations' almost_equal_intervals(size, parts) (the first size % parts one longer), in
    a random order per sample, as cumulative edges `[n, parts + 1]`."""
    size = tf.cast(size, tf.int32)
    intervals = size // parts + tf.cast(tf.range(parts) < size % parts, tf.int32)
    order = tf.argsort(tf.random.stateless_uniform([n, parts], seed), axis=1)
    if applied is not None:
        order = tf.where(applied[:, tf.newaxis], order, tf.range(parts)[tf.newaxis])
    lengths = tf.gather(intervals, order)
    return tf.concat([tf.zeros([n, 1], tf.int32), tf.cumsum(lengths, axis=1)], axis=1)


def grid_shuffle_plan(n: Dim, height: Dim, width: Dim, grid: Tuple[int, int], seed: tf.Tensor,
                      applied: Optional[tf.Tensor] = None) -> GridShufflePlan:
    """The tiles and their shuffle for `n` images of `height` x `width`: each axis's parts in a
    uniformly random order, then a uniformly random permutation within each group of tiles of
    one shape (Albumentations' shape groups). Samples where `applied` `[n]` is False keep every
    tile where it is."""
    rows, cols = grid
    s_rows, s_cols, s_tiles = tf.unstack(tf.random.experimental.stateless_split(seed, 3))
    row_starts = shuffled_starts(n, height, rows, s_rows, applied)
    col_starts = shuffled_starts(n, width, cols, s_cols, applied)
    tiles = rows * cols
    tile_h = tf.repeat(row_starts[:, 1:] - row_starts[:, :-1], cols, axis=1)  # [n, tiles], row-major
    tile_w = tf.tile(col_starts[:, 1:] - col_starts[:, :-1], [1, rows])
    # tf.equal, not ==: a graph built outside tf.function compares tensors by identity with ==
    same = (tf.equal(tile_h[:, :, tf.newaxis], tile_h[:, tf.newaxis, :]) &
            tf.equal(tile_w[:, :, tf.newaxis], tile_w[:, tf.newaxis, :]))  # [n, t, other]
    index = tf.range(tiles)
    before = index[tf.newaxis, tf.newaxis, :] < index[tf.newaxis, :, tf.newaxis]
    keys = tf.random.stateless_uniform([n, tiles], s_tiles)
    lower = ((keys[:, tf.newaxis, :] < keys[:, :, tf.newaxis]) |
             (tf.equal(keys[:, tf.newaxis, :], keys[:, :, tf.newaxis]) & before))
    # tile t takes the place of the tile of its group whose random rank is t's rank by index
    rank_by_index = tf.reduce_sum(tf.cast(same & before, tf.int32), axis=2)
    rank_by_key = tf.reduce_sum(tf.cast(same & lower, tf.int32), axis=2)
    match = same & tf.equal(rank_by_key[:, tf.newaxis, :], rank_by_index[:, :, tf.newaxis])
    mapping = tf.argmax(tf.cast(match, tf.float32), axis=2, output_type=tf.int32)  # float: ArgMax has GPU kernels
    if applied is not None:
        mapping = tf.where(applied[:, tf.newaxis], mapping, index[tf.newaxis])
    return GridShufflePlan(row_starts, col_starts, mapping)


def _sources(plan: GridShufflePlan) -> tf.Tensor:
    """`[n, tiles]`: the source tile of each destination tile (the mapping's inverse)."""
    return tf.argsort(plan.mapping, axis=1)


def tile_shuffle(images: tf.Tensor, plan: GridShufflePlan, sources: Optional[tf.Tensor] = None) -> tf.Tensor:
    """uint8 `images` `[B, H, W, C]` with their tiles moved by `plan` (the TileShuffle kernel,
    CPU and GPU: whole rows of each tile copied, bytes as they are); `sources`: `_sources(plan)`
    when the caller already has it."""
    sources = _sources(plan) if sources is None else sources
    return _loader.ops().tf_gpu_aug_tile_shuffle(images, plan.row_starts, plan.col_starts, sources)


def _band(starts: tf.Tensor, positions: tf.Tensor) -> tf.Tensor:
    """The part (0 ..) of each of `positions` `[n, m]` along an axis with edges `starts` `[n, parts + 1]`."""
    inner = starts[:, 1:-1]
    return tf.reduce_sum(tf.cast(positions[:, :, tf.newaxis] >= tf.cast(inner[:, tf.newaxis, :], positions.dtype),
                                 tf.int32), axis=2)


def _tile_shifts(plan: GridShufflePlan, cols: int) -> Tuple[tf.Tensor, tf.Tensor]:
    """Per sample and source tile, how far its pixels move: (dx, dy) `[n, tiles]` int32."""
    tile = tf.range(tf.shape(plan.mapping)[1])
    source_row, source_col = tile // cols, tile % cols
    dest_row, dest_col = plan.mapping // cols, plan.mapping % cols
    dx = tf.gather(plan.col_starts, dest_col, batch_dims=1) - tf.gather(plan.col_starts, source_col, axis=1)
    dy = tf.gather(plan.row_starts, dest_row, batch_dims=1) - tf.gather(plan.row_starts, source_row, axis=1)
    return dx, dy


def grid_shuffle_maps(plan: GridShufflePlan, height: Dim, width: Dim, cols: int) -> tf.Tensor:
    """`[n, height, width, 2]` remap maps of the plan: each output pixel reads the pixel of the
    tile that moved there, at the same place in the tile (whole pixels)."""
    n = tf.shape(plan.mapping)[0]
    dx, dy = _tile_shifts(plan, cols)
    inverse = _sources(plan)
    back_x = tf.cast(-tf.gather(dx, inverse, batch_dims=1), tf.float32)
    back_y = tf.cast(-tf.gather(dy, inverse, batch_dims=1), tf.float32)
    x = tf.range(tf.cast(width, tf.float32))
    y = tf.range(tf.cast(height, tf.float32))
    col = _band(plan.col_starts, tf.tile(x[tf.newaxis], [n, 1]))  # [n, w]
    row = _band(plan.row_starts, tf.tile(y[tf.newaxis], [n, 1]))  # [n, h]
    tile = row[:, :, tf.newaxis] * cols + col[:, tf.newaxis, :]  # [n, h, w] destination tiles
    map_x = x[tf.newaxis, tf.newaxis, :] + tf.gather(back_x, tile, batch_dims=1)
    map_y = y[tf.newaxis, :, tf.newaxis] + tf.gather(back_y, tile, batch_dims=1)
    return tf.stack([map_x, map_y], axis=-1)


def _move_keypoints(points: tf.RaggedTensor, plan: GridShufflePlan, shifts, cols: int,
                    hw: tf.Tensor) -> tf.RaggedTensor:
    """Each keypoint by its tile's shift (Albumentations' swap_tiles_on_keypoints); keypoints
    outside the image stay where they are."""
    rows_of = points.value_rowids()
    xy = points.flat_values
    x, y = xy[:, 0], xy[:, 1]
    col = _band(tf.gather(plan.col_starts, rows_of), x[:, tf.newaxis])[:, 0]
    row = _band(tf.gather(plan.row_starts, rows_of), y[:, tf.newaxis])[:, 0]
    tile = tf.stack([rows_of, tf.cast(row * cols + col, rows_of.dtype)], axis=1)
    dx, dy = (tf.cast(tf.gather_nd(s, tile), tf.float32) for s in shifts)
    hw = tf.cast(hw, tf.float32)
    inside = (x >= 0) & (y >= 0) & (x < hw[1]) & (y < hw[0])
    moved = tf.stack([x + tf.where(inside, dx, 0.0), y + tf.where(inside, dy, 0.0)], axis=1)
    return points.with_flat_values(moved)


def _move_boxes(targets: tg.Targets, plan: GridShufflePlan, shifts, cols: int) -> tg.Targets:
    """Each box cut along the tiles, every piece moved with its tile as a box of its own (the
    box's fields repeated), then filtered: `min_area` pixels and `min_visibility` of the box."""
    boxes = targets.boxes
    flat = tf.cast(boxes.flat_values, tf.float32)
    owner = boxes.value_rowids()
    tiles = tf.shape(plan.mapping)[1]
    r0 = tf.cast(tf.gather(plan.row_starts[:, :-1], owner), tf.float32)  # [m, rows]
    r1 = tf.cast(tf.gather(plan.row_starts[:, 1:], owner), tf.float32)
    c0 = tf.cast(tf.gather(plan.col_starts[:, :-1], owner), tf.float32)  # [m, cols]
    c1 = tf.cast(tf.gather(plan.col_starts[:, 1:], owner), tf.float32)
    t = tf.range(tiles)
    tr, tc = t // cols, t % cols
    x0 = tf.maximum(flat[:, 0:1], tf.gather(c0, tc, axis=1))  # [m, tiles]: the piece in tile t
    x1 = tf.minimum(flat[:, 2:3], tf.gather(c1, tc, axis=1))
    y0 = tf.maximum(flat[:, 1:2], tf.gather(r0, tr, axis=1))
    y1 = tf.minimum(flat[:, 3:4], tf.gather(r1, tr, axis=1))
    dx = tf.cast(tf.gather(shifts[0], owner), tf.float32)
    dy = tf.cast(tf.gather(shifts[1], owner), tf.float32)
    pieces = tf.reshape(tf.stack([x0 + dx, y0 + dy, x1 + dx, y1 + dy], axis=-1), [-1, 4])
    area = tf.reshape(tf.maximum(x1 - x0, 0.0) * tf.maximum(y1 - y0, 0.0), [-1])
    whole = tf.repeat((flat[:, 2] - flat[:, 0]) * (flat[:, 3] - flat[:, 1]), tiles)
    f = targets.box_filter
    keep = (area > 0.0) & (area > f.min_area) & (area >= f.min_visibility * whole)
    splits = boxes.row_splits * tf.cast(tiles, boxes.row_splits.dtype)
    repeat = tf.repeat(tf.range(tf.shape(flat)[0]), tiles)
    fields = {k: tf.RaggedTensor.from_row_splits(tf.gather(v.values, repeat), splits, validate=False)
              for k, v in targets.box_fields.items()}
    cut = targets.replace(boxes=tf.RaggedTensor.from_row_splits(pieces, splits, validate=False), box_fields=fields)
    return cut.keep_boxes(tf.RaggedTensor.from_row_splits(keep, splits, validate=False))


class RandomGridShuffle(_Distortion):
    """Albumentations' RandomGridShuffle: per sample, the image cut into `grid` (rows, columns)
    tiles (each axis into parts whose sizes differ by at most one pixel, in a random order), and
    the tiles shuffled among those of the same shape. Pixels are copied as they are; masks
    follow, keypoints move with their tile; a box is cut along the tiles into one box per piece
    (Albumentations merges pieces that land next to each other). Inference leaves everything
    alone.

    Args:
      grid: (rows, columns), each 1 .. 64.
      probability: probability that a sample is shuffled.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.

    Example:
      >>> tga.RandomGridShuffle(grid=(3, 3), probability=0.5)
    """

    def __init__(self, grid: Union[Sequence[int], Tuple[int, int]] = (3, 3), probability: float = 0.5,
                 seed: Optional[int] = None):
        super().__init__(probability, "nearest", "constant", 0.0, 0.0, seed)
        grid = tuple(grid)
        if len(grid) != 2 or not all(isinstance(g, int) and 1 <= g <= 64 for g in grid):
            raise ValueError(f"grid must be (rows, columns), each an int in 1 .. 64, got {grid!r}")
        self.grid = grid

    def plan(self, n: Dim, height: Dim, width: Dim, seed: tf.Tensor,
             applied: Optional[tf.Tensor] = None) -> GridShufflePlan:
        return grid_shuffle_plan(n, height, width, self.grid, seed, applied)

    def maps(self, n: Dim, height: Dim, width: Dim, seed: tf.Tensor,
             applied: Optional[tf.Tensor] = None) -> tf.Tensor:
        return grid_shuffle_maps(self.plan(n, height, width, seed, applied), height, width, self.grid[1])

    def _distort(self, images: tf.Tensor, targets: Optional[tg.Targets], applied: tf.Tensor,
                 seed: tf.Tensor) -> TransformOutput:
        shape = tf.shape(images)
        plan = self.plan(shape[0], shape[1], shape[2], seed, None if self.probability >= 1.0 else applied)
        sources = _sources(plan)  # once for the images and the masks
        out = tile_shuffle(images, plan, sources)
        if targets is None or not targets.moves:
            return out, targets
        if targets.masks is not None:
            masks = tf.convert_to_tensor(targets.masks)
            if masks.dtype != tf.uint8:
                raise ValueError(f"RandomGridShuffle moves uint8 masks, got {masks.dtype.name}")
            targets = targets.replace(masks=tile_shuffle(masks, plan, sources))
        shifts = _tile_shifts(plan, self.grid[1])
        if targets.keypoints is not None:
            targets = targets.replace(keypoints=_move_keypoints(targets.keypoints, plan, shifts, self.grid[1],
                                                                shape[1:3]))
        if targets.boxes is not None:
            targets = _move_boxes(targets, plan, shifts, self.grid[1])
        return out, targets

    def get_config(self) -> dict:
        return dict(grid=self.grid, probability=self.probability, seed=self.seed)
