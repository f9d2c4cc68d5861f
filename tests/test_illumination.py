"""Illumination (Albumentations' Illumination): the three kernel stages against Albumentations'
own functions (linear's every angle rule, corner's four corners, gaussian's centres and widths;
1, 3 and 4 channels, odd sizes), the drawn parameters' laws read back from flat images,
probability, inference, the config and the refusals."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug.augment.illumination import CENTRE_STEPS, illumination
from tfgpuaug.augment.ops import OP_IDS, apply_stages


@pytest.fixture
def AF():
    """Albumentations' functions, the reference where it is installed (a test-only dependency)."""
    return pytest.importorskip("albumentations.augmentations.pixel.functional")


SHAPES = [(1, 1), (1, 7), (6, 1), (17, 23), (48, 40)]


def _images(h, w, c, batch=1, seed=0):
    return np.random.default_rng(seed + 31 * h + w + c).integers(0, 256, (batch, h, w, c), dtype=np.uint8)


def _stage(images, name, intensity, aux):
    n = images.shape[0]
    ops = np.full((n, 1), OP_IDS[name], np.int32)
    params = np.full((n, 1), intensity, np.float32)
    aux = np.broadcast_to(np.asarray(aux, np.float32), (n, 1, 2))
    return apply_stages(tf.constant(images), ops, params, aux).numpy()


def _reference_channels(fn, image):
    """Albumentations on an image of c channels (a gray image as its 2-D array). OpenCV 5 reads
    a 1x1 array given to cv2.multiply/add/subtract with a number as a 4-vector (it returns a
    4x1 array: Albumentations' 1x1 image then comes out black), so no reference there."""
    if image.shape[:2] == (1, 1) and int(__import__("cv2").__version__.split(".")[0]) >= 5:
        pytest.skip("OpenCV 5 turns a 1x1 array into a 4-vector in cv2.multiply (Albumentations' 1x1 output is 0)")
    if image.shape[-1] == 1:
        return fn(image[..., 0])[..., None]
    return fn(image)


def _assert_close(ours, theirs, exact_share, what):
    diff = np.abs(ours.astype(np.int64) - theirs.astype(np.int64))
    assert diff.max() <= 1, (what, diff.max())
    assert (diff == 0).mean() >= exact_share, (what, (diff == 0).mean())


ANGLES = [0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0, 17.0, 100.0, 203.5, 333.0]


@pytest.mark.parametrize("channels", [1, 3, 4])
@pytest.mark.parametrize("h, w", SHAPES)
def test_linear_equals_albumentations(h, w, channels, AF):
    """Every angle rule (rows, columns, the normalised diagonals, x cos + y sin), both signs:
    equal bytes (ties of the rounding excepted: at most one level, 99.9% equal)."""
    image = _images(h, w, channels)
    for angle in ANGLES:
        for intensity in (0.15, -0.15, 0.01, -0.2):
            ours = _stage(image, "illumination_linear", intensity, [angle / 360.0, 0.0])[0]
            theirs = _reference_channels(
                lambda im: AF.apply_linear_illumination(im, intensity=float(np.float32(intensity)), angle=angle),
                image[0])
            _assert_close(ours, theirs, 0.999, (angle, intensity))


def test_linear_general_angles_are_not_normalised(AF):
    """Albumentations' general angle is x cos + y sin of the ramps, which leaves [0, 1] (here
    120 degrees: g from -0.5 to 0.87), and the stage follows it: bytes pushed past both sides."""
    image = np.full((1, 40, 40, 3), 128, np.uint8)
    out = _stage(image, "illumination_linear", 0.2, [120.0 / 360.0, 0.0])[0]
    theirs = AF.apply_linear_illumination(image[0], intensity=float(np.float32(0.2)), angle=120.0)
    _assert_close(out, theirs, 0.999, "120")
    assert out.min() < 128 * 0.8 - 1 and out.max() > 128 * 1.1


@pytest.mark.parametrize("channels", [1, 3, 4])
@pytest.mark.parametrize("h, w", SHAPES)
def test_corner_equals_albumentations(h, w, channels, AF):
    image = _images(h, w, channels)
    for corner in range(4):
        for intensity in (0.2, -0.2, 0.07):
            ours = _stage(image, "illumination_corner", intensity, [(corner + 0.5) / 4.0, 0.0])[0]
            theirs = _reference_channels(
                lambda im: AF.apply_corner_illumination(im, intensity=float(np.float32(intensity)), corner=corner),
                image[0])
            _assert_close(ours, theirs, 0.999, (corner, intensity))


