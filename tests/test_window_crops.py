"""RandomCropFromBorders and RandomCropNearBBox (issue 36; Albumentations' transforms of those
names, the window resized to `size`). Two keypoints at the image's corners (0, 0) and (W, H)
tell each output's window exactly (keypoints are mapped, never dropped); every window is checked
against Albumentations' integer rules, the rules' extremes must all occur, the pixels must equal
a numpy bilinear resampling of the window (one level), boxes must move by the window's map, and, where
Albumentations is installed, its own windows' statistics must match ours."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import targets as tg

H, W = 60, 80


def smooth_images(n, h=H, w=W, seed=0):
    rng = np.random.default_rng(seed)
    coarse = rng.uniform(0, 255, (n, h // 4 + 1, w // 4 + 1, 3)).astype(np.float32)
    return tf.cast(tf.round(tf.image.resize(coarse, (h, w))), tf.uint8).numpy()


def corner_keypoints(n, h=H, w=W):
    return tf.RaggedTensor.from_row_lengths(np.tile([[0.0, 0.0], [w, h]], (n, 1)).astype(np.float32), [2] * n)


def windows_of(moved: tg.Targets, size):
    """[B, 4] integer windows (y1, x1, y2, x2) read back from the two corner keypoints."""
    kp = moved.keypoints.to_tensor().numpy()  # [B, 2, 2] xy
    scale = (kp[:, 1] - kp[:, 0]) / np.array([W, H], np.float32)  # output px per input px
    first = -kp[:, 0] / scale
    last = first + np.array([size[1], size[0]]) / scale
    xyxy = np.concatenate([first, last], axis=1)
    rounded = np.round(xyxy)
    np.testing.assert_allclose(xyxy, rounded, atol=2e-3)  # integer windows
    return rounded[:, [1, 0, 3, 2]].astype(int)


def run(t, images, targets, seed):
    out, moved = t.apply(tf.constant(images), targets, seed=tf.constant([seed, 7]))
    return out.numpy(), moved


def bilinear_window(image, window, size):
    """numpy: `image` sampled bilinearly at the half-pixel centres of `window` (y1, x1, y2, x2)
    resized to `size`, reading beyond the window where a tap falls there (the project's crop
    semantics, docs/architecture.md) and clamping at the image's edge (as tf.image)."""
    y1, x1, y2, x2 = window
    ys = np.clip(y1 + (np.arange(size[0]) + 0.5) * (y2 - y1) / size[0] - 0.5, 0, image.shape[0] - 1)
    xs = np.clip(x1 + (np.arange(size[1]) + 0.5) * (x2 - x1) / size[1] - 0.5, 0, image.shape[1] - 1)
    y0, x0 = np.floor(ys).astype(int), np.floor(xs).astype(int)
    yb, xb = np.minimum(y0 + 1, image.shape[0] - 1), np.minimum(x0 + 1, image.shape[1] - 1)
    fy, fx = (ys - y0)[:, None, None], (xs - x0)[None, :, None]
    img = image.astype(np.float64)
    top = img[y0][:, x0] * (1 - fx) + img[y0][:, xb] * fx
    bottom = img[yb][:, x0] * (1 - fx) + img[yb][:, xb] * fx
    return top * (1 - fy) + bottom * fy


def assert_pixels_are_resized_windows(images, out, windows, size):
    """Each output within one level of the numpy bilinear resampling of its window."""
    for i, window in enumerate(windows):
        diff = np.abs(out[i].astype(np.float64) - bilinear_window(images[i], window, size))
        assert diff.max() <= 1.0, (i, window, diff.max())


def border_windows(t, n, seeds):
    images = smooth_images(n)
    got = []
    for seed in seeds:
        out, moved = run(t, images, tg.Targets(keypoints=corner_keypoints(n)), seed)
        windows = windows_of(moved, t.size)
        if seed == seeds[0]:
            assert_pixels_are_resized_windows(images, out, windows, t.size)
        got.append(windows)
    return np.concatenate(got)


def test_crop_from_borders_follows_albumentations_integer_rule():
    left_f, right_f, top_f, bottom_f = 0.15, 0.1, 0.2, 0.05
    size = (30, 40)
    t = tga.RandomCropFromBorders(size, crop_left=left_f, crop_right=right_f, crop_top=top_f, crop_bottom=bottom_f)
    win = border_windows(t, 64, range(8))
    y1, x1, y2, x2 = win.T
    for first, last, extent, before, after in ((x1, x2, W, left_f, right_f), (y1, y2, H, top_f, bottom_f)):
        top_first = int(before * extent)
        assert first.min() == 0 and first.max() == top_first
        low_last = np.maximum(first + 1, int((1 - after) * extent))
        assert (last >= low_last).all() and (last <= extent).all()
        assert (last == low_last).any() and (last == extent).any()
        # uniform first side: each of the top_first + 1 values about equally often (5 sigma)
        counts = np.bincount(first, minlength=top_first + 1)
        expect = len(first) / (top_first + 1)
        assert np.abs(counts - expect).max() < 5 * np.sqrt(expect), counts


