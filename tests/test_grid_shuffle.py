"""RandomGridShuffle against a numpy restatement of Albumentations 2.0.8's swap_tiles_on_image and
swap_tiles_on_keypoints, given the tiles and mapping our plan drew: images and masks bit for bit,
keypoints exactly; the plan's own rules (Albumentations' parts, shuffles within shape groups,
every order reachable); boxes cut into pieces along the tiles."""
import itertools

import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import grid_shuffle as gs
from tfgpuaug import targets as tg
from tfgpuaug.geometry import _seed_tensor


def albumentations_tiles(row_starts, col_starts):
    """split_uniform_grid's tiles (start_y, start_x, end_y, end_x), row-major, from the edges."""
    return np.array([(row_starts[i], col_starts[j], row_starts[i + 1], col_starts[j + 1])
                     for i in range(len(row_starts) - 1) for j in range(len(col_starts) - 1)])


def swap_tiles_on_image(image, tiles, mapping):
    new_image = np.empty_like(image)
    for num, new_index in enumerate(mapping):
        sy, sx, ey, ex = tiles[new_index]
        oy, ox, oey, oex = tiles[num]
        new_image[sy:ey, sx:ex] = image[oy:oey, ox:oex]
    return new_image


def swap_tiles_on_keypoints(keypoints, tiles, mapping):
    x, y = keypoints[:, :1], keypoints[:, 1:]
    sy, sx, ey, ex = tiles.T
    inside = (y >= sy) & (y < ey) & (x >= sx) & (x < ex)
    idx = np.argmax(inside, axis=1)
    new_idx = np.asarray(mapping)[idx]
    out = keypoints.copy()
    out[:, 0] = keypoints[:, 0] - tiles[idx, 1] + tiles[new_idx, 1]
    out[:, 1] = keypoints[:, 1] - tiles[idx, 0] + tiles[new_idx, 0]
    out[~inside.any(axis=1)] = keypoints[~inside.any(axis=1)]
    return out


def plan_of(t, n, h, w, seed):
    """The plan `t.apply(..., seed)` draws (its seed split as _Distortion.apply splits it)."""
    s_maps = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), 2))[0]
    return [v.numpy() for v in t.plan(n, h, w, s_maps)]


def almost_equal_intervals(n, parts):
    size, remainder = divmod(n, parts)
    return [size + 1 if i < remainder else size for i in range(parts)]


@pytest.mark.parametrize("h,w,grid", [(7, 10, (2, 3)), (29, 31, (3, 3)), (16, 16, (4, 4)), (9, 5, (1, 5))])
def test_images_masks_and_keypoints_move_as_albumentations_moves_them(h, w, grid):
    n = 6
    rng = np.random.default_rng(3)
    images = rng.integers(0, 256, (n, h, w, 3), np.uint8)
    masks = rng.integers(0, 5, (n, h, w, 1), np.uint8)
    points = rng.uniform(-1, [w + 1, h + 1], (n, 5, 2)).astype(np.float32)
    seed = tf.constant([5, 9])
    t = tga.RandomGridShuffle(grid, probability=1.0)
    plan = plan_of(t, n, h, w, seed)
    targets = tg.Targets(masks=tf.constant(masks), keypoints=tf.RaggedTensor.from_tensor(points))
    out, moved = t.apply(tf.constant(images), targets, seed)
    for b in range(n):
        tiles = albumentations_tiles(plan[0][b], plan[1][b])
        np.testing.assert_array_equal(out[b].numpy(), swap_tiles_on_image(images[b], tiles, plan[2][b]))
        np.testing.assert_array_equal(moved.masks[b].numpy(), swap_tiles_on_image(masks[b], tiles, plan[2][b]))
        np.testing.assert_array_equal(moved.keypoints[b].numpy(), swap_tiles_on_keypoints(points[b], tiles,
                                                                                          plan[2][b]))


