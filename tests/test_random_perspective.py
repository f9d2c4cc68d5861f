"""RandomPerspective (issue #21, torchvision's RandomPerspective): pixels against PIL's
Image.transform(PERSPECTIVE) with the same coefficients (torchvision's PIL path), the corner
offsets against torchvision's integer ranges (chi-square), the probability (binomial), the
Keras layer and its config. Boxes, masks and keypoints: tests/test_detection.py's mask oracle
("random_perspective" case)."""
import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import fixtures
import tfgpuaug as tga
from tfgpuaug.augment.random_perspective import perspective_matrices

H, W = 40, 52


def chi2_critical(dof: int, z: float = 3.09) -> float:
    """The chi-square value exceeded with probability ~0.001 (Wilson-Hilferty)."""
    return dof * (1 - 2 / (9 * dof) + z * (2 / (9 * dof)) ** 0.5) ** 3


def input_coords(m: np.ndarray):
    """PIL's sample position (pixel-index coordinates) of every output pixel."""
    ys, xs = np.mgrid[0:H, 0:W] + 0.5
    w = m[2, 0] * xs + m[2, 1] * ys + m[2, 2]
    return ((m[0, 0] * xs + m[0, 1] * ys + m[0, 2]) / w - 0.5, (m[1, 0] * xs + m[1, 1] * ys + m[1, 2]) / w - 0.5)


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_pixels_equal_pil_away_from_the_warped_edge(dtype):
    """Inside the warped image: within 1 level (uint8; float32 vs PIL's double); outside it:
    exactly the fill. The one-pixel band along the warped image's edge is left out: there
    TensorFlow's constant mode blends the fill into the interpolation where PIL clamps."""
    img = fixtures.photo(H, W, 3, seed=3)
    batch = np.repeat(img[None], 6, 0).astype(dtype)
    out, plan = tga.augment.random_perspective(batch, 0.6, 1.0, fill=17, seed=5, return_plan=True)
    out, plan = out.numpy(), plan.numpy()
    for i in range(6):
        m = plan[i] / plan[i][2, 2]
        ref = np.asarray(Image.fromarray(img).transform((W, H), Image.PERSPECTIVE, tuple(m.reshape(-1)[:8]),
                                                         Image.BILINEAR, fillcolor=(17, 17, 17))).astype(float)
        xin, yin = input_coords(m)
        inside = (xin >= 0) & (xin <= W - 1) & (yin >= 0) & (yin <= H - 1)
        outside = (xin < -1) | (xin > W) | (yin < -1) | (yin > H)
        assert inside.mean() > 0.25 and outside.mean() > 0.02  # the warp moved the corners
        d = np.abs(out[i].astype(float) - ref)
        assert d[inside].max() <= 1.0, d[inside].max()
        np.testing.assert_allclose(out[i][outside], 17, atol=1e-4)
    assert out.dtype == dtype


def test_corners_follow_torchvision_ranges_uniformly():
    n, scale = 4000, 0.5
    m = perspective_matrices(n, H, W, scale, 1.0, tf.constant([3, 4], tf.int64)).numpy()
    dw, dh = int(scale * (W // 2)), int(scale * (H // 2))
    start = np.array([[0, 0], [W - 1, 0], [W - 1, H - 1], [0, H - 1]], float)
    inverse = np.linalg.inv(m)  # start (input) corners -> end (output) corners
    ends = np.einsum("nij,kj->nki", inverse, np.c_[start, np.ones(4)])
    ends = ends[..., :2] / ends[..., 2:]
    np.testing.assert_allclose(ends, np.round(ends), atol=1e-6)  # integer corners
    ends = np.round(ends).astype(int)
    ranges = [((0, dw), (0, dh)), ((W - dw - 1, W - 1), (0, dh)), ((W - dw - 1, W - 1), (H - dh - 1, H - 1)),
              ((0, dw), (H - dh - 1, H - 1))]
    for k, ((x0, x1), (y0, y1)) in enumerate(ranges):
        for axis, (lo, hi) in enumerate(((x0, x1), (y0, y1))):
            v = ends[:, k, axis]
            assert v.min() == lo and v.max() == hi, (k, axis, v.min(), v.max())
            counts = np.bincount(v - lo, minlength=hi - lo + 1)
            expected = len(v) / len(counts)
            assert ((counts - expected) ** 2 / expected).sum() < chi2_critical(len(counts) - 1)


def test_probability_is_binomial_and_identity_elsewhere():
    n = 2000
    m = perspective_matrices(n, H, W, 0.5, 0.3, tf.constant([1, 2], tf.int64)).numpy()
    identity = np.all(np.abs(m - np.eye(3)) < 1e-12, axis=(1, 2))
    assert abs((~identity).sum() - 0.3 * n) < 4 * (n * 0.3 * 0.7) ** 0.5  # binomial, 4 sigma
    img = fixtures.photo(H, W, 3, seed=4)
    out = tga.augment.random_perspective(img[None], 0.5, 0.0, seed=1).numpy()
    np.testing.assert_array_equal(out[0], img)


def test_layer_config_and_inference():
    layer = tga.keras.RandomPerspective(distortion_scale=0.3, probability=0.7, seed=4)
    clone = tga.keras.RandomPerspective.from_config(layer.get_config())
    images = tf.constant(np.repeat(fixtures.photo(H, W, 3, seed=5)[None], 3, 0))
    np.testing.assert_array_equal(layer(images, training=False).numpy(), images.numpy())
    assert clone.get_config() == layer.get_config()
    with pytest.raises(ValueError, match="distortion_scale"):
        tga.RandomPerspective(1.5)
    with pytest.raises(ValueError, match="interpolation"):
        tga.RandomPerspective(interpolation="cubic")
