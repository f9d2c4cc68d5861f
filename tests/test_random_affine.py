"""RandomAffine (issue 36; torchvision's RandomAffine, Albumentations' Affine): pixels against
PIL's Image.transform(AFFINE) with the same output-to-input coefficients; the matrix against
its definition (a point's image under rotation about the centre, scale, shear, shift); the
draws within their ranges; inference and probability 0 leave images alone. Boxes, masks and
keypoints: test_detection.py's rectangle oracle ("random_affine" case)."""
import math

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import fixtures
import tfgpuaug as tga
from tfgpuaug.augment.random_affine import affine_matrices, forward_matrices

H, W = 40, 52


def test_pixels_equal_pil_away_from_the_warped_edge():
    """Within 1 level inside the warped image (float32 vs PIL's double), exactly the fill well
    outside it; the one-pixel band along the warped edge is left out (TensorFlow's constant mode
    blends the fill into the interpolation there, PIL clamps)."""
    img = fixtures.photo(H, W, 3, seed=4)
    batch = np.repeat(img[None], 6, 0)
    out, plan = tga.augment.random_affine(batch, 30, (0.2, 0.1), (0.7, 1.2), (-15, 15, -5, 5), fill=17, seed=3,
                                          return_plan=True)
    out, plan = out.numpy(), plan.numpy()
    for i in range(6):
        m = plan[i]
        ref = np.asarray(Image.fromarray(img).transform((W, H), Image.AFFINE, tuple(m[:2].reshape(-1)),
                                                         Image.BILINEAR, fillcolor=(17, 17, 17))).astype(float)
        ys, xs = np.mgrid[0:H, 0:W] + 0.5
        xin, yin = m[0, 0] * xs + m[0, 1] * ys + m[0, 2] - 0.5, m[1, 0] * xs + m[1, 1] * ys + m[1, 2] - 0.5
        inside = (xin >= 0) & (xin <= W - 1) & (yin >= 0) & (yin <= H - 1)
        outside = (xin < -1) | (xin > W) | (yin < -1) | (yin > H)
        assert inside.mean() > 0.25
        d = np.abs(out[i].astype(float) - ref)
        assert d[inside].max() <= 1.0, (i, d[inside].max())
        np.testing.assert_array_equal(out[i][outside], 17)


def test_matrix_rotates_counter_clockwise_about_the_centre_then_shifts():
    f = forward_matrices([90.0], [0.0], [0.0], [1.0], [0.0], [0.0], H, W).numpy()[0]
    cx, cy = W / 2, H / 2
    # the point right of the centre goes above it (y points down)
    np.testing.assert_allclose(f @ [cx + 10, cy, 1], [cx, cy - 10, 1], atol=1e-9)
    f = forward_matrices([0.0], [5.0], [-3.0], [2.0], [0.0], [0.0], H, W).numpy()[0]
    np.testing.assert_allclose(f @ [cx + 1, cy + 1, 1], [cx + 2 + 5, cy + 2 - 3, 1], atol=1e-9)
    f = forward_matrices([0.0], [0.0], [0.0], [1.0], [45.0], [0.0], H, W).numpy()[0]
    np.testing.assert_allclose(f @ [cx, cy + 10, 1], [cx + 10, cy + 10, 1], atol=1e-9)  # x shear: x += tan * y


def test_draws_stay_in_their_ranges():
    n = 2000
    m = tf.linalg.inv(affine_matrices(n, H, W, (-10, 20), (0.1, 0.2), (0.5, 1.5), 0.0, 1.0,
                                      tf.constant([1, 2], tf.int64))).numpy()
    scale = np.sqrt(np.abs(np.linalg.det(m[:, :2, :2])))
    angle = np.degrees(np.arctan2(-m[:, 1, 0], m[:, 0, 0]))
    assert 0.5 <= scale.min() < 0.55 and 1.45 < scale.max() <= 1.5
    assert -10 <= angle.min() < -9 and 19 < angle.max() <= 20
    centre = m[:, :2, :2] @ [W / 2, H / 2] + m[:, :2, 2]
    shift = centre - [W / 2, H / 2]
    np.testing.assert_allclose(shift, np.round(shift), atol=1e-6)  # whole pixels
    shift = np.round(shift)
    assert np.abs(shift[:, 0]).max() <= round(0.1 * W) and np.abs(shift[:, 1]).max() <= round(0.2 * H)
    assert np.abs(shift[:, 1]).max() >= round(0.2 * H) - 1


