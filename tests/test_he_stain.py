"""HEStain (Albumentations' HEStain, all four methods): the op against a float64 numpy statement
of Albumentations' apply_he_stain_augmentation and against that function itself where installed,
per-sample draws and presets, the tissue mask, probability, inference and the refusals; Macenko's
fit against a numpy statement of the method (np.cov, np.linalg.eigh, np.percentile) and against
the stains synthetic images were made with; the "vahadane" fit (the StainNmf op) against a numpy
statement of Albumentations' SimpleNMF and order_stains_combined, and against them where
installed."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug.augment.he_stain import (PRESETS, STAIN_MATRICES, _percentile, he_stain, he_stain_with,
                                       macenko_stain_matrices, rebuild_tables, vahadane_stain_matrices)


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
    """The HeStain op (float64 throughout) against the statement (whose projection S D^T is float32,
    as Albumentations' BLAS computes it): at most one level, on at most 1 byte in 10^3 (measured: 5
    in 10^6 on ImageNet photos, every preset, with and without the background)."""
    diff = np.abs(ours.astype(int) - want.astype(int))
    assert diff.max() <= 1 and (diff > 0).mean() <= 1e-3, (what, diff.max(), (diff > 0).mean())


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
    (dict(method="vahadane", preset="dark"), "does not take one"),
    (dict(method="macenko", preset="dark"), "does not take one"),
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


def synthetic_he(rng, matrix, h=48, w=56):
    """An image made from the unit stain vectors of `matrix` [2, 3]: gamma-distributed
    concentrations, a fifth of the pixels blank (background), rounded to bytes."""
    s = np.asarray(matrix, np.float64)
    s = s / np.linalg.norm(s, axis=1, keepdims=True)
    c = rng.gamma(1.5, 0.4, (h, w, 2)) * (rng.random((h, w, 1)) < 0.8)
    return np.clip(np.rint(255 * np.exp(-(c @ s))), 0, 255).astype(np.uint8), s


def numpy_macenko(img, q=99.0):
    """Macenko et al.'s fit as its paper states it, in float64 numpy."""
    x = img.reshape(-1, 3).astype(np.float32) / np.float32(255)
    density = -np.log(np.maximum(x, np.float32(1e-6))).astype(np.float64)
    tissue = density[(density > 0.05).any(axis=1)]
    vectors = np.linalg.eigh(np.cov(tissue, rowvar=False))[1][:, [2, 1]]
    vectors *= np.where(vectors[0] < 0, -1.0, 1.0)
    coordinates = tissue @ vectors
    angles = np.arctan2(coordinates[:, 1], coordinates[:, 0])
    ends = [np.percentile(angles, 100 - q), np.percentile(angles, q)]
    stains = np.abs(np.array([vectors @ [np.cos(a), np.sin(a)] for a in ends]))
    stains /= np.linalg.norm(stains, axis=1, keepdims=True)
    return stains if stains[0, 0] > stains[1, 0] else stains[::-1]


def test_percentile_equals_numpys_linear_rule():
    rng = np.random.default_rng(2)
    values = rng.normal(size=(6, 300))
    valid = rng.random((6, 300)) < np.array([1.0, 0.5, 0.01, 0.9, 0.003, 0.2])[:, None]
    valid[4] = False
    valid[4, 17] = True  # a single valid value
    count = valid.sum(axis=1)
    for q in (0.0, 1.0, 37.5, 50.0, 63.0, 99.0, 100.0):
        got = _percentile(tf.constant(values), tf.constant(valid), tf.constant(count, tf.int32), q).numpy()
        want = [np.percentile(v[m], q) for v, m in zip(values, valid)]
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=str(q))


MADE_WITH = [STAIN_MATRICES["standard"], STAIN_MATRICES["macenko"], STAIN_MATRICES["h_heavy"],
             ((0.70, 0.65, 0.30), (0.25, 0.80, 0.55))]


def test_macenko_fit_matches_the_numpy_statement_and_recovers_the_stains():
    """To 1e-6 against the statement (float32 densities, float64 after); within 0.03 of the unit
    stain vectors each synthetic image was made with (Albumentations 2.0.8's fit misses them by
    0.1-0.3: see the module docstring)."""
    rng = np.random.default_rng(0)
    made = [synthetic_he(rng, m) for m in MADE_WITH]
    images = np.stack([m[0] for m in made] + [fixtures.photo(48, 56, seed=9)])
    fitted, ok = macenko_stain_matrices(images)
    assert ok.numpy().all()
    for i, img in enumerate(images):
        np.testing.assert_allclose(fitted[i].numpy(), numpy_macenko(img), atol=1e-6, err_msg=str(i))
    for i, (_, truth) in enumerate(made):
        np.testing.assert_allclose(fitted[i].numpy(), truth, atol=0.03, err_msg=str(i))


