"""ChromaticAberration (Albumentations'): the maps against cv2.initUndistortRectifyMap, the bytes
against Albumentations' chromatic_aberration with the same coefficients, the sign rules of the
three modes read back from the drawn coefficients, probability, inference, config, refusals."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug.chromatic_aberration import chromatic_aberration
from tfgpuaug.distortions import remap, remap_radial


@pytest.fixture
def cv2():
    """OpenCV, the reference for the maps where it is installed (a test-only dependency)."""
    return pytest.importorskip("cv2")


def radial_maps(height, width, k1, k2):
    """The maps RemapRadial computes, in numpy float64 then float32: the offset from the centre
    (width / 2, height / 2) times 1 + k1 r2 + k2 r2^2, r2 the squared radius normalised by the
    focal lengths (width, height)."""
    u, v = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64))
    dx, dy = u - width / 2.0, v - height / 2.0
    r2 = (dx / width) ** 2 + (dy / height) ** 2
    k1, k2 = (np.asarray(k, np.float64)[:, None, None] for k in (k1, k2))
    scale = 1.0 + (k1 * r2 + k2 * r2 * r2)
    return np.stack([width / 2.0 + dx * scale, height / 2.0 + dy * scale], -1).astype(np.float32)


@pytest.mark.parametrize("h, w", [(37, 53), (64, 48), (1, 5)])
def test_maps_equal_opencv(h, w, cv2):
    for k1, k2 in ((0.02, 0.05), (-0.02, -0.04), (0.3, -0.2), (0.0, 0.0)):
        ours = radial_maps(h, w, [k1], [k2])[0]
        camera = np.array([[w, 0, w / 2.0], [0, h, h / 2.0], [0, 0, 1]], np.float32)
        mx, my = cv2.initUndistortRectifyMap(camera, np.array([k1, k2, 0, 0], np.float32), None, camera, (w, h),
                                             cv2.CV_32FC1)
        np.testing.assert_allclose(ours[..., 0], mx, atol=2e-5)
        np.testing.assert_allclose(ours[..., 1], my, atol=2e-5)


@pytest.mark.parametrize("channels", [1, 3, 4])
@pytest.mark.parametrize("border", ["replicate", "constant", "reflect_101"])
def test_kernel_equals_remap_through_the_maps(channels, border):
    """RemapRadial (the map computed per pixel in the kernel) against Remap through the numpy
    maps: equal bytes (the maps agree to the float; a rounding tipped by their last bit is
    allowed on 0.1% of bytes, one level)."""
    x = np.stack([fixtures.photo(37, 53, channels, seed=i) for i in range(4)])
    k = np.array([[0.02, 0.05], [-0.3, 0.2], [0.0, 0.0], [0.5, -0.4]], np.float32)
    for interpolation in ("bilinear", "nearest"):
        ours = remap_radial(tf.constant(x), k, interpolation, border, 7.0).numpy()
        theirs = remap(tf.constant(x), radial_maps(37, 53, k[:, 0], k[:, 1]), interpolation, border, 7.0).numpy()
        diff = np.abs(ours.astype(int) - theirs)
        assert diff.max() <= 1 and (diff == 0).mean() >= 0.999, (interpolation, diff.max(), (diff == 0).mean())
    np.testing.assert_array_equal(remap_radial(tf.constant(x[2:3]), k[2:3]).numpy(), x[2:3])  # k = 0: identity


@pytest.mark.parametrize("channels", [1, 3, 4])
@pytest.mark.parametrize("border", ["replicate", "constant", "wrap"])
def test_map_per_channel_equals_remapping_each_channel(channels, border):
    """RemapRadial with coefficients [B, C, 2] against each channel remapped on its own through
    [B, 2]: the same bytes (zero-coefficient channels copied, the others remapped as planes);
    identity channels keep their bytes."""
    x = np.stack([fixtures.photo(37, 53, channels, seed=i) for i in range(4)])
    rng = np.random.default_rng(channels)
    k = rng.uniform(-0.3, 0.3, (4, channels, 2)).astype(np.float32)
    k[:, 1 % channels] = 0.0
    k[3] = 0.0
    for interpolation in ("bilinear", "nearest"):
        ours = remap_radial(tf.constant(x), k, interpolation, border, 7.0).numpy()
        for ch in range(channels):
            alone = remap_radial(tf.constant(x[..., ch:ch + 1]), k[:, ch], interpolation, border, 7.0).numpy()
            np.testing.assert_array_equal(ours[..., ch:ch + 1], alone, err_msg=f"{interpolation} channel {ch}")
        np.testing.assert_array_equal(ours[..., 1 % channels], x[..., 1 % channels])
        np.testing.assert_array_equal(ours[3], x[3])
    with pytest.raises(ValueError, match=r"\[B, C, 2\]"):
        remap_radial(tf.constant(x), np.zeros([4, channels + 1, 2], np.float32))


@pytest.mark.parametrize("interpolation, flag", [("bilinear", 1), ("nearest", 0)])
def test_bytes_equal_albumentations(interpolation, flag, cv2):
    """Albumentations' function at the same coefficients: at most one level apart (the maps'
    last float bit can tip a rounding), 99.5% of bytes equal; with OpenCV before 4.11 bilinear
    (5-bit fixed-point weights there) at most two, 90% equal, mean under 0.15."""
    AF = pytest.importorskip("albumentations.augmentations.pixel.functional")
    image = np.stack([fixtures.photo(48, 64, 3, seed=1)])
    for k in ((0.02, 0.05, -0.02, -0.03), (0.2, 0.3, 0.1, 0.0), (-0.1, -0.2, 0.15, 0.3)):
        red = remap_radial(image[..., 0:1], np.float32([k[:2]]), interpolation, "replicate").numpy()
        blue = remap_radial(image[..., 2:3], np.float32([k[2:]]), interpolation, "replicate").numpy()
        ours = np.concatenate([red, image[..., 1:2], blue], -1)[0]
        theirs = AF.chromatic_aberration(image[0], *k, flag)
        diff = np.abs(ours.astype(int) - theirs)
        if interpolation == "bilinear" and tuple(int(v) for v in cv2.__version__.split(".")[:2]) < (4, 11):
            # OpenCV before 4.11 blends with 5-bit fixed-point weights; the Remap kernel is 4.11's float
            assert diff.max() <= 2 and (diff == 0).mean() >= 0.9 and diff.mean() < 0.15, (k, diff.max(), diff.mean())
        else:
            assert diff.max() <= 1 and (diff == 0).mean() >= 0.995, (k, diff.max(), (diff == 0).mean())


def _coefficients(mode):
    """The signs of the red and blue distortions each sample drew, read from a horizontal ramp:
    near the right edge a channel pushed outwards (positive coefficients) samples a brighter
    byte, pulled inwards a darker one."""
    ramp = np.tile((np.arange(64, dtype=np.uint8) * 4)[None, None, :, None], (400, 32, 1, 3))
    out = chromatic_aberration(tf.constant(ramp), 0.2, 0.2, mode, probability=1.0, seed=3).numpy().astype(int)
    red, blue = out[:, 16, 56, 0] - ramp[:, 16, 56, 0], out[:, 16, 56, 2] - ramp[:, 16, 56, 2]
    return np.sign(red), np.sign(blue)


def test_mode_sign_rules():
    red, blue = _coefficients("green_purple")
    moved = (red != 0) & (blue != 0)
    assert moved.mean() > 0.5 and np.all(red[moved] == blue[moved])
    red, blue = _coefficients("red_blue")
    moved = (red != 0) & (blue != 0)
    assert moved.mean() > 0.5 and np.all(red[moved] == -blue[moved])
    red, blue = _coefficients("random")
    moved = (red != 0) & (blue != 0)
    assert 0.3 < (red[moved] == blue[moved]).mean() < 0.7


def test_probability_inference_alpha_and_config():
    x = np.stack([fixtures.photo(32, 40, 4, seed=i) for i in range(300)])
    out = chromatic_aberration(tf.constant(x), 0.3, 0.3, probability=0.3, seed=2).numpy()
    np.testing.assert_array_equal(out[..., 1], x[..., 1])
    np.testing.assert_array_equal(out[..., 3], x[..., 3])
    changed = (out != x).any(axis=(1, 2, 3))
    assert 0.22 < changed.mean() < 0.38
    layer = tga.ChromaticAberration(0.3, 0.3, probability=1.0, seed=1)
    np.testing.assert_array_equal(layer(tf.constant(x[:3]), training=False).numpy(), x[:3])
    t = tga.ChromaticAberration((-0.1, 0.05), 0.2, "random", "nearest", probability=0.7, seed=3)
    again = tga.ChromaticAberration(**t.get_config())
    assert again.get_config() == t.get_config()
    a, b = (u(tf.constant(x[:4]), seed=[1, 2]).numpy() for u in (t, again))
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("kwargs, message", [
    (dict(mode="blue_yellow"), "mode must be one of"),
    (dict(interpolation="cubic"), "interpolation must be one of"),
    (dict(primary_distortion_limit=(0.2, -0.2)), "primary_distortion_limit"),
    (dict(probability=2.0), "probability"),
])
def test_refusals(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tga.ChromaticAberration(**kwargs)
    with pytest.raises(ValueError, match="RGB or RGBA"):
        chromatic_aberration(tf.zeros([1, 4, 4, 1], tf.uint8), seed=1)
    with pytest.raises(ValueError, match=r"coefficients must be \[B, 2\]"):
        remap_radial(tf.zeros([1, 4, 4, 1], tf.uint8), tf.zeros([1, 3]))
