"""ShotNoise (the fused kernel's shot_noise stage, issue 36; Albumentations' transform of that
name): the kernel against Albumentations' rule restated in numpy (float64 powers, the kernel's
own uniforms regenerated from the seed with a numpy port of its counter hash: inversion below a
mean of 12, the rounded normal approximation above), the output's statistics against numpy's
own Poisson sampler on the same rule, against Albumentations 2.0.8 itself where installed, and
the transform's probability, inference and refusals."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug.augment import ops

SHOT_NOISE = ops.OP_IDS["shot_noise"]


def rule(img, scale, counts):
    """Albumentations' ShotNoise after the counts: count * scale clipped to [0, 1], ^(1 / 2.2),
    times 255, rounded."""
    noisy = np.clip(counts * scale, 0, 1)
    return np.clip(np.rint(noisy ** (1 / 2.2) * 255), 0, 255).astype(np.uint8)


def means(img, scale):
    linear = (img.astype(np.float64) / 255) ** 2.2
    return (linear + scale * 1e-6) / scale


@pytest.mark.parametrize("scale", [0.3, 0.05, 0.004])
@pytest.mark.parametrize("channels", [1, 3, 4])
def test_kernel_is_the_rule_on_its_own_uniforms(scale, channels):
    """Equal bytes but where a float32 CDF step or power lands within rounding of a boundary
    (at most 0.2% of bytes); scales 0.05 and 0.004 put bright pixels' means above 12 (the
    normal approximation), 0.3 every mean below it (inversion). The CPU loop here; the per-pixel
    function the GPU runs gives the same bytes (tests/test_kernels_module.py)."""
    img = fixtures.photo(48, 40, channels=channels, seed=channels)
    aux0 = 0.37
    seed = int(np.float32(aux0) * np.float32(4294967040.0))
    e = np.arange(img.size)
    lam = means(img, scale).reshape(-1)
    u1 = fixtures.hash_uniform(seed, 2 * e)
    u2 = fixtures.hash_uniform(seed, 2 * e + 1)
    exact = fixtures.poisson_counts(u1, np.minimum(lam, 11.9)).astype(np.float64)
    z = np.sqrt(-2 * np.log(u1.astype(np.float64))) * np.cos(2 * np.pi * u2.astype(np.float64))
    approx = np.maximum(np.floor(lam + np.sqrt(lam) * z + 0.5), 0)
    counts = np.where(lam < 12, exact, approx).reshape(img.shape)
    ref = rule(img, scale, counts)
    got = ops.apply_stages(img[None], [[SHOT_NOISE]], [[scale]], [[[aux0, 0.0]]]).numpy()[0]
    assert (got == ref).mean() > 0.998, (got != ref).sum()
    assert (lam >= 12).any() == (scale < 1 / 12)  # bright pixels above the inversion limit
    assert (ref != img).mean() > 0.3  # the noise is there


@pytest.mark.parametrize("scale", [0.2, 0.01])
def test_statistics_match_numpys_poisson_sampler(scale):
    """Per input level, the mean and deviation of the output over 64x64x3 bytes against the
    same rule with numpy's Poisson sampler (4 standard errors; the deviation to 10%)."""
    levels = np.array([0, 10, 60, 128, 200, 255], np.uint8)
    img = np.repeat(levels, 64 * 64 * 3).reshape(len(levels), 64, 64, 3)
    out = tga.ShotNoise((scale, scale), probability=1.0)(img, seed=[3, 4]).numpy().astype(np.float64)
    rng = np.random.default_rng(0)
    ref = rule(img, scale, rng.poisson(means(img, scale))).astype(np.float64)
    for i, level in enumerate(levels):
        ours, theirs = out[i].ravel(), ref[i].ravel()
        se = np.sqrt(ours.var() / ours.size + theirs.var() / theirs.size) + 1e-9
        assert abs(ours.mean() - theirs.mean()) < 4 * se + 0.02, (level, ours.mean(), theirs.mean())
        assert abs(ours.std() - theirs.std()) <= 0.1 * theirs.std() + 0.05, (level, ours.std(), theirs.std())


def test_matches_albumentations_statistics_where_installed():
    A = pytest.importorskip("albumentations")
    img = np.stack([fixtures.photo(64, 64, seed=s) for s in range(4)])
    for scale in (0.25, 0.02):
        ours = tga.ShotNoise((scale, scale), probability=1.0)(img, seed=[5, 6]).numpy().astype(np.float64)
        shot = A.ShotNoise(scale_range=(scale, scale), p=1.0)
        shot.set_random_seed(0)
        theirs = np.stack([shot(image=i)["image"] for i in img])
        theirs = theirs.astype(np.float64)
        # the mean change (4 standard errors) and spread (5%) of the noise over the same pixels
        diff_ours, diff_theirs = ours - img, theirs - img
        se = np.sqrt((diff_ours.var() + diff_theirs.var()) / diff_ours.size)
        assert abs(diff_ours.mean() - diff_theirs.mean()) < 4 * se, (scale, diff_ours.mean(), diff_theirs.mean())
        assert abs(diff_ours.std() - diff_theirs.std()) < 0.05 * diff_theirs.std(), scale


def test_probability_alpha_inference_and_refusals():
    img = np.repeat(fixtures.photo(16, 16, channels=4, seed=1)[None], 200, axis=0)
    out = tga.ShotNoise((0.2, 0.3), probability=0.3)(img, seed=[7, 8]).numpy()
    changed = (out != img).reshape(200, -1).any(1)
    assert 0.2 < changed.mean() < 0.4
    assert (out[changed][..., 3] != img[changed][..., 3]).any()  # alpha too, as Albumentations
    np.testing.assert_array_equal(tga.ShotNoise(probability=1.0)(img[:2], training=False), img[:2])
    with pytest.raises(ValueError, match="scale_range"):
        tga.ShotNoise((0.0, 0.3))
    with pytest.raises(ValueError, match="scale_range"):
        tga.ShotNoise((0.3, 0.1))
    with pytest.raises(ValueError, match="probability"):
        tga.ShotNoise(probability=1.5)
    with pytest.raises(TypeError, match="uint8"):
        tga.ShotNoise()(tf.zeros([1, 4, 4, 3]))


def test_policies_draw_shot_noise_by_magnitude():
    """The registry's shot_noise takes scale 0 .. 0.3 over the magnitude bins: the top bin is
    scale 0.3 (heavy noise); bin 0 is kept at the kernel's least scale, 1e-4 (about a level)."""
    x = tf.constant(np.stack([fixtures.photo(32, 32, seed=s) for s in range(8)]))
    changes = {}
    for magnitude in (0, 30):
        out, _, params = tga.augment.rand_augment(x, num_ops=1, magnitude=magnitude, augmentations=["shot_noise"],
                                                  seed=5, return_plan=True)
        np.testing.assert_allclose(params.numpy(), 0.3 * magnitude / 30, rtol=1e-6)
        changes[magnitude] = np.abs(out.numpy().astype(np.int64) - x.numpy()).mean()
    assert changes[0] < 2 and changes[30] > 10, changes