def test_macenko_leaves_images_without_tissue_alone():
    """Fewer than two pixels with a density above 0.05: no fit (the "macenko" preset stands in)
    and the sample is left alone, however the jitter is drawn."""
    white = np.full((3, 20, 24, 3), 255, np.uint8)
    white[1, 3, 4] = 40  # one tissue pixel
    white[2, 3:5, 4] = 40  # two: a fit
    fitted, ok = macenko_stain_matrices(white)
    assert ok.numpy().tolist() == [False, False, True]
    np.testing.assert_allclose(fitted[0].numpy(), STAIN_MATRICES["macenko"], atol=1e-7)
    out = he_stain(white, "macenko", intensity_shift_range=(0.3, 0.3), augment_background=True,
                   probability=1.0, seed=1).numpy()
    np.testing.assert_array_equal(out[:2], white[:2])
    assert (out[2] != white[2]).any()


def test_macenko_jitters_with_the_fitted_matrix():
    """The output is the jitter through each image's own fitted matrix, with the draws of the
    preset methods (restated from the same seed): within the float32 rule of the float64
    statement. The transform runs the same function."""
    from tfgpuaug.augment.photometric import _draws
    rng = np.random.default_rng(4)
    images = np.stack([synthetic_he(rng, m)[0] for m in MADE_WITH])
    seed = tf.constant([5, 6], tf.int64)
    out = he_stain(images, "macenko", intensity_scale_range=(0.6, 1.4), intensity_shift_range=(-0.2, 0.2),
                   probability=1.0, seed=seed).numpy()
    _, _, (_, s_scale, s_shift, _) = _draws(tf.constant(images), seed, 4)
    scale = tf.random.stateless_uniform([4, 2], s_scale, 0.6, 1.4).numpy()
    shift = tf.random.stateless_uniform([4, 2], s_shift, -0.2, 0.2).numpy()
    fitted = macenko_stain_matrices(images)[0].numpy()
    for i in range(4):
        _close(out[i], numpy_he_stain(images[i], fitted[i], scale[i], shift[i], False), i)
    assert (out != images).mean() > 0.3
    t = tga.HEStain("macenko", intensity_scale_range=(0.6, 1.4), probability=1.0, seed=3)
    assert (t(images).numpy() != images).mean() > 0.3
    np.testing.assert_array_equal(np.asarray(t(images, training=False)), images)
    assert tga.HEStain(**t.get_config()).get_config() == t.get_config()


def test_albumentations_macenko_misses_the_stains_where_installed(AF):
    """The claim in the module docstring, measured: Albumentations 2.0.8's MacenkoNormalizer on
    the synthetic images lands 0.1 or more from the stains they were made with (ours within
    0.03, above)."""
    rng = np.random.default_rng(0)
    worst = []
    for m in MADE_WITH:
        img, truth = synthetic_he(rng, m)
        normalizer = AF.MacenkoNormalizer()
        normalizer.fit(img)
        worst.append(np.abs(normalizer.stain_matrix_target - truth).max())
    assert min(worst) >= 0.05 and max(worst) >= 0.1, worst


def test_macenko_takes_empty_batches_and_images_of_no_pixels():
    for shape in [(0, 12, 16, 3), (2, 0, 16, 3), (2, 1, 1, 3)]:
        images = np.full(shape, 60, np.uint8)
        out = he_stain(images, "macenko", probability=1.0, seed=1).numpy()
        np.testing.assert_array_equal(out, images)  # nothing to fit: left alone


def numpy_vahadane(img):
    """Albumentations' SimpleNMF (100 multiplicative rounds from Ruifrok's rows over every pixel's
    float32 density) in float64, the concentrations kept in float32 between rounds as numpy's;
    then its order_stains_combined (float32)."""
    x = img.reshape(-1, 3).astype(np.float32) / np.float32(255)
    density = (-np.log(np.maximum(x, np.float32(1e-6)))).astype(np.float64)
    c = np.asarray(STAIN_MATRICES["ruifrok"], np.float32).astype(np.float64)
    s = np.maximum(density @ (c / np.linalg.norm(c, axis=1, keepdims=True)).T, 0).astype(np.float32)
    for _ in range(100):
        s64 = s.astype(np.float64)
        s = np.maximum(s64 * ((density @ c.T) / (s64 @ (c @ c.T) + 1e-6)), 0).astype(np.float32)
        s64 = s.astype(np.float64)
        c = np.maximum(c * ((s64.T @ density) / ((s64.T @ s64) @ c + 1e-6)), 0)
        c = c / np.sqrt((c ** 2).sum(axis=1, keepdims=True))
    rows = c.astype(np.float32)
    unit = rows / np.sqrt((rows ** 2).sum(axis=1, keepdims=True))
    total = unit.sum(axis=1) + np.float32(1e-6)
    score = np.mod(np.arctan2(unit[:, 1], unit[:, 0]), np.pi) * (unit[:, 2] / total) - unit[:, 0] / total
    h = int(np.argmax(score))
    return rows[[h, 1 - h]]


