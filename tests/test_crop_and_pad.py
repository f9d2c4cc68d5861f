"""CropAndPad (issue 36; Albumentations' transform of that name, keep_size=True): the images
against a numpy restatement of Albumentations' steps (crop, np.pad in the border mode, cv2.resize's
INTER_LINEAR taps blended in float64) within one level, exact where no resize happens; masks
exactly (cv2.resize's nearest rule); boxes against the same arithmetic; the amount forms and
Albumentations' never-below-one-pixel correction; Albumentations 2.0.8 itself where installed;
refusals."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import targets as tg

NP_MODES = dict(constant="constant", replicate="edge", reflect="symmetric", wrap="wrap", reflect_101="reflect")


def prevent_zero(v1, v2, max_val):
    """Albumentations' CropAndPad.__prevent_zero, restated."""
    regain = abs(max_val) + 1
    r1 = r2 = regain // 2
    if r1 + r2 < regain:
        r1 += 1
    if r1 > v1:
        r2 += r1 - v1
        r1 = v1
    elif r2 > v2:
        r1 += r2 - v2
        r2 = v2
    return v1 - r1, v2 - r2


def crops_and_pads(v, h, w):
    """(top, right, bottom, left) crops and pads of signed amounts v, as Albumentations computes them."""
    pads = [max(i, 0) for i in v]
    top, right, bottom, left = [-min(i, 0) for i in v]
    if h - (top + bottom) < 1:
        top, bottom = prevent_zero(top, bottom, h)
    if w - (left + right) < 1:
        left, right = prevent_zero(left, right, w)
    return [max(top, 0), max(right, 0), max(bottom, 0), max(left, 0)], pads


def resize_axis(x, size, axis, nearest):
    """cv2.resize's taps along one axis (INTER_LINEAR: float32 coordinate, clamped; INTER_NEAREST:
    floor(d * scale)), blended in float64."""
    n = x.shape[axis]
    d = np.arange(size, dtype=np.float64)
    if nearest:
        return np.take(x, np.minimum(np.floor(d * (n / size)).astype(int), n - 1), axis)
    f = ((d + 0.5) * (n / size) - 0.5).astype(np.float32).astype(np.float64)
    j = np.floor(f).astype(int)
    frac = f - j
    clamp = (j < 0) | (j >= n - 1)
    j, frac[clamp] = np.clip(j, 0, n - 1), 0.0
    shape = [1] * x.ndim
    shape[axis] = size
    frac = frac.reshape(shape)
    return np.take(x, j, axis) * (1 - frac) + np.take(x, np.minimum(j + 1, n - 1), axis) * frac


def reference(img, v, mode, fill, nearest=False):
    """Albumentations' crop_and_pad with keep_size: crop, pad, resize back; float64 [H, W, C]."""
    h, w = img.shape[:2]
    (ct, cr, cb, cl), (pt, pr, pb, pl) = crops_and_pads(list(v), h, w)
    x = img[ct:h - cb, cl:w - cr].astype(np.float64)
    extra = dict(constant_values=fill) if mode == "constant" else {}
    x = np.pad(x, ((pt, pb), (pl, pr), (0, 0)), NP_MODES[mode], **extra)
    return resize_axis(resize_axis(x, h, 0, nearest), w, 1, nearest)


@pytest.fixture(scope="module")
def images():
    rng = np.random.default_rng(3)
    return rng.integers(0, 256, (6, 23, 31, 3), dtype=np.uint8)


@pytest.mark.parametrize("border_mode", list(NP_MODES))
@pytest.mark.parametrize("spec", [dict(px=(-7, 8)), dict(percent=(-0.3, 0.3)),
                                  dict(px=((-4, 4), 3, [-5, 0, 6], -2))])
def test_images_and_masks_match_the_restated_albumentations_steps(images, border_mode, spec):
    """Within one level (float32 against float64 blends; cv2 itself rounds fixed-point weights),
    mean below 0.02; masks (cv2.resize's nearest rule) exactly. Mutants caught: pads read from
    the uncropped image (wrap), the canvas coordinate left unclamped below its first pixel, the
    percent amount rounded instead of truncated."""
    t = tga.CropAndPad(**spec, border_mode=border_mode, fill=11.0, fill_mask=4.0)
    seed = tf.constant([5, 6])
    masks = images[..., :1] // 64
    out, moved = t.apply(tf.constant(images), tg.Targets(masks=tf.constant(masks)), seed=seed)
    amounts = t.amounts(6, 23, 31, seed).numpy()
    assert len({tuple(a) for a in amounts}) > 1  # the draws differ per sample
    for i in range(6):
        ref = np.clip(np.rint(reference(images[i], amounts[i], border_mode, 11.0)), 0, 255)
        diff = np.abs(out.numpy()[i].astype(np.int64) - ref)
        assert diff.max() <= 1 and diff.mean() < 0.02, (amounts[i], diff.max(), diff.mean())
        ref_mask = reference(masks[i], amounts[i], border_mode, 4.0, nearest=True)
        np.testing.assert_array_equal(moved.masks.numpy()[i], ref_mask, err_msg=str(amounts[i]))


