"""PixelDistributionAdaptation (issue 36; Albumentations' transform of that name, as its code
intends). Against a numpy statement of the three maps (fit to the image and to the reference on
levels / 255, through the image's map and back through the reference's inverse, blend, round);
the adapted image takes on the reference's mean (and deviations, or keeps its own spread
rotated onto the reference's axes for PCA); the documented Albumentations 2.0.8
defect (its output is the image times 1 - weight) checked where it is installed; probability,
config and refusals."""
import importlib

import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga

pda = importlib.import_module("tfgpuaug.augment.pixel_distribution")


def numpy_adapt(img, ref, kind, weight):
    x = img.reshape(-1, img.shape[-1]).astype(np.float64) / 255
    t = ref.reshape(-1, ref.shape[-1]).astype(np.float64) / 255
    if kind == "standard":
        sd_x, sd_t = x.std(0), t.std(0)
        sd_x[sd_x == 0] = 1
        sd_t[sd_t == 0] = 1
        y = (x - x.mean(0)) / sd_x * sd_t + t.mean(0)
    elif kind == "minmax":
        rx, rt = x.max(0) - x.min(0), t.max(0) - t.min(0)
        rx[rx == 0] = 1
        rt[rt == 0] = 1
        y = (x - x.min(0)) / rx * rt + t.min(0)
    else:
        def axes(p):
            w, v = np.linalg.eigh(np.cov(p, rowvar=False, bias=True))
            rows = v.T[::-1]
            return rows * np.sign(rows[np.arange(len(rows)), np.abs(rows).argmax(1)])[:, None]
        vx, vt = axes(x), axes(t)
        vt = vt * np.where((vx * vt).sum(1) >= 0, 1, -1)[:, None]
        y = (x - x.mean(0)) @ vx.T @ vt + t.mean(0)
    out = (1 - weight) * img.reshape(-1, img.shape[-1]) + weight * 255 * y
    return np.clip(np.rint(out), 0, 255).astype(np.uint8).reshape(img.shape)


def photos(n, h, w, seed, tint=(1.0, 1.0, 1.0)):
    rng = np.random.default_rng(seed)
    coarse = rng.uniform(0, 255, (n, h // 4 + 2, w // 4 + 2, 3)).astype(np.float32)
    smooth = tf.image.resize(coarse, (h, w), "bicubic").numpy() * np.array(tint, np.float32)
    return np.clip(smooth + rng.normal(0, 6, (n, h, w, 3)), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("kind", ["standard", "minmax", "pca"])
@pytest.mark.parametrize("weight", [1.0, 0.4])
def test_equals_numpy_statement(kind, weight):
    images = photos(4, 24, 28, seed=1)
    bank = photos(1, 20, 18, seed=2, tint=(0.6, 0.9, 0.3))
    out = pda.pixel_distribution_adaptation(tf.constant(images), bank, (weight, weight), kind, 1.0, seed=3).numpy()
    for i in range(4):
        want = numpy_adapt(images[i], bank[0], kind, weight)
        diff = np.abs(out[i].astype(int) - want)
        assert diff.max() <= 1 and (diff == 0).mean() >= 0.995, (kind, diff.max(), (diff == 0).mean())


@pytest.mark.parametrize("kind", ["standard", "pca"])
def test_adapted_images_take_the_reference_statistics(kind):
    images = (photos(3, 40, 40, seed=4) // 3 + 80).astype(np.uint8)
    # a reference well inside 0..255, so that saturation does not move the statistics
    bank = (photos(1, 40, 40, seed=5, tint=(0.5, 0.8, 0.3)) // 2 + 60).astype(np.uint8)
    out = pda.pixel_distribution_adaptation(tf.constant(images), bank, (1.0, 1.0), kind, 1.0, seed=1).numpy()
    ref = bank[0].reshape(-1, 3).astype(float)
    for i in range(3):
        got = out[i].reshape(-1, 3).astype(float)
        np.testing.assert_allclose(got.mean(0), ref.mean(0), atol=1.5)
        if kind == "standard":
            np.testing.assert_allclose(got.std(0), ref.std(0), rtol=0.05, atol=0.5)
        else:  # a rotation onto the reference's axes: the image's own spread (eigenvalues) kept
            own = images[i].reshape(-1, 3).astype(float)
            np.testing.assert_allclose(np.linalg.eigvalsh(np.cov(got, rowvar=False)),
                                       np.linalg.eigvalsh(np.cov(own, rowvar=False)), rtol=0.05, atol=2.0)


def test_albumentations_2_0_8_defect_is_as_documented():
    A = pytest.importorskip("albumentations")
    from albumentations.augmentations.mixing import domain_adaptation_functional as F
    if A.__version__ != "2.0.8":
        pytest.skip("the statement is about 2.0.8")
    img, ref = photos(1, 20, 24, seed=6)[0], photos(1, 20, 24, seed=7)[0]
    for weight in (1.0, 0.5):
        out = F.adapt_pixel_distribution(img, ref, "standard", weight)
        # its adapted levels (0..1) blended with the image (0..255): about img (1 - weight)
        assert np.abs(out.astype(float) - img * (1 - weight)).max() <= 1.0


def test_probability_config_and_refusals():
    images = tf.constant(photos(100, 12, 12, seed=8))
    bank = photos(2, 12, 12, seed=9, tint=(0.5, 1.0, 0.5))
    t = tga.PixelDistributionAdaptation(bank, probability=0.3, seed=4)
    changed = (t(images).numpy() != images.numpy()).any(axis=(1, 2, 3))
    assert 15 <= changed.sum() <= 45, changed.sum()
    np.testing.assert_array_equal(t(images, training=False).numpy(), images.numpy())
    again = tga.PixelDistributionAdaptation(**t.get_config())
    assert again.get_config() == t.get_config()
    with pytest.raises(ValueError, match="transform_type"):
        tga.PixelDistributionAdaptation(bank, transform_type="zca")
    with pytest.raises(ValueError, match="blend_ratio"):
        tga.PixelDistributionAdaptation(bank, blend_ratio=(0.5, 1.5))
    with pytest.raises(ValueError, match="channels"):
        tga.PixelDistributionAdaptation(bank[..., :1])(images)