@pytest.mark.parametrize("channels", [1, 3, 4])
@pytest.mark.parametrize("h, w", SHAPES)
def test_gaussian_equals_albumentations(h, w, channels, AF):
    """Centres given in 4095ths (the stage's packing, exact), widths and both signs: at most one
    level apart (the exponential is the product of its row and column factors here, one call
    of cv2.exp there), 99.5% equal."""
    image = _images(h, w, channels)
    for qx, qy, sigma in ((0, 0, 0.2), (2047, 1000, 0.5), (4095, 4095, 1.0), (409, 3686, 0.35)):
        for intensity in (0.2, -0.2, 0.05):
            ours = _stage(image, "illumination_gaussian", intensity, [qx * 4096.0 + qy, sigma])[0]
            theirs = _reference_channels(
                lambda im: AF.apply_gaussian_illumination(
                    im, intensity=float(np.float32(intensity)), center=(qx / CENTRE_STEPS, qy / CENTRE_STEPS),
                    sigma=float(np.float32(sigma))),
                image[0])
            _assert_close(ours, theirs, 0.995, (qx, qy, sigma, intensity))


def test_large_image_against_albumentations(AF):
    """A 224 x 224 RGB image, every mode, all bytes at most one level apart and 99.9% equal."""
    image = _images(224, 224, 3)
    cases = [("illumination_linear", 0.18, [37.0 / 360.0, 0.0], lambda im: AF.apply_linear_illumination(
                 im, intensity=float(np.float32(0.18)), angle=37.0)),
             ("illumination_corner", -0.12, [0.625, 0.0], lambda im: AF.apply_corner_illumination(
                 im, intensity=float(np.float32(-0.12)), corner=2)),
             ("illumination_gaussian", 0.2, [2000 * 4096.0 + 1500, 0.3], lambda im: AF.apply_gaussian_illumination(
                 im, intensity=float(np.float32(0.2)), center=(2000 / CENTRE_STEPS, 1500 / CENTRE_STEPS),
                 sigma=float(np.float32(0.3))))]
    for name, intensity, aux, fn in cases:
        _assert_close(_stage(image, name, intensity, aux)[0], fn(image[0]), 0.999, name)


def _flat(level, h=32, w=48, batch=1):
    return tf.constant(np.full((batch, h, w, 3), level, np.uint8))


def test_linear_draws_intensity_sign_and_angle():
    """From a flat image: the intensity (the first and last columns at angle 0), the sign
    (which side is brighter) and the angle (the gradient's direction) follow the ranges."""
    n = 4000
    out = illumination(_flat(200, batch=n), "linear", (0.05, 0.15), "both", (0.0, 0.0), probability=1.0,
                       seed=3).numpy().astype(np.float64)
    right, left = out[:, 0, -1, 0], out[:, 0, 0, 0]
    a = np.abs(right - left) / 400.0  # (1 + a) - (1 - a) = 2a, times 200
    assert np.all((a > 0.05 - 0.01) & (a < 0.15 + 0.01))
    np.testing.assert_allclose(np.quantile(a, [0.1, 0.5, 0.9]), [0.06, 0.10, 0.14], atol=0.006)
    assert abs((right > left).mean() - 0.5) < 0.03
    bright = illumination(_flat(100, batch=500), "linear", (0.2, 0.2), "brighten", (20.0, 70.0), probability=1.0,
                          seed=4).numpy().astype(np.float64)
    dx = bright[:, 0, -1, 0] - bright[:, 0, 0, 0]  # 100 * 2a cos
    dy = bright[:, -1, 0, 0] - bright[:, 0, 0, 0]  # 100 * 2a sin
    angles = np.degrees(np.arctan2(dy, dx))
    assert angles.min() > 19.0 and angles.max() < 71.0
    np.testing.assert_allclose(np.quantile(angles, [0.25, 0.5, 0.75]), [32.5, 45.0, 57.5], atol=2.5)
    dark = illumination(_flat(100, batch=50), "linear", (0.2, 0.2), "darken", (0.0, 0.0), probability=1.0,
                        seed=5).numpy()
    assert np.all(dark[:, 0, 0, 0] > dark[:, 0, -1, 0])  # reversed: the gradient's start is the bright side


