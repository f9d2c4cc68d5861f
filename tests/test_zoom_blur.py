"""ZoomBlur (issue 36; Albumentations' transform of that name). The ZoomBlur op against a numpy
statement of Albumentations' zoom_blur with OpenCV's own INTER_LINEAR float taps (byte for byte:
the same float operations in the same order), and against Albumentations' function itself where
installed (byte for byte with OpenCV's IPP resize turned off; within one level with it on, as
opencv-python ships); the draws (numpy's arange per sample), probability, inference, the
op's limits on hostile arguments, config and refusals."""
import importlib
import math

import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga

zb = importlib.import_module("tfgpuaug.augment.zoom_blur")  # the package's name is the function


def axis_taps(size, factor):
    """Albumentations' central_zoom along one side, as cv2.resize's own INTER_LINEAR float path
    samples it: each output index's two source indices (in the image) and float32 weights."""
    crop = math.ceil(size / factor)
    top = (size - crop) // 2
    resized = int(crop * factor)
    trim = (resized - size) // 2
    scale = 1.0 / (resized / crop)
    f = ((np.arange(size) + trim + 0.5) * scale - 0.5).astype(np.float32)
    s = np.floor(f).astype(np.int64)
    f = (f - s.astype(np.float32)).astype(np.float32)
    low, high = s < 0, s >= crop - 1
    s[low], f[low] = 0, 0
    s[high], f[high] = crop - 1, 0
    return top + s, top + np.minimum(s + 1, crop - 1), (np.float32(1) - f).astype(np.float32), f


def numpy_zoom_blur(image, factors):
    """Albumentations' zoom_blur in float32 numpy: v / 255, the zooms summed in order, the mean
    with the image, clipped, times 255, rounded half to even."""
    x = (np.arange(256, dtype=np.float32) / np.float32(255))[image]
    acc = np.zeros_like(x)
    h, w = image.shape[:2]
    for z in factors:
        y0, y1, b0, b1 = axis_taps(h, z)
        x0, x1, a0, a1 = axis_taps(w, z)
        top = x[y0][:, x0] * a0[None, :, None] + x[y0][:, x1] * a1[None, :, None]
        bottom = x[y1][:, x0] * a0[None, :, None] + x[y1][:, x1] * a1[None, :, None]
        acc += top * b0[:, None, None] + bottom * b1[:, None, None]
    t = np.clip((x + acc) / np.float32(len(factors) + 1), 0, 1)
    return np.clip(np.rint(t * np.float32(255)), 0, 255).astype(np.uint8)


def run_op(images, max_factors, steps):
    return zb.zoom_blur_op(images, np.asarray(max_factors, np.float64), np.asarray(steps, np.float64)).numpy()


CASES = [((40, 52, 3), 1.31, 0.01), ((33, 29, 1), 1.2, 0.017), ((17, 64, 4), 1.5, 0.05), ((224, 224, 3), 1.21, 0.0137),
         ((9, 7, 3), 3.0, 0.25), ((1, 1, 3), 1.3, 0.02), ((2, 30, 1), 1.1, 0.01), ((61, 45, 3), 1.0 + 0.03, 0.03)]


@pytest.mark.parametrize("shape, largest, step", CASES)
def test_op_equals_numpy_statement(shape, largest, step):
    """Byte for byte, each zoom's taps and every float operation; widths that are and are not
    multiples of the eight-column blocks; a side of 1; 1 to 4 channels. (A mutant computing the
    taps' fractions in float64, as IPP seems to, changes 5 bytes across these cases.)"""
    images = np.stack([fixtures.photo(*shape, seed=s) for s in (1, 2)])
    got = run_op(images, [largest, largest + 0.04], [step, step * 1.5])
    for b, (m, s) in enumerate([(largest, step), (largest + 0.04, step * 1.5)]):
        factors = np.arange(1.0, m, s)
        assert len(factors) >= 2
        want = numpy_zoom_blur(images[b], factors)
        np.testing.assert_array_equal(got[b], want, err_msg=f"{shape} {len(factors)} zooms")
        if min(shape[:2]) > 8:
            assert np.abs(want.astype(int) - images[b]).max() > 3  # the zooms blurred it


def test_op_leaves_samples_without_zooms_alone():
    """max_factor 1 or below (arange(1, 1, s) is empty), a step that is not above 0 (NaN,
    0, negative), a max_factor above 64 or NaN: the bytes as they are. More than 256 zooms: 256."""
    images = np.stack([fixtures.photo(31, 37, seed=s) for s in range(7)])
    got = run_op(images, [1.0, 0.5, 1.3, 1.3, 1.3, 70.0, np.nan], [0.01, 0.01, np.nan, 0.0, -0.01, 0.5, 0.01])
    np.testing.assert_array_equal(got, images)
    capped = run_op(images[:1], [1.3], [1e-4])  # 3000 factors asked
    np.testing.assert_array_equal(capped[0], numpy_zoom_blur(images[0], np.arange(1.0, 1.3, 1e-4)[:256]))


def test_arange_lengths_follow_numpy():
    """Where (max - 1) / step rounds above a whole number numpy's arange holds one more factor
    (arange(1, 1.01, 0.01) has two): the op counts as numpy does."""
    image = fixtures.photo(50, 60, seed=4)[None]
    for m, s in [(1.01, 0.01), (1.03, 0.01), (1.3, 0.1), (1.07, 0.07)]:
        factors = np.arange(1.0, m, s)
        np.testing.assert_array_equal(run_op(image, [m], [s])[0], numpy_zoom_blur(image[0], factors),
                                      err_msg=f"{m} {s}: {len(factors)}")


