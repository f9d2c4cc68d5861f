"""HEStain (Albumentations' HEStain, its "preset" and "random_preset" methods): the op against a
float64 numpy statement of Albumentations' apply_he_stain_augmentation and against that function
itself where installed, per-sample draws and presets, the tissue mask, probability, inference and
the refusals."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug.augment.he_stain import PRESETS, STAIN_MATRICES, he_stain, he_stain_with


@pytest.fixture
def AF():
    """Albumentations' functions, the reference where it is installed (a test-only dependency)."""
    return pytest.importorskip("albumentations.augmentations.pixel.functional")


@pytest.fixture(scope="module")
def photos():
    """Photos with dark (tissue) and bright (background) pixels, and every level in a ramp."""
    imgs = [fixtures.photo(40, 48, seed=s) for s in range(3)]
    ramp = np.broadcast_to(np.arange(256, dtype=np.uint8).reshape(16, 16, 1), (16, 16, 3))
    imgs.append(np.pad(ramp, ((0, 24), (0, 32), (0, 0)), mode="reflect"))
    return np.stack(imgs)


def numpy_he_stain(img, matrix, scale, shift, augment_background):
    """Albumentations 2.0.8's apply_he_stain_augmentation on uint8 RGB, restated: its float32
    density, the float64 solve of the regularised normal equations, float64 rebuild, rint."""
    x = np.arange(256, dtype=np.float32)[img] / np.float32(255)
    density = -np.log(np.maximum(x.reshape(-1, 3), np.float32(1e-6)))
    s = np.asarray(matrix, np.float32)
    correlation = (s @ s.T).astype(np.float64) + 1e-6 * np.eye(2)
    concentrations = np.linalg.solve(correlation, (s @ density.T).astype(np.float64)).T
    adjusted = concentrations * np.asarray(scale, np.float64) + np.asarray(shift, np.float64)
    if not augment_background:
        tissue = (x[..., 0] * 0.299 + x[..., 1] * 0.587 + x[..., 2] * 0.114 < 0.85).reshape(-1)
        adjusted = np.where(tissue[:, None], adjusted, concentrations)
    rebuilt = np.exp(-(adjusted @ s.astype(np.float64)))
    return np.clip(np.rint(rebuilt * 255), 0, 255).astype(np.uint8).reshape(img.shape)


def _close(ours, want, what):
    """float32 against float64: at most one level, on at most 0.5% of bytes (a product within
    float32's error of a half level)."""
    diff = np.abs(ours.astype(int) - want.astype(int))
    assert diff.max() <= 1 and (diff > 0).mean() <= 0.005, (what, diff.max(), (diff > 0).mean())


@pytest.mark.parametrize("augment_background", [False, True])
def test_op_matches_the_float64_statement_for_every_preset(photos, augment_background):
    rng = np.random.default_rng(3)
    for k, name in enumerate(PRESETS):
        scale = rng.uniform(0.5, 1.5, (len(photos), 2)).astype(np.float32)
        shift = rng.uniform(-0.3, 0.3, (len(photos), 2)).astype(np.float32)
        out = he_stain_with(photos, tf.fill([len(photos)], k), scale, shift, augment_background).numpy()
        for i, img in enumerate(photos):
            want = numpy_he_stain(img, STAIN_MATRICES[name], scale[i], shift[i], augment_background)
            _close(out[i], want, (name, i, augment_background))


def test_op_matches_albumentations_function_where_installed(photos, AF):
    rng = np.random.default_rng(8)
    for k, name in enumerate(PRESETS):
        scale = rng.uniform(0.7, 1.3, (len(photos), 2)).astype(np.float32)
        shift = rng.uniform(-0.2, 0.2, (len(photos), 2)).astype(np.float32)
        for background in (False, True):
            out = he_stain_with(photos, tf.fill([len(photos)], k), scale, shift, background).numpy()
            for i, img in enumerate(photos):
                want = AF.apply_he_stain_augmentation(img, AF.STAIN_MATRICES[name], scale[i].astype(np.float64),
                                                      shift[i].astype(np.float64), background)
                _close(out[i], want, (name, i, background))


def test_background_pixels_keep_their_concentrations():
    """Without augment_background a white pixel (luminosity 1) is rebuilt from its own
    concentrations, whatever the scale and shift, and a tissue pixel from the shifted ones; with
    it, the shift darkens the white pixel too."""
    img = np.full([1, 4, 4, 3], 255, np.uint8)
    img[0, :2] = 60  # tissue
    scale, shift, none = tf.constant([[1.0, 1.0]]), tf.constant([[0.3, 0.3]]), tf.constant([[0.0, 0.0]])
    kept = he_stain_with(img, tf.constant([2]), scale, shift, False).numpy()
    unshifted = he_stain_with(img, tf.constant([2]), scale, none, False).numpy()
    np.testing.assert_array_equal(kept[0, 2:], 255)
    assert (kept[0, :2] < unshifted[0, :2]).all()  # more of both stains: darker in every channel
    assert (he_stain_with(img, tf.constant([2]), scale, shift, True).numpy()[0, 2:] < 255).all()


def test_draws_per_sample_presets_and_probability(photos):
    x = np.concatenate([photos] * 50)  # 200 samples
    out = he_stain(tf.constant(x), probability=0.5, seed=4).numpy()
    changed = (out != x).any(axis=(1, 2, 3))
    assert 0.38 < changed.mean() < 0.62
    # per sample: the same image in different samples changes differently
    same = out[0::4][changed[0::4]]
    assert len({s.tobytes() for s in same}) == len(same)
    # random_preset reaches every matrix: each preset's output appears for the first photo
    index = tf.random.stateless_uniform([8000], [1, 2], 0, len(PRESETS), dtype=tf.int32).numpy()
    assert set(index) == set(range(len(PRESETS)))
    again = he_stain(tf.constant(x), probability=0.5, seed=4).numpy()
    np.testing.assert_array_equal(out, again)


def test_transform_inference_and_config(photos):
    t = tga.HEStain("preset", "dark", (0.8, 1.1), (-0.1, 0.1), augment_background=True, probability=1.0, seed=3)
    x = tf.constant(photos)
    np.testing.assert_array_equal(t(x, training=False).numpy(), photos)
    assert (t(x).numpy() != photos).any()
    again = tga.HEStain(**t.get_config())
    assert again.get_config() == t.get_config()
    np.testing.assert_array_equal(t(x, seed=[1, 2]).numpy(), again(x, seed=[1, 2]).numpy())


@pytest.mark.parametrize("kwargs, message", [
    (dict(method="vahadane"), "fits a stain matrix to each image"),
    (dict(method="macenko"), "fits a stain matrix to each image"),
    (dict(method="fancy"), "method must be one of"),
    (dict(method="preset", preset="purple"), "preset must be one of"),
    (dict(method="random_preset", preset="dark"), "preset is for method='preset'"),
    (dict(intensity_scale_range=(-0.1, 1.0)), "intensity_scale_range"),
    (dict(intensity_scale_range=(1.2, 1.0)), "intensity_scale_range"),
    (dict(intensity_shift_range=(-1.5, 0.0)), "intensity_shift_range"),
    (dict(probability=1.5), "probability"),
])
def test_refusals(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tga.HEStain(**kwargs)


def test_non_rgb_images_refused():
    with pytest.raises(ValueError, match="uint8 RGB"):
        he_stain(tf.zeros([1, 4, 4, 4], tf.uint8), seed=1)
    with pytest.raises(ValueError, match="uint8 RGB"):
        he_stain(tf.zeros([1, 4, 4, 1], tf.uint8), seed=1)
