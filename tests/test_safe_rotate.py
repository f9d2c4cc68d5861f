"""SafeRotate (issue 36; Albumentations' transform of that name): the forward map against
Albumentations' formula restated in numpy (fitted size truncated, each axis scaled), the remap
maps as its inverse, the image against a numpy bilinear sampler with reflect-101 borders on
those maps, masks, boxes and keypoints moving together (the rectangle oracle), Albumentations
2.0.8's boxes where installed, and the transform's probability, inference and refusals."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug import targets as tg
from tfgpuaug.safe_rotate import safe_rotate_inverse_matrices, safe_rotate_maps, safe_rotate_matrices

ANGLES = [-170.0, -75.0, -30.0, 0.0, 12.5, 90.0, 135.0]


def forward(h, w, degrees):
    """Albumentations' SafeRotate matrix about (w / 2, h / 2) (its box matrix), float64, 3x3."""
    t = np.radians(degrees)
    a, b = np.cos(t), np.sin(t)
    rot = np.array([[a, b, (1 - a) * w / 2 - b * h / 2], [-b, a, b * w / 2 + (1 - a) * h / 2], [0, 0, 1]])
    fit_w, fit_h = int(h * abs(b) + w * abs(a)), int(h * abs(a) + w * abs(b))
    rot[0, 2] += fit_w / 2 - w / 2
    rot[1, 2] += fit_h / 2 - h / 2
    return np.diag([w / fit_w, h / fit_h, 1.0]) @ rot


def numpy_maps(h, w, degrees):
    inverse = np.linalg.inv(forward(h, w, degrees))
    ys, xs = np.mgrid[0:h, 0:w] + 0.5
    src = np.einsum("ij,jhw->hwi", inverse, np.stack([xs, ys, np.ones_like(xs)]))
    return src[..., :2] - 0.5


def reflect_101(i, n):
    period = 2 * n - 2 if n > 1 else 1
    i = np.abs(i) % period if n > 1 else np.zeros_like(i)
    return np.where(i >= n, period - i, i)


def bilinear_reflect_101(img, maps):
    """cv2.remap's bilinear blend (float, rounded half to even) with BORDER_REFLECT_101."""
    h, w = img.shape[:2]
    x, y = maps[..., 0], maps[..., 1]
    x0, y0 = np.floor(x).astype(np.int64), np.floor(y).astype(np.int64)
    fx, fy = (x - x0)[..., None], (y - y0)[..., None]
    at = lambda yy, xx: img[reflect_101(yy, h), reflect_101(xx, w)].astype(np.float64)  # noqa: E731
    top = at(y0, x0) * (1 - fx) + at(y0, x0 + 1) * fx
    bottom = at(y0 + 1, x0) * (1 - fx) + at(y0 + 1, x0 + 1) * fx
    return np.clip(np.rint(top * (1 - fy) + bottom * fy), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("shape", [(30, 50), (41, 41), (64, 17)])
def test_matrix_is_albumentations_formula_and_the_maps_invert_it(shape):
    h, w = shape
    got = safe_rotate_matrices(h, w, tf.constant(ANGLES)).numpy()
    maps = safe_rotate_maps(h, w, tf.constant(ANGLES)).numpy()
    corners = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float64)
    for k, degrees in enumerate(ANGLES):
        expected = forward(h, w, degrees)
        np.testing.assert_allclose(got[k], expected[:2], rtol=1e-5, atol=1e-4, err_msg=str(degrees))
        np.testing.assert_allclose(maps[k], numpy_maps(h, w, degrees), atol=2e-3, err_msg=str(degrees))
        moved = corners @ expected[:2].T  # the rotated frame fits, to the truncated fitted size
        assert moved[:, 0].min() > -1 and moved[:, 0].max() < w + 1 and moved[:, 1].min() > -1
        assert moved[:, 1].max() < h + 1 and moved[:, 0].max() - moved[:, 0].min() >= w - 1e-9
    np.testing.assert_array_equal(maps[ANGLES.index(0.0)], np.stack(np.meshgrid(np.arange(w), np.arange(h)), -1))
    # the affine remap's matrices state the same maps (float32 regrouping), the identity exactly
    inverse = safe_rotate_inverse_matrices(h, w, tf.constant(ANGLES)).numpy().astype(np.float64)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    for k, degrees in enumerate(ANGLES):
        m = inverse[k]
        regrouped = np.stack([m[0, 0] * xs + m[0, 1] * ys + m[0, 2], m[1, 0] * xs + m[1, 1] * ys + m[1, 2]], -1)
        np.testing.assert_allclose(regrouped, numpy_maps(h, w, degrees), atol=2e-3, err_msg=str(degrees))
    np.testing.assert_array_equal(inverse[ANGLES.index(0.0)], [[1, 0, 0], [0, 1, 0]])


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_image_is_a_bilinear_reflect_101_remap_of_the_rotation(channels):
    img = fixtures.photo(37, 53, channels=channels, seed=channels)
    for degrees in (-75.0, 30.0, 135.0):
        out = tga.SafeRotate((degrees, degrees), probability=1.0)(img[None], seed=[1, 2]).numpy()[0]
        ref = bilinear_reflect_101(img, numpy_maps(37, 53, degrees))
        diff = np.abs(out.astype(np.int64) - ref)
        assert diff.max() <= 1 and diff.mean() < 0.01, (degrees, diff.max(), diff.mean())