def test_the_plan_follows_albumentations_rules_and_reaches_every_order():
    """Each axis's parts are almost_equal_intervals in some order; tiles go only to places of
    their own shape, one each; over 3000 samples of a 2 x 2 grid of equal tiles all 24
    permutations turn up, each between 0.5 and 1.5 times its expected count (125)."""
    n, h, w = 3000, 10, 7
    plan = [v.numpy() for v in gs.grid_shuffle_plan(n, h, w, (2, 3), tf.constant([1, 2]))]
    for b in range(0, n, 97):
        rows, cols, mapping = plan[0][b], plan[1][b], plan[2][b]
        assert sorted(np.diff(rows)) == sorted(almost_equal_intervals(h, 2))
        assert sorted(np.diff(cols)) == sorted(almost_equal_intervals(w, 3))
        assert sorted(mapping) == list(range(6))
        tiles = albumentations_tiles(rows, cols)
        shapes = tiles[:, 2:] - tiles[:, :2]
        assert all((shapes[t] == shapes[mapping[t]]).all() for t in range(6))
    square = gs.grid_shuffle_plan(n, 8, 8, (2, 2), tf.constant([3, 4])).mapping.numpy()
    counts = {p: 0 for p in itertools.permutations(range(4))}
    for m in square:
        counts[tuple(m)] += 1
    assert all(62 < c < 188 for c in counts.values()), counts


def test_samples_left_alone_and_inference_keep_the_image():
    images = tf.constant(np.random.default_rng(1).integers(0, 256, (40, 12, 12, 3), np.uint8))
    out = tga.RandomGridShuffle((3, 3), probability=0.5)(images, seed=tf.constant([2, 3]))
    same = [np.array_equal(a, b) for a, b in zip(out.numpy(), images.numpy())]
    assert 8 < sum(same) < 32  # about half kept (a shuffle that lands on the identity is rare here)
    np.testing.assert_array_equal(tga.RandomGridShuffle(probability=1.0)(images, training=False), images)


def test_boxes_are_cut_along_the_tiles_and_the_pieces_move_with_them():
    """A box inside one tile moves by that tile's shift, fractions kept; a box across tiles
    becomes one box per piece (its label repeated), each piece the box clipped to a tile and
    moved with it; min_visibility drops the small pieces."""
    h, w = 12, 12
    t = tga.RandomGridShuffle((2, 2), probability=1.0)
    seed = tf.constant([7, 1])
    plan = [v[0] for v in plan_of(t, 1, h, w, seed)]
    tiles = albumentations_tiles(plan[0], plan[1])
    boxes = np.array([[1.25, 2.5, 4.75, 5.0], [3.0, 4.0, 9.0, 8.0]], np.float32)
    for min_visibility in (0.0, 0.3):
        targets = tg.Targets(boxes=tf.RaggedTensor.from_tensor(boxes[None]),
                             box_fields={"labels": tf.ragged.constant([[1, 2]])},
                             box_filter=tg.BoxFilter(min_visibility=min_visibility))
        _, moved = t.apply(tf.zeros([1, h, w, 3], tf.uint8), targets, seed)
        expected, labels = [], []
        for label, box in zip((1, 2), boxes):
            area = (box[2] - box[0]) * (box[3] - box[1])
            for num, (sy, sx, ey, ex) in enumerate(tiles):
                x0, y0, x1, y1 = max(box[0], sx), max(box[1], sy), min(box[2], ex), min(box[3], ey)
                if x1 <= x0 or y1 <= y0 or (x1 - x0) * (y1 - y0) < min_visibility * area:
                    continue
                ny, nx = tiles[plan[2][num]][:2]
                expected.append([x0 - sx + nx, y0 - sy + ny, x1 - sx + nx, y1 - sy + ny])
                labels.append(label)
        np.testing.assert_allclose(moved.boxes[0].numpy(), np.array(expected, np.float32).reshape(-1, 4))
        assert moved.box_fields["labels"][0].numpy().tolist() == labels
    assert len(expected) < 5  # the 0.3 share dropped a piece of the second box