def test_crop_from_borders_moves_boxes_and_masks_and_keeps_the_whole_image_in_inference():
    n, size = 4, (30, 40)
    images = smooth_images(n)
    masks = np.zeros((n, H, W, 1), np.uint8)
    masks[:, 20:40, 30:50] = 5
    boxes = tf.RaggedTensor.from_row_lengths(np.tile([[30.0, 20.0, 50.0, 40.0]], (n, 1)).astype(np.float32), [1] * n)
    t = tga.RandomCropFromBorders(size, 0.3, 0.3, 0.3, 0.3)
    out, moved = run(t, images, tg.Targets(boxes=boxes, masks=tf.constant(masks), keypoints=corner_keypoints(n)), 3)
    windows = windows_of(moved, size)
    for i, (y1, x1, y2, x2) in enumerate(windows):
        sy, sx = size[0] / (y2 - y1), size[1] / (x2 - x1)
        want = np.clip([(30 - x1) * sx, (20 - y1) * sy, (50 - x1) * sx, (40 - y1) * sy], 0, [40, 30, 40, 30])
        np.testing.assert_allclose(moved.boxes[i].numpy()[0], want, atol=1e-3)
        m = moved.masks[i].numpy()[..., 0]
        ys, xs = np.nonzero(m == 5)
        # the nearest-resized rectangle sits where the box went (a pixel of rounding each side)
        assert abs(ys.min() - want[1]) <= 1 and abs(ys.max() + 1 - want[3]) <= 1
        assert abs(xs.min() - want[0]) <= 1 and abs(xs.max() + 1 - want[2]) <= 1
    out, moved = t.apply(tf.constant(images), tg.Targets(keypoints=corner_keypoints(n)), training=False)
    np.testing.assert_array_equal(windows_of(moved, size), [[0, 0, H, W]] * n)


def near_box_windows(t, images, boxes, seeds):
    n = len(images)
    got = []
    for seed in seeds:
        out, moved = run(t, images, tg.Targets(boxes=boxes, keypoints=corner_keypoints(n)), seed)
        windows = windows_of(moved, t.size)
        if seed == seeds[0]:
            assert_pixels_are_resized_windows(images, out, windows, t.size)
        got.append(windows)
    return np.stack(got)  # [seeds, B, 4]


def box_rows(rows):
    flat = [np.asarray(r, np.float32).reshape(-1, 4) for r in rows]
    return tf.RaggedTensor.from_row_lengths(np.concatenate(flat), [len(r) for r in flat])