def test_corner_and_gaussian_draws():
    n = 2000
    out = illumination(_flat(100, batch=n), "corner", (0.2, 0.2), "darken", probability=1.0, seed=6).numpy()
    corners = np.stack([out[:, 0, 0, 0], out[:, 0, -1, 0], out[:, -1, -1, 0], out[:, -1, 0, 0]], 1)
    which = np.argmin(corners, 1)  # darken: m = 1 + 0.2 d / diagonal, least at the chosen corner
    assert np.all(corners[np.arange(n), which] == 100)
    np.testing.assert_allclose(np.bincount(which, minlength=4) / n, 0.25, atol=0.03)
    spot = illumination(_flat(100, 64, 64, batch=400), "gaussian", (0.2, 0.2), "brighten", center_range=(0.25, 0.75),
                        sigma_range=(0.2, 0.2), probability=1.0, seed=7).numpy()
    assert spot.min() >= 100 and spot.max() <= 120
    # the plateau of the greatest level is symmetric about the centre: its mean position is it
    peak = np.array([np.argwhere(s[..., 0] == s[..., 0].max()).mean(0) for s in spot])  # (row, col)
    assert peak.min() >= 64 * 0.25 - 1.5 and peak.max() <= 64 * 0.75 + 1.5
    assert np.std(peak[:, 0]) > 5 and np.std(peak[:, 1]) > 5  # spread over the range, both axes
    darker = illumination(_flat(100, batch=20), "gaussian", (0.1, 0.2), "darken", probability=1.0, seed=8).numpy()
    assert darker.max() <= 100 and darker.min() < 95


def test_probability_inference_and_config():
    x = _flat(150, batch=1000)
    out = illumination(x, "gaussian", probability=0.3, seed=2).numpy()
    changed = (out != 150).any(axis=(1, 2, 3))
    assert 0.25 < changed.mean() < 0.35
    layer = tga.Illumination("corner", probability=1.0, seed=1)
    np.testing.assert_array_equal(layer(x[:3], training=False).numpy(), x[:3].numpy())
    assert (layer(x[:3]).numpy() != 150).any()
    t = tga.Illumination("gaussian", (0.05, 0.1), "darken", center_range=(0.2, 0.4), sigma_range=(0.3, 0.6),
                         probability=0.7, seed=3)
    again = tga.Illumination(**t.get_config())
    assert again.get_config() == t.get_config()
    np.testing.assert_array_equal(t(x[:4], seed=[1, 2]).numpy(), again(x[:4], seed=[1, 2]).numpy())


@pytest.mark.parametrize("kwargs, message", [
    (dict(mode="radial"), "mode must be one of"),
    (dict(effect_type="dim"), "effect_type must be one of"),
    (dict(intensity_range=(0.3, 0.1)), "intensity_range must be"),
    (dict(intensity_range=(0.1, 1.5)), "intensity_range must be"),
    (dict(angle_range=(-10, 10)), "angle_range must be"),
    (dict(center_range=(0.5, 1.2)), "center_range must be"),
    (dict(sigma_range=(0.0, 0.5)), "sigma_range must be"),
    (dict(probability=-0.1), "probability"),
])
def test_refusals(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tga.Illumination(**kwargs)


@pytest.mark.parametrize("name", ["illumination_linear", "illumination_corner"])
def test_policies_draw_the_illumination_stages(name):
    """The registry's entries: intensity 0 .. 0.2 by magnitude, signed; magnitude 0 leaves the
    bytes (m = 1 exactly), the top magnitude moves them within the formulas' bounds."""
    x = tf.constant(np.random.default_rng(3).integers(40, 216, (8, 32, 32, 3), dtype=np.uint8))
    for magnitude in (0, 30):
        out, _, params = tga.augment.rand_augment(x, num_ops=1, magnitude=magnitude, augmentations=[name], seed=5,
                                                  return_plan=True)
        np.testing.assert_allclose(np.abs(params.numpy()), 0.2 * magnitude / 30, rtol=1e-6)
        change = np.abs(out.numpy().astype(np.int64) - x.numpy())
        if magnitude == 0:
            assert change.max() == 0
        else:
            # m in [1 - 3a, 1 + 1.83a]: the general angle's gradient runs from -1 to 1.42
            assert 1 < change.mean() < 0.2 * 216 and change.max() <= 3 * 0.2 * 216 + 1