def test_amount_forms_and_the_one_pixel_correction():
    """Albumentations' forms: a pair is a range for each side (integers min <= v < max), drawn
    once for all sides without sample_independently; four per-side values, pairs or choices;
    fractions truncated toward zero; crops that would leave nothing are corrected its way."""
    n = 400
    seed = tf.constant([1, 2])
    a = tga.CropAndPad(px=(-3, 3)).amounts(n, 20, 20, seed).numpy()
    assert a.min() == -3 and a.max() == 2 and len(np.unique(a)) == 6
    assert (a[:, 0] != a[:, 1]).any()
    a = tga.CropAndPad(px=(-3, 3), sample_independently=False).amounts(n, 20, 20, seed).numpy()
    assert (a == a[:, :1]).all() and len(np.unique(a)) == 6
    a = tga.CropAndPad(px=(1, (2, 4), [7, -7, 0], -1)).amounts(n, 20, 20, seed).numpy()
    assert (a[:, 0] == 1).all() and set(a[:, 1]) == {2, 3} and set(a[:, 2]) == {7, -7, 0} and (a[:, 3] == -1).all()
    a = tga.CropAndPad(percent=(-0.25, -0.25, 0.1, 0.333)).amounts(1, 10, 30, seed).numpy()[0]
    np.testing.assert_array_equal(a, [int(-0.25 * 10), int(-0.25 * 30), int(0.1 * 10), int(0.333 * 30)])
    a = tga.CropAndPad(px=5, probability=0.5).amounts(n, 20, 20, seed).numpy()
    assert 0.35 < (a[:, 0] == 5).mean() < 0.65 and ((a == 5) | (a == 0)).all()
    # crops of 9 and 8 rows of a 10-row image: corrected as Albumentations does (to 3 and 3)
    img = np.arange(10 * 4, dtype=np.uint8).reshape(1, 10, 4, 1) * 5
    out = tga.CropAndPad(px=(-9, 0, -8, 0), interpolation="nearest")(img, seed=seed).numpy()[0]
    assert crops_and_pads([-9, 0, -8, 0], 10, 4)[0] == [3, 0, 3, 0]
    np.testing.assert_array_equal(out, reference(img[0], [-9, 0, -8, 0], "constant", 0.0, nearest=True))


def test_boxes_move_with_the_canvas_and_nothing_changes_when_nothing_is_drawn(images):
    boxes = tf.ragged.constant([[[4.0, 3.0, 20.0, 15.0]]] * 6, ragged_rank=1, inner_shape=(4,))
    t = tga.CropAndPad(px=(-2, 3, 5, -4))  # top crop 2, right pad 3, bottom pad 5, left crop 4
    _, moved = t.apply(tf.constant(images), tg.Targets(boxes=boxes), seed=tf.constant([1, 1]))
    sx, sy = 31 / (31 - 4 + 3), 23 / (23 - 2 + 5)
    np.testing.assert_allclose(moved.boxes.numpy()[0][0], [(4 - 4) * sx, (3 - 2) * sy, (20 - 4) * sx, (15 - 2) * sy],
                               rtol=1e-5)
    same = tga.CropAndPad(px=(-3, 3), probability=0.0)(images, seed=tf.constant([1, 1])).numpy()
    np.testing.assert_array_equal(same, images)
    np.testing.assert_array_equal(tga.CropAndPad(px=4)(images, training=False), images)
    shifted = tga.CropAndPad(px=(2, -2, -2, 2))(images, seed=tf.constant([1, 1])).numpy()  # a whole-pixel shift
    np.testing.assert_array_equal(shifted[:, 2:, 2:], images[:, :-2, :-2])
    floats = tga.CropAndPad(px=(2, -2, -2, 2))(tf.cast(images, tf.float32) / 255.0, seed=tf.constant([1, 1]))
    np.testing.assert_allclose(floats.numpy() * 255.0, shifted, atol=1e-3)