@pytest.fixture(scope="module")
def albumentations_blur():
    return pytest.importorskip("albumentations.augmentations.blur.functional")


def _photos():
    shared = fixtures.shared_sample_files(limit=6)
    if shared:
        from PIL import Image
        return [np.asarray(Image.open(f).convert("RGB").resize((224 - 3 * i, 200 + 5 * i)))
                for i, f in enumerate(shared)]
    return [fixtures.photo(200 + 5 * i, 224 - 3 * i, seed=i) for i in range(6)]


def test_op_equals_albumentations_function_where_installed(albumentations_blur):
    """Albumentations' zoom_blur with the same factors: byte for byte while OpenCV runs its own
    resize (IPP off); with IPP on (opencv-python's default) IPP's resize rounds a few floats
    differently: at most one level, on at most 0.01% of bytes (measured: 183 of 8.2 million
    bytes over 20 ImageNet photos)."""
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(0)
    was = cv2.ipp.useIPP()
    diffs, total = 0, 0
    try:
        for image in _photos():
            step = rng.uniform(0.01, 0.03)
            largest = max(1 + step, rng.uniform(1, 1.31))
            factors = np.arange(1.0, largest, step)
            got = run_op(image[None], [largest], [step])[0]
            cv2.ipp.setUseIPP(False)
            np.testing.assert_array_equal(got, albumentations_blur.zoom_blur(image, factors))
            cv2.ipp.setUseIPP(True)
            d = np.abs(got.astype(int) - albumentations_blur.zoom_blur(image, factors))
            assert d.max() <= 1
            diffs, total = diffs + int((d > 0).sum()), total + d.size
    finally:
        cv2.ipp.setUseIPP(was)
    assert diffs <= total * 1e-4, (diffs, total)


def test_draws_follow_albumentations_law_and_probability():
    """The transform's zooms: per sample, step uniform in step_factor and the largest factor
    max(1 + step, uniform in max_factor); restated from the same stateless draws, byte for
    byte, samples differing; probability 0.5 leaves about half alone; inference all of them."""
    images = np.stack([fixtures.photo(24, 30, seed=s) for s in range(64)])
    seed = tf.constant([5, 9], tf.int64)
    got = zb.zoom_blur(images, (1.1, 1.4), (0.02, 0.05), probability=1.0, seed=seed).numpy()
    s_step, s_factor, _ = tf.unstack(tf.random.experimental.stateless_split(seed, 3))
    step = tf.random.stateless_uniform([64], s_step, 0.02, 0.05, dtype=tf.float64).numpy()
    largest = np.maximum(1 + step, tf.random.stateless_uniform([64], s_factor, 1.1, 1.4, dtype=tf.float64).numpy())
    for b in (0, 17, 63):
        np.testing.assert_array_equal(got[b], numpy_zoom_blur(images[b], np.arange(1.0, largest[b], step[b])))
    assert len({len(np.arange(1.0, m, s)) for m, s in zip(largest, step)}) > 3
    half = zb.zoom_blur(images, probability=0.5, seed=3).numpy()
    kept = sum(np.array_equal(half[b], images[b]) for b in range(64))
    assert 16 <= kept <= 48, kept
    layer = tga.ZoomBlur(probability=1.0, seed=1)
    np.testing.assert_array_equal(layer(images[:4], training=False), images[:4])
    assert not np.array_equal(layer(images[:4]).numpy(), images[:4])


def test_config_round_trip_and_annotations_pass_through():
    t = tga.ZoomBlur(max_factor=1.2, step_factor=(0.02, 0.02), probability=0.7, seed=3)
    assert t.get_config() == dict(max_factor=(1.0, 1.2), step_factor=(0.02, 0.02), probability=0.7, seed=3)
    again = tga.ZoomBlur(**t.get_config())
    assert again.get_config() == t.get_config()
    assert tga.ZoomBlur.moves_targets is False


@pytest.mark.parametrize("kwargs, words", [
    (dict(max_factor=(0.9, 1.2)), "1 <= min <= max"),
    (dict(max_factor=(1.2, 1.1)), "1 <= min <= max"),
    (dict(max_factor=65.0), "64"),
    (dict(step_factor=0.02), "(0.02, 0.02) for a fixed step"),
    (dict(step_factor=(0.0, 0.02)), "0 < min <= max"),
    (dict(step_factor=(0.03, 0.02)), "0 < min <= max"),
    (dict(max_factor=(1.0, 3.0), step_factor=(0.001, 0.01)), "raise step_factor's min to at least 0.007812"),
    (dict(probability=1.5), "probability"),
])
def test_refusals_say_what_to_pass(kwargs, words):
    with pytest.raises(ValueError, match=None) as err:
        tga.ZoomBlur(**kwargs)
    assert words in str(err.value), str(err.value)
    with pytest.raises(ValueError):
        zb.zoom_blur(np.zeros((1, 8, 8, 3), np.uint8), **kwargs)


def test_op_refuses_bad_shapes():
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError)):
        zb.zoom_blur_op(np.zeros((2, 8, 8, 3), np.uint8), np.ones([3]), np.ones([2]))
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError)):
        zb.zoom_blur_op(np.zeros((8, 8, 3), np.uint8), np.ones([8]), np.ones([8]))
    empty = zb.zoom_blur_op(np.zeros((0, 8, 8, 3), np.uint8), np.ones([0]), np.ones([0]))
    assert empty.shape == (0, 8, 8, 3)
