"""augment.linear_transformation (torchvision's LinearTransformation): against numpy's
statement of torchvision's definition (the CHW-flattened image minus the mean, times the
matrix), a ZCA matrix that whitens a sample, the HWC order, and refusals."""
import numpy as np
import pytest
import tensorflow as tf

from tfgpuaug.augment import linear_transformation


def test_matches_torchvision_definition_in_chw_order():
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (5, 4, 3, 2), dtype=np.uint8)
    d = 4 * 3 * 2
    matrix = rng.normal(size=(d, d)).astype(np.float32)
    mean = rng.normal(size=d).astype(np.float32) * 50
    out = linear_transformation(tf.constant(images), matrix, mean).numpy()
    chw = images.astype(np.float64).transpose(0, 3, 1, 2).reshape(5, d)
    want = ((chw - mean) @ matrix).reshape(5, 2, 4, 3).transpose(0, 2, 3, 1)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-2)
    hwc = linear_transformation(tf.constant(images), matrix, mean, order="HWC").numpy()
    want_hwc = ((images.astype(np.float64).reshape(5, d) - mean) @ matrix).reshape(images.shape)
    np.testing.assert_allclose(hwc, want_hwc, rtol=1e-4, atol=1e-2)
    assert not np.allclose(out, hwc, atol=1.0)  # the order matters


def test_zca_whitens():
    rng = np.random.default_rng(1)
    d = 2 * 2 * 3
    mixing = rng.normal(size=(d, d))
    data = (rng.normal(size=(4000, d)) @ mixing).astype(np.float32)
    mean = data.mean(0)
    u, s, _ = np.linalg.svd(np.cov(data - mean, rowvar=False))
    zca = (u @ np.diag(1.0 / np.sqrt(s + 1e-6)) @ u.T).astype(np.float32)
    images = data.reshape(4000, 3, 2, 2).transpose(0, 2, 3, 1)  # CHW-flattened rows as NHWC images
    out = linear_transformation(tf.constant(images), zca, mean).numpy()
    flat = out.transpose(0, 3, 1, 2).reshape(4000, d)
    np.testing.assert_allclose(np.cov(flat, rowvar=False), np.eye(d), atol=0.02)


@pytest.mark.parametrize("kwargs,match", [
    (dict(transformation_matrix=np.eye(12), mean_vector=np.zeros(11)), "mean_vector"),
    (dict(transformation_matrix=np.ones((12, 11)), mean_vector=np.zeros(12)), "square"),
    (dict(transformation_matrix=np.eye(10), mean_vector=np.zeros(10)), "flatten to 12"),
    (dict(transformation_matrix=np.eye(12), mean_vector=np.zeros(12), order="NCHW"), "order")])
def test_refusals(kwargs, match):
    with pytest.raises(ValueError, match=match):
        linear_transformation(tf.zeros([2, 2, 2, 3]), **kwargs)