def test_crop_near_bbox_follows_albumentations_rule():
    shift = (0.25, 0.45)  # 30 x 0.25 = 7.5: rounds half to even, as Python
    # xyxy; the second image's box pokes out of the image (clipped first), the third has none;
    # each 20 times, so every extreme of the rule comes up
    rows = [[[20, 10, 60, 40]], [[60, 45, 95, 70]], []] * 20
    images = smooth_images(len(rows))
    t = tga.RandomCropNearBBox((24, 32), max_part_shift=shift)
    win = near_box_windows(t, images, box_rows(rows), list(range(30)))
    for i, box in enumerate([(10, 20, 40, 60), (45, 60, 60, 80)]):  # (y1, x1, y2, x2), clipped
        box = np.array(box)
        s_h = round((box[2] - box[0]) * shift[0])
        s_w = round((box[3] - box[1]) * shift[1])
        reach = np.array([s_h, s_w, s_h, s_w])
        w = win[:, i::3].reshape(-1, 4)
        size = box[2:] - box[:2]
        centre = np.concatenate([(np.array([H, W]) - size) // 2, (np.array([H, W]) - size) // 2 + size])
        w = w[~(w == centre).all(axis=1)]  # draws emptying the window fall back to the centre
        low = np.clip(box - reach, 0, [H, W, H, W])
        high = np.clip(box + reach, 0, [H, W, H, W])
        assert (w >= low).all() and (w <= high).all(), (i, w)
        assert (w.min(0) == low).all() and (w.max(0) == high).all(), (i, w.min(0), w.max(0), low, high)
    np.testing.assert_array_equal(win[:, 2::3].reshape(-1, 4), np.tile([0, 0, H, W], (600, 1)))  # no box: whole


def test_crop_near_bbox_empty_window_falls_back_to_the_centre_and_pick_random_draws_each_box():
    images = smooth_images(1)
    corner = box_rows([[[0, 0, 10, 6]]])
    t = tga.RandomCropNearBBox((12, 12), max_part_shift=(1.0, 1.0))
    win = near_box_windows(t, images, corner, list(range(120)))[:, 0]
    centre = [(H - 6) // 2, (W - 10) // 2, (H - 6) // 2 + 6, (W - 10) // 2 + 10]
    fallback = (win == centre).all(axis=1)
    assert fallback.any()  # some draws empty the window on an axis
    ok = ~fallback
    assert (win[ok, 2] > win[ok, 0]).all() and (win[ok, 3] > win[ok, 1]).all()
    two = box_rows([[[0, 0, 20, 20], [50, 30, 80, 60]]] * 60)
    t = tga.RandomCropNearBBox((12, 12), max_part_shift=(0.0, 0.0), pick="random")
    win = near_box_windows(t, smooth_images(60), two, [1, 2])
    first = (win == [0, 0, 20, 20]).all(-1)
    second = (win == [30, 50, 60, 80]).all(-1)
    assert (first | second).all() and 30 < first.sum() < 90, first.sum()
    out, moved = t.apply(tf.constant(smooth_images(60)), tg.Targets(boxes=two, keypoints=corner_keypoints(60)),
                         training=False)  # inference: the first box, unshifted
    np.testing.assert_array_equal(windows_of(moved, (12, 12)), [[0, 0, 20, 20]] * 60)


def test_crop_near_bbox_batch_without_any_box():
    images = smooth_images(2)
    empty = box_rows([[], []])
    t = tga.RandomCropNearBBox((10, 10), pick="random")
    win = near_box_windows(t, images, empty, [0])[0]
    np.testing.assert_array_equal(win, [[0, 0, H, W]] * 2)


def albumentations_windows(transform, n, **data):
    """Albumentations' windows (y1, x1, y2, x2) read from an image holding each pixel's own
    coordinates (y, x in two uint8 channels; W, H < 256)."""
    y, x = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
    coords = np.stack([y, x, np.zeros_like(y)], -1).astype(np.uint8)
    got = []
    for _ in range(n):
        out = transform(image=coords, **data)["image"]
        got.append([out[0, 0, 0], out[0, 0, 1], out[-1, -1, 0] + 1, out[-1, -1, 1] + 1])
    return np.array(got, int)


def assert_same_law(ours, theirs):
    """Each side's mean within 4.5 standard errors of the two samples, and the same extremes."""
    for k in range(4):
        a, b = ours[:, k].astype(float), theirs[:, k].astype(float)
        se = np.sqrt(a.var() / len(a) + b.var() / len(b)) + 1e-9
        assert abs(a.mean() - b.mean()) < 4.5 * se, (k, a.mean(), b.mean())
        assert a.min() == b.min() and a.max() == b.max(), (k, a.min(), b.min(), a.max(), b.max())


def test_windows_match_albumentations():
    A = pytest.importorskip("albumentations")
    border = tga.RandomCropFromBorders((20, 20), 0.1, 0.2, 0.15, 0.1)
    ours = border_windows(border, 100, range(20))
    theirs = albumentations_windows(A.RandomCropFromBorders(0.1, 0.2, 0.15, 0.1, p=1.0), 2000)
    assert_same_law(ours, theirs)
    near = tga.RandomCropNearBBox((20, 20), max_part_shift=(0.2, 0.3))
    images = smooth_images(100)
    ours = near_box_windows(near, images, box_rows([[[15, 12, 55, 40]]] * 100), list(range(20))).reshape(-1, 4)
    theirs = albumentations_windows(A.Compose([A.RandomCropNearBBox(max_part_shift=(0.2, 0.3), p=1.0)]), 2000,
                                    cropping_bbox=[15, 12, 55, 40])
    assert_same_law(ours, theirs)


def test_keras_layers_and_config_round_trip():
    for cls, kwargs in ((tga.RandomCropFromBorders, dict(size=(8, 9), crop_left=0.2, crop_bottom=0.3, seed=3)),
                        (tga.RandomCropNearBBox, dict(size=8, max_part_shift=(0.1, 0.4), pick="random", seed=4))):
        t = cls(**kwargs)
        again = cls(**t.get_config())
        assert again.get_config() == t.get_config()
        layer = getattr(tga.keras, cls.__name__)(**kwargs)
        out = layer(tf.constant(smooth_images(2)), training=True)
        assert tuple(out.shape) == (2, *t.output_shape((2, H, W, 3))[1:])


@pytest.mark.parametrize("cls,kwargs,match", [
    (tga.RandomCropFromBorders, dict(size=8, crop_left=1.2), "crop_left"),
    (tga.RandomCropFromBorders, dict(size=8, crop_left=0.6, crop_right=0.5), "crop_left \\+ crop_right"),
    (tga.RandomCropFromBorders, dict(size=8, crop_top=0.7, crop_bottom=0.4), "crop_top \\+ crop_bottom"),
    (tga.RandomCropFromBorders, dict(size=(0, 8)), "size"),
    (tga.RandomCropFromBorders, dict(size=8, method="cubic"), "method"),
    (tga.RandomCropNearBBox, dict(size=8, max_part_shift=0.3), "reads a single number"),
    (tga.RandomCropNearBBox, dict(size=8, max_part_shift=(0.3, 1.5)), "each in \\[0, 1\\]"),
    (tga.RandomCropNearBBox, dict(size=8, max_part_shift=(0.3,)), "height fraction, width fraction"),
    (tga.RandomCropNearBBox, dict(size=8, pick="largest"), "pick")])
def test_bad_arguments_are_refused(cls, kwargs, match):
    with pytest.raises(ValueError, match=match):
        cls(**kwargs)