def test_masks_boxes_and_keypoints_move_with_the_image():
    """A rectangle drawn in the image and in the mask, its box and its centre as a keypoint:
    after the rotation the mask's pixels lie inside the moved box (the enclosing box of the
    rectangle's moved corners) and fill it to a pixel, the keypoint is the box's centre, and
    the image's bright pixels are the mask's."""
    h, w = 48, 64
    img = np.zeros((4, h, w, 3), np.uint8)
    img[:, 14:30, 20:44] = 255
    masks = (img[..., :1] > 0).astype(np.uint8)
    boxes = tf.ragged.constant([[[20.0, 14.0, 44.0, 30.0]]] * 4, ragged_rank=1, inner_shape=(4,))  # xyxy
    points = tf.ragged.constant([[[32.0, 22.0]]] * 4, ragged_rank=1, inner_shape=(2,))
    targets = tg.Targets(boxes=boxes, masks=tf.constant(masks), keypoints=points)
    out, moved = tga.SafeRotate(60, border_mode="constant", probability=1.0).apply(
        tf.constant(img), targets, seed=tf.constant([3, 4]))
    out, m = out.numpy(), moved.masks.numpy()[..., 0]
    box, point = moved.boxes.numpy(), moved.keypoints.numpy()
    for i in range(4):
        ys, xs = np.nonzero(m[i])
        x0, y0, x1, y1 = box[i][0]
        assert ys.min() + 0.5 >= y0 - 0.5 and ys.max() + 0.5 <= y1 + 0.5  # pixel centres inside, to half a pixel
        assert xs.min() + 0.5 >= x0 - 0.5 and xs.max() + 0.5 <= x1 + 0.5
        assert abs(ys.min() - y0) <= 1.5 and abs(ys.max() + 1 - y1) <= 1.5
        np.testing.assert_allclose(point[i][0], [(x0 + x1) / 2, (y0 + y1) / 2], atol=1e-3)
        bright = out[i, ..., 0] > 127
        assert (bright == (m[i] > 0)).mean() > 0.98
    angles = {round(float(np.degrees(np.arctan2(*(b[0][2:] - b[0][:2])))), 3) for b in box}
    assert len(angles) > 1  # an angle per sample


def test_boxes_match_albumentations_where_installed():
    A = pytest.importorskip("albumentations")
    h, w = 60, 90
    img = fixtures.photo(h, w, seed=3)
    box = [10.0, 12.0, 50.0, 40.0]  # x_min, y_min, x_max, y_max
    for degrees in (-40.0, 25.0, 80.0):
        theirs = A.Compose([A.SafeRotate(limit=(degrees, degrees), p=1.0)],
                           bbox_params=A.BboxParams(format="pascal_voc", label_fields=["labels"]))(
            image=img, bboxes=[box], labels=[1])["bboxes"][0]
        targets = tg.Targets(boxes=tf.ragged.constant([[box]], ragged_rank=1, inner_shape=(4,)))
        _, moved = tga.SafeRotate((degrees, degrees), probability=1.0).apply(img[None], targets, seed=[1, 1])
        np.testing.assert_allclose(moved.boxes.numpy()[0][0], theirs, atol=1e-3, err_msg=str(degrees))


def test_probability_inference_and_refusals():
    img = np.repeat(fixtures.photo(20, 24, seed=2)[None], 200, axis=0)
    out = tga.SafeRotate(probability=0.25)(img, seed=[5, 6]).numpy()
    changed = (out != img).reshape(200, -1).any(1)
    assert 0.15 < changed.mean() < 0.35
    np.testing.assert_array_equal(tga.SafeRotate(probability=1.0)(img[:2], training=False), img[:2])
    with pytest.raises(ValueError, match="limit must be"):
        tga.SafeRotate(400)
    with pytest.raises(ValueError, match="border_mode"):
        tga.SafeRotate(border_mode="mirror")
    with pytest.raises(ValueError, match="one shape"):
        tga.SafeRotate()(tf.ragged.constant([[[[1, 2, 3]]]], dtype=tf.uint8, ragged_rank=1))