def vahadane_images():
    rng = np.random.default_rng(8)
    return np.stack([synthetic_he(rng, m, 40, 44)[0] for m in MADE_WITH[:3]] + [fixtures.photo(40, 44, seed=2)])


def test_vahadane_fit_matches_the_numpy_statement():
    """The StainNmf op and the ordering against the float64 statement: within 1e-6 (the sums'
    order differs: lanes and a fold here, BLAS there; measured equal in float32), rows unit and
    not negative."""
    images = vahadane_images()
    fitted, ok = vahadane_stain_matrices(images)
    assert ok.numpy().all()
    for i, img in enumerate(images):
        np.testing.assert_allclose(fitted[i].numpy(), numpy_vahadane(img), atol=1e-6, err_msg=str(i))
    assert (fitted.numpy() >= 0).all()
    np.testing.assert_allclose(np.linalg.norm(fitted.numpy(), axis=2), 1.0, atol=1e-6)


def test_vahadane_matches_albumentations_where_installed(AF):
    """Albumentations' VahadaneNormalizer (float32 BLAS) lands within 1e-5 of the fit on H&E-like
    images (measured 1.2e-6; up to 6e-4 on ImageNet photos, which are no stained tissue)."""
    images = vahadane_images()
    fitted = vahadane_stain_matrices(images)[0].numpy()
    for i, img in enumerate(images):
        normalizer = AF.VahadaneNormalizer()
        normalizer.fit(img)
        np.testing.assert_allclose(fitted[i], normalizer.stain_matrix_target, atol=1e-5, err_msg=str(i))


def test_vahadane_jitters_with_the_fitted_matrix_and_leaves_blank_images_alone():
    from tfgpuaug.augment.photometric import _draws
    images = vahadane_images()
    images[3] = 255  # no density anywhere: the factorisation has no rows, the sample is left alone
    seed = tf.constant([7, 8], tf.int64)
    out = he_stain(images, "vahadane", intensity_scale_range=(0.6, 1.4), probability=1.0, seed=seed).numpy()
    _, _, (_, s_scale, s_shift, _) = _draws(tf.constant(images), seed, 4)
    scale = tf.random.stateless_uniform([4, 2], s_scale, 0.6, 1.4).numpy()
    shift = tf.random.stateless_uniform([4, 2], s_shift, -0.2, 0.2).numpy()
    fitted, ok = vahadane_stain_matrices(images)
    assert ok.numpy().tolist() == [True, True, True, False]
    for i in range(3):
        _close(out[i], numpy_he_stain(images[i], fitted[i].numpy(), scale[i], shift[i], False), i)
    np.testing.assert_array_equal(out[3], images[3])
    t = tga.HEStain("vahadane", probability=1.0, seed=3)
    assert (t(images[:3]).numpy() != images[:3]).mean() > 0.3
    for shape in [(0, 12, 16, 3), (2, 0, 16, 3)]:
        empty = np.full(shape, 60, np.uint8)
        np.testing.assert_array_equal(he_stain(empty, "vahadane", probability=1.0, seed=1).numpy(), empty)


def test_rebuild_tables_give_numpys_rounding_of_the_exponential():
    """The HeStain op's byte for an exponent x: the count of thresholds ln(255 / (v - 0.5)) at or
    above x, read from the cell of x and one comparison, as the op reads it; against
    clip(rint(255 exp(-x)), 0, 255) on 2 million exponents from -0.5 to 7."""
    thresholds, cells = rebuild_tables()
    x = np.linspace(-0.5, 7.0, 2_000_001)
    at = np.clip(np.floor(x * 512), 0, len(cells) - 1).astype(int)
    count = cells[at].astype(int)
    count -= (count > 0) & (x > thresholds[np.maximum(count - 1, 0)])
    count = np.where(x < 0, 255, np.where(x * 512 >= len(cells), 0, count))
    np.testing.assert_array_equal(count, np.clip(np.rint(255 * np.exp(-x)), 0, 255))
    assert np.all(np.diff(thresholds) < -1 / 512)  # a cell holds at most one threshold