def test_matches_albumentations_where_installed(images):
    A = pytest.importorskip("albumentations")
    cv2 = pytest.importorskip("cv2")
    codes = dict(constant=cv2.BORDER_CONSTANT, replicate=cv2.BORDER_REPLICATE, reflect=cv2.BORDER_REFLECT,
                 wrap=cv2.BORDER_WRAP, reflect_101=cv2.BORDER_REFLECT_101)
    masks = images[..., 0] // 64
    for mode, code in codes.items():
        for v in ([-3, 4, 6, -5], [7, -9, -2, 3], [-12, -16, 0, 5]):
            ours, moved = tga.CropAndPad(px=tuple(v), border_mode=mode, fill=9.0, fill_mask=2.0).apply(
                tf.constant(images[:1]), tg.Targets(masks=tf.constant(masks[:1, ..., None])), seed=tf.constant([1, 1]))
            theirs = A.CropAndPad(px=v, border_mode=code, fill=9, fill_mask=2, p=1.0)(image=images[0], mask=masks[0])
            # cv2.resize's 11-bit fixed-point weights round ~8% of bytes the other way
            diff = np.abs(ours.numpy()[0].astype(np.int64) - theirs["image"])
            assert diff.max() <= 1 and diff.mean() < 0.15, (mode, v, diff.max(), diff.mean())
            np.testing.assert_array_equal(moved.masks.numpy()[0, ..., 0], theirs["mask"], err_msg=f"{mode} {v}")


def separable_reference(img, rows, row_w, cols, col_w, fill):
    """[H, W, C] through one sample's tables: rows lerped first, then columns, float32, half to even."""
    h, w = img.shape[:2]

    def tap(r, c):
        ok = (r >= 0) & (r < h) & (c >= 0) & (c < w)
        return np.where(ok[..., None], img[np.clip(r, 0, h - 1), np.clip(c, 0, w - 1)], fill).astype(np.float32)

    r0, r1 = rows[:, 0][:, None], rows[:, 1][:, None]
    c0, c1 = cols[:, 0][None, :], cols[:, 1][None, :]
    a, wy = col_w[None, :, None], row_w[:, None, None]
    left = tap(r0, c0) + (tap(r1, c0) - tap(r0, c0)) * wy
    right = tap(r0, c1) + (tap(r1, c1) - tap(r0, c1)) * wy
    return np.rint(left + (right - left) * a).astype(np.uint8)


@pytest.mark.parametrize("channels", [1, 3, 4, 5])
def test_separable_resample_kernel_matches_numpy(channels):
    """The kernel under uint8 CropAndPad: float32 lerps of the tables' taps, rows first (the CPU
    blends each input row pair once, on the stack; rows wider than 8192 bytes go pixel by
    pixel), rounded half to even; indices outside the image read the fill (tables are never
    trusted)."""
    from tfgpuaug import _loader
    op = _loader.ops().tf_gpu_aug_separable_resample
    rng = np.random.default_rng(channels)
    for w in (13, 8192 // channels + 7):
        img = rng.integers(0, 256, (3, 9, w, channels), dtype=np.uint8)
        rows = rng.integers(-4, 13, (3, 11, 2)).astype(np.int32)
        cols = rng.integers(-4, w + 4, (3, 7, 2)).astype(np.int32)
        row_w, col_w = rng.random((3, 11)).astype(np.float32), rng.random((3, 7)).astype(np.float32)
        row_w[:, ::3] = 0.0
        got = op(img, rows, row_w, cols, col_w, fill_value=21.0).numpy()
        for b in range(3):
            np.testing.assert_array_equal(got[b], separable_reference(img[b], rows[b], row_w[b], cols[b], col_w[b],
                                                                      21.0), err_msg=f"width {w} sample {b}")
    with pytest.raises(tf.errors.InvalidArgumentError, match="taps must be"):
        op(img, rows[:2], row_w[:2], cols, col_w)


def test_refusals():
    with pytest.raises(ValueError, match="exactly one of them"):
        tga.CropAndPad()
    with pytest.raises(ValueError, match="exactly one of them"):
        tga.CropAndPad(px=1, percent=0.1)
    with pytest.raises(ValueError, match="keep_size=False"):
        tga.CropAndPad(px=1, keep_size=False)
    with pytest.raises(ValueError, match="a < b"):
        tga.CropAndPad(px=(3, 3))
    with pytest.raises(ValueError, match="must be an integer"):
        tga.CropAndPad(px=0.5)
    with pytest.raises(ValueError, match="four per-side"):
        tga.CropAndPad(px=(1, 2, 3))
    with pytest.raises(ValueError, match="border_mode must be one of"):
        tga.CropAndPad(px=1, border_mode="mirror")
    with pytest.raises(ValueError, match="fill must be one number"):
        tga.CropAndPad(px=1, fill=(0, 255))
    with pytest.raises(ValueError, match="uint8 or float32"):
        tga.CropAndPad(px=1)(tf.zeros([1, 4, 4, 1], tf.int32))
