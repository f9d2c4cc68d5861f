"""ToSepia (issue 36; Albumentations' transform of that name), a stage of the fused augment
kernel: bit for bit against its float32 definition, within one level of a float64 numpy oracle
(the matrix, round half to even, saturate), and against Albumentations 2.0.8 itself
where it is installed (cv2.transform: one level at most, its own float rounding); alpha kept,
gray unchanged, per-sample probability, refusals."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug.sepia import SEPIA


def oracle(img):
    out = np.rint(img[..., :3].astype(np.float64) @ np.array(SEPIA).T)
    return np.concatenate([np.clip(out, 0, 255).astype(np.uint8), img[..., 3:]], -1)


def photos(channels=3, n=4):
    return np.random.default_rng(channels).integers(0, 256, (n, 32, 40, channels), dtype=np.uint8)


@pytest.mark.parametrize("channels", [3, 4])
def test_equals_the_matrix_rounded_and_saturated(channels):
    x = photos(channels)
    out = tga.ToSepia(probability=1.0)(tf.constant(x), seed=[1, 2]).numpy()
    ref = np.stack([oracle(i) for i in x])
    # float32 against float64: a sum within float32 rounding of a half level may differ by one
    diff = np.abs(out.astype(int) - ref)
    assert diff.max() <= 1 and diff.mean() < 1e-3
    np.testing.assert_array_equal(out[..., 3:], x[..., 3:])
    assert (out[..., :3] == 255).any()  # the matrix saturates bright pixels


def float32_oracle(img):
    """SepiaPixel's arithmetic in numpy: float32 products added left to right, rounded half to even."""
    rgb = img[..., :3].astype(np.float32)
    m = np.array(SEPIA, np.float32)
    out = [(m[k, 0] * rgb[..., 0] + m[k, 1] * rgb[..., 1]) + m[k, 2] * rgb[..., 2] for k in range(3)]
    out = np.clip(np.rint(np.stack(out, -1)), 0, 255).astype(np.uint8)
    return np.concatenate([out, img[..., 3:]], -1)


@pytest.mark.parametrize("channels", [3, 4])
def test_kernel_stage_is_the_float32_matrix_exactly(channels):
    """The fused kernel stage (CPU loops here; the GPU runs the same per-pixel function, held to
    the CPU's bytes by the emulated self-check) against its float32 definition, bit for bit, on
    every (r, g) pair for a spread of blues."""
    r, g, b = np.meshgrid(np.arange(256), np.arange(256), np.arange(0, 256, 15), indexing="ij")
    x = np.stack([r, g, b], -1).astype(np.uint8).reshape(-1, 256, 3)[None]
    if channels == 4:
        x = np.concatenate([x, np.full(x.shape[:3] + (1,), 77, np.uint8)], -1)
    out = tga.augment.to_sepia(tf.constant(x), probability=1.0, seed=[1, 2]).numpy()
    np.testing.assert_array_equal(out, float32_oracle(x))


def test_matches_albumentations_where_installed():
    A = pytest.importorskip("albumentations")
    x = photos(3)
    out = tga.ToSepia(probability=1.0)(tf.constant(x), seed=[1, 2]).numpy()
    t = A.ToSepia(p=1.0)
    theirs = np.stack([t(image=i)["image"] for i in x])
    assert np.abs(out.astype(int) - theirs).max() <= 1


def test_gray_probability_inference_and_refusals():
    gray = photos(1)
    np.testing.assert_array_equal(tga.ToSepia(probability=1.0)(tf.constant(gray), seed=[1, 1]).numpy(), gray)
    x = photos(3, n=64)
    out = tga.ToSepia(probability=0.5)(tf.constant(x), seed=[3, 3]).numpy()
    changed = np.any(out != x, axis=(1, 2, 3))
    assert abs(changed.mean() - 0.5) < 5 * np.sqrt(0.25 / 64)
    np.testing.assert_array_equal(tga.ToSepia()(tf.constant(x), training=False).numpy(), x)
    with pytest.raises(ValueError, match="got 2 channels"):
        tga.ToSepia()(tf.zeros([1, 2, 2, 2], tf.uint8), seed=[1, 1])
    with pytest.raises(ValueError, match="takes uint8 images"):
        tga.ToSepia()(tf.zeros([1, 2, 2, 3]), seed=[1, 1])