def test_refusals():
    with pytest.raises(ValueError, match="grid must be"):
        tga.RandomGridShuffle((0, 3))
    with pytest.raises(ValueError, match="grid must be"):
        tga.RandomGridShuffle((3,))
    with pytest.raises(ValueError, match="uint8"):
        tga.RandomGridShuffle()(tf.zeros([1, 4, 4, 3]))


def test_albumentations_shuffles_the_same_way_where_installed():
    """Albumentations 2.0.8's own function, given our tiles and mapping, moves the pixels as we do."""
    fgeometric = pytest.importorskip("albumentations.augmentations.geometric.functional")
    images = np.random.default_rng(4).integers(0, 256, (4, 13, 17, 3), np.uint8)
    t = tga.RandomGridShuffle((3, 4), probability=1.0)
    seed = tf.constant([8, 8])
    plan = plan_of(t, 4, 13, 17, seed)
    out = t(tf.constant(images), seed=seed).numpy()
    for b in range(4):
        tiles = albumentations_tiles(plan[0][b], plan[1][b])
        np.testing.assert_array_equal(out[b], fgeometric.swap_tiles_on_image(images[b], tiles, list(plan[2][b])))


def test_the_kernel_refuses_a_plan_that_is_not_one():
    """TileShuffle checks every plan before it copies a byte: edges from 0 to the size, a
    permutation of the tiles, each tile filled from one of its own shape."""
    ops = gs._loader.ops()
    images = tf.zeros([1, 6, 6, 1], tf.uint8)
    rows, cols = tf.constant([[0, 3, 6]]), tf.constant([[0, 2, 6]])
    for bad_rows, bad_cols, sources, match in (
            ([[0, 3, 7]], cols, [[0, 1, 2, 3]], "row edges must run from 0"),
            (rows, [[0, 7, 6]], [[0, 1, 2, 3]], "column edges must not decrease"),
            (rows, cols, [[0, 0, 2, 3]], "permutation"),
            (rows, cols, [[1, 0, 2, 3]], "its own shape")):
        with pytest.raises(tf.errors.InvalidArgumentError, match=match):
            ops.tf_gpu_aug_tile_shuffle(images, tf.constant(bad_rows), tf.constant(bad_cols), tf.constant(sources))
    with pytest.raises((tf.errors.InvalidArgumentError, ValueError), match="rows \\* cols|Dimension"):
        ops.tf_gpu_aug_tile_shuffle(images, rows, cols, tf.constant([[0, 1, 2]]))
    swapped = ops.tf_gpu_aug_tile_shuffle(tf.constant(np.arange(36, dtype=np.uint8).reshape(1, 6, 6, 1)),
                                          tf.constant([[0, 3, 6]]), tf.constant([[0, 3, 6]]),
                                          tf.constant([[3, 1, 2, 0]])).numpy()[0, :, :, 0]
    grid = np.arange(36).reshape(6, 6)
    np.testing.assert_array_equal(swapped[:3, :3], grid[3:, 3:])
    np.testing.assert_array_equal(swapped[3:, 3:], grid[:3, :3])
    np.testing.assert_array_equal(swapped[:3, 3:], grid[:3, 3:])


def test_maps_state_the_same_move_for_remap():
    """`maps()` (the distortions' common API) describes the move the kernel makes: remapping
    through them (nearest) gives the kernel's bytes."""
    images = tf.constant(np.random.default_rng(6).integers(0, 256, (5, 23, 19, 3), np.uint8))
    t = tga.RandomGridShuffle((3, 4), probability=1.0)
    seed = tf.constant([3, 1], tf.int64)
    plan = t.plan(5, 23, 19, seed)
    via_maps = tga.remap(images, t.maps(5, 23, 19, seed), interpolation="nearest")
    np.testing.assert_array_equal(via_maps, gs.tile_shuffle(images, plan))
    assert not np.array_equal(via_maps, images)