def test_inference_probability_and_refusals():
    x = tf.constant(np.stack([fixtures.photo(H, W, 3, seed=s) for s in range(3)]))
    t = tga.RandomAffine(30, probability=0.0, seed=1)
    np.testing.assert_array_equal(t(x).numpy(), x.numpy())
    np.testing.assert_array_equal(tga.RandomAffine(30)(x, training=False).numpy(), x.numpy())
    for bad, match in ((dict(scale=(0.0, 1.0)), "scale"), (dict(translate=(1.5, 0.0)), "translate"),
                       (dict(shear=(0, 95)), "shear"), (dict(degrees=-5), "degrees"),
                       (dict(interpolation="cubic"), "interpolation")):
        with pytest.raises(ValueError, match=match):
            tga.RandomAffine(**bad)
    assert math.isclose(tga.RandomAffine(degrees=5).get_config()["degrees"], 5.0)


def test_zoom_out_shrinks_the_image_into_the_frame_and_fills_the_rest():
    """RandomZoomOut at a fixed size (torchvision's RandomZoomOut, then the resize back): the
    image shrinks by 1/r with r in side_range and lies wholly inside the output; the pixels
    equal PIL's AFFINE resampling through the same map (within 1 level inside), the fill
    outside; side_range (1, 1) is the identity."""
    from tfgpuaug.augment.random_affine import zoom_out_matrices
    n = 500
    m = zoom_out_matrices(n, H, W, (1.5, 3.0), 1.0, tf.constant([4, 5], tf.int64)).numpy()
    forward = np.linalg.inv(m)
    r = 1.0 / forward[:, 0, 0]
    assert 1.5 <= r.min() < 1.55 and 2.95 < r.max() <= 3.0
    np.testing.assert_allclose(forward[:, 1, 1], forward[:, 0, 0])
    corners = forward[:, :2, :2] @ np.array([[0, W], [0, H]], float) + forward[:, :2, 2:]
    assert (corners >= -1e-9).all() and (corners[:, 0] <= W + 1e-9).all() and (corners[:, 1] <= H + 1e-9).all()
    assert forward[:, 0, 2].max() > 0.8 * (W - W / 1.5) * 0.5  # positions spread over the free room
    ident = zoom_out_matrices(4, H, W, (1.0, 1.0), 1.0, tf.constant([1, 1], tf.int64)).numpy()
    np.testing.assert_allclose(ident, np.tile(np.eye(3), (4, 1, 1)), atol=1e-12)
    from tfgpuaug.augment.random_perspective import warp_perspective
    img = fixtures.photo(H, W, 3, seed=6)
    plan = zoom_out_matrices(3, H, W, (2.0, 2.5), 1.0, tf.constant([7, 8], tf.int64))
    out = warp_perspective(np.repeat(img[None], 3, 0), plan, "bilinear", 9.0).numpy()
    for i, mi in enumerate(plan.numpy()):
        ref = np.asarray(Image.fromarray(img).transform((W, H), Image.AFFINE, tuple(mi[:2].reshape(-1)),
                                                         Image.BILINEAR, fillcolor=(9, 9, 9))).astype(float)
        ys, xs = np.mgrid[0:H, 0:W] + 0.5
        xin, yin = mi[0, 0] * xs + mi[0, 2] - 0.5, mi[1, 1] * ys + mi[1, 2] - 0.5
        inside = (xin >= 0) & (xin <= W - 1) & (yin >= 0) & (yin <= H - 1)
        outside = (xin < -1) | (xin > W) | (yin < -1) | (yin > H)
        assert 0.1 < inside.mean() < 0.3 and outside.mean() > 0.5
        assert np.abs(out[i].astype(float) - ref)[inside].max() <= 1.0
        np.testing.assert_array_equal(out[i][outside], 9)
    np.testing.assert_array_equal(tga.RandomZoomOut()(tf.constant(img[None]), training=False).numpy(), img[None])
    with pytest.raises(ValueError, match="side_range"):
        tga.RandomZoomOut((0.5, 2.0))
