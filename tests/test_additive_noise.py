"""AdditiveNoise (Albumentations' AdditiveNoise): the distribution of the output levels against
the exact law of clip(v + trunc(noise)) from each family's closed-form CDF (numpy's beta draws
for beta), Albumentations' own transform where installed, the truncation rule exactly, the
spatial modes, probability, inference and the refusals."""
import math

import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug.augment.additive_noise import additive_noise

LEVEL = 100  # the flat test image's level: noise of +-100 levels stays unsaturated
K = np.arange(-600, 601)


def _cdf(noise_type, params):
    """The CDF of the noise in levels, for fixed parameters (a degenerate range each)."""
    if noise_type == "uniform":
        lo, hi = (255.0 * v for v in params["ranges"][0])
        return lambda x: np.clip((x - lo) / (hi - lo), 0.0, 1.0)
    mean = 255.0 * params["mean_range"][0]
    if noise_type == "gaussian":
        std = 255.0 * params["std_range"][0]
        return np.vectorize(lambda x: 0.5 * (1.0 + math.erf((x - mean) / (std * math.sqrt(2.0)))))
    scale = 255.0 * params["scale_range"][0]
    return lambda x: np.where(x < mean, 0.5 * np.exp(np.minimum(x - mean, 0) / scale),
                              1.0 - 0.5 * np.exp(-np.maximum(x - mean, 0) / scale))


def _pmf_from_cdf(cdf, level=LEVEL):
    """P(clip(level + trunc(X), 0, 255) = j), j = 0..255: trunc(X) = k takes X in [k, k + 1) for
    k >= 1, (k - 1, k] for k <= -1 and (-1, 1) for 0."""
    f = lambda x: cdf(np.asarray(x, np.float64))  # noqa: E731
    p = np.where(K > 0, f(K + 1.0) - f(K), np.where(K < 0, f(K) - f(K - 1.0), f(1.0) - f(-1.0)))
    p = p.astype(np.float64)
    p[0] += f(K[0] - 1.0)
    p[-1] += 1.0 - f(K[-1] + 1.0)
    out = np.zeros(256)
    np.add.at(out, np.clip(level + K, 0, 255), p)
    return out


def _pmf_from_samples(noise):
    out = np.zeros(256)
    np.add.at(out, np.clip(LEVEL + np.trunc(noise).astype(np.int64), 0, 255), 1.0)
    return out / out.sum()


def _histogram(values):
    return np.bincount(values.ravel(), minlength=256) / values.size


def _tv(p, q):
    return 0.5 * np.abs(p - q).sum()


FIXED = {
    "uniform": {"ranges": [(-0.03, 0.02)]},
    "gaussian": {"mean_range": (0.004, 0.004), "std_range": (0.02, 0.02)},
    "laplace": {"mean_range": (-0.006, -0.006), "scale_range": (0.015, 0.015)},
}


def _flat(h=256, w=256, c=3, level=LEVEL, batch=1):
    return tf.constant(np.full((batch, h, w, c), level, np.uint8))


@pytest.mark.parametrize("noise_type", ["uniform", "gaussian", "laplace"])
@pytest.mark.parametrize("spatial_mode", ["per_pixel", "shared"])
def test_levels_follow_the_exact_law(noise_type, spatial_mode):
    """The fused stage's output levels on a flat image follow clip(v + trunc(X)) for X of the
    family's law (total variation under 0.02 over 65536 or 196608 values; a rounded add moves
    it past 0.04, see below)."""
    out = additive_noise(_flat(), noise_type, spatial_mode, FIXED[noise_type], probability=1.0, seed=7).numpy()
    values = out[..., 0] if spatial_mode == "shared" else out
    assert _tv(_histogram(values), _pmf_from_cdf(_cdf(noise_type, FIXED[noise_type]))) < 0.02
    if spatial_mode == "shared":  # one value a pixel for all its channels
        np.testing.assert_array_equal(out[..., 0], out[..., 2])
    else:  # channels drawn apart
        assert (out[..., 0] != out[..., 1]).mean() > 0.5


def test_rounding_would_be_seen():
    """The law above tells truncation from rounding: the rounded add's law is more than 0.04
    away at the deviations used (so the test above can fail)."""
    for noise_type in ("uniform", "gaussian", "laplace"):
        cdf = _cdf(noise_type, FIXED[noise_type])
        rounded = np.zeros(256)
        np.add.at(rounded, np.clip(LEVEL + K, 0, 255), cdf(K + 0.5) - cdf(K - 0.5))
        assert _tv(rounded, _pmf_from_cdf(cdf)) > 0.04, noise_type


@pytest.mark.parametrize("spatial_mode", ["per_pixel", "shared"])
def test_beta_noise_against_numpy_draws(spatial_mode):
    """Beta noise (2 b - 1) scale 255 (whole shifts drawn by inverting their law) against
    numpy's beta draws with the same fixed parameters, through the same truncated add (total
    variation under 0.03)."""
    params = {"alpha_range": (0.7, 0.7), "beta_range": (1.4, 1.4), "scale_range": (0.3, 0.3)}
    out = additive_noise(_flat(), "beta", spatial_mode, params, probability=1.0, seed=3).numpy()
    reference = (2.0 * np.random.default_rng(0).beta(0.7, 1.4, 300000) - 1.0) * 0.3 * 255.0
    assert _tv(_histogram(out[..., 0]), _pmf_from_samples(reference)) < 0.03
    if spatial_mode == "shared":
        np.testing.assert_array_equal(out[..., 0], out[..., 1])


@pytest.mark.parametrize("noise_type", ["uniform", "gaussian", "laplace", "beta"])
def test_constant_mode_one_shift_per_channel(noise_type):
    """constant: every pixel of a channel moves by the same whole number of levels; over many
    samples the shifts follow the law (uniform: its per-channel ranges)."""
    params = dict(FIXED.get(noise_type, {"alpha_range": (2.0, 2.0), "beta_range": (2.0, 2.0),
                                         "scale_range": (0.2, 0.2)}))
    if noise_type == "uniform":
        params = {"ranges": [(-0.2, -0.1), (0.0, 0.05), (0.1, 0.3)]}
    images = tf.constant(np.random.default_rng(1).integers(80, 170, (4000, 4, 5, 3), dtype=np.uint8))
    out = additive_noise(images, noise_type, "constant", params, probability=1.0, seed=11).numpy().astype(int)
    shifts = out - images.numpy().astype(int)
    np.testing.assert_array_equal(shifts, np.broadcast_to(shifts[:, :1, :1, :], shifts.shape))
    if noise_type == "uniform":
        for k, (lo, hi) in enumerate(params["ranges"]):
            law = _pmf_from_cdf(_cdf("uniform", {"ranges": [(lo, hi)]}))
            assert _tv(_histogram(np.clip(LEVEL + shifts[:, 0, 0, k], 0, 255)), law) < 0.05, k
    elif noise_type != "beta":
        law = _pmf_from_cdf(_cdf(noise_type, params))
        assert _tv(_histogram(np.clip(LEVEL + shifts[:, 0, 0, :], 0, 255)), law) < 0.05
    else:
        reference = (2.0 * np.random.default_rng(0).beta(2.0, 2.0, 100000) - 1.0) * 0.2 * 255.0
        assert _tv(_histogram(np.clip(LEVEL + shifts[:, 0, 0, :], 0, 255)), _pmf_from_samples(reference)) < 0.05


@pytest.mark.parametrize("channels", [1, 4])
def test_constant_mode_other_channel_counts(channels):
    """1- and 4-channel images (TensorFlow's add): every channel, alpha too, as Albumentations."""
    images = _flat(8, 8, channels, batch=64)
    out = additive_noise(images, "uniform", "constant", {"ranges": [(0.1, 0.1)]}, probability=1.0, seed=2).numpy()
    np.testing.assert_array_equal(out, np.full_like(out, LEVEL + 25))  # 25.5 levels truncated


@pytest.mark.parametrize("spatial_mode", ["per_pixel", "shared", "constant"])
@pytest.mark.parametrize("sign", [1, -1])
def test_noise_truncates_toward_zero_and_saturates(spatial_mode, sign):
    """A fixed noise of +-25.5 levels moves every byte by 25 toward the noise's sign, saturating
    (Albumentations' uint8 add: trunc, then cv2.add)."""
    images = tf.constant(np.array([[[[0, 100, 250]]]], np.uint8).repeat(6, 1).repeat(7, 2))
    out = additive_noise(images, "uniform", spatial_mode, {"ranges": [(sign * 0.1, sign * 0.1)]},
                         probability=1.0, seed=5).numpy()
    expected = np.clip(images.numpy().astype(int) + sign * 25, 0, 255)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("noise_type, params", [
    ("uniform", {"ranges": [(-0.3, 0.3)]}),
    ("beta", {"alpha_range": (1.0, 1.0), "beta_range": (1.0, 1.0), "scale_range": (0.3, 0.3)}),  # uniform too
])
def test_approximation_draws_coarse_noise(noise_type, params):
    """approximation 0.25: the noise drawn on a 16x16 grid and resized bilinearly to 64x64 is
    smooth (neighbours far closer than independent draws) and within the range."""
    out = additive_noise(_flat(64, 64), noise_type, "per_pixel", params, approximation=0.25,
                         probability=1.0, seed=9).numpy().astype(int)
    noise = out - LEVEL
    assert np.abs(noise).max() <= 77
    step = np.abs(np.diff(noise, axis=2)).mean()
    assert step < 15, step  # independent draws: about 51 levels apart on average; this grid: about 13
    assert noise.std() > 10


def test_against_albumentations_where_installed():
    """Albumentations' AdditiveNoise on the same flat image: the output levels' laws within 0.03."""
    A = pytest.importorskip("albumentations")
    image = np.full((128, 128, 3), LEVEL, np.uint8)
    for noise_type, mode in (("gaussian", "per_pixel"), ("laplace", "shared"), ("uniform", "per_pixel")):
        transform = A.AdditiveNoise(noise_type=noise_type, spatial_mode=mode, noise_params=FIXED[noise_type], p=1.0)
        transform.set_random_seed(0)
        theirs = np.concatenate([transform(image=image)["image"][..., 0] for _ in range(4)])
        ours = additive_noise(_flat(128, 128, batch=4), noise_type, mode, FIXED[noise_type], probability=1.0,
                              seed=1).numpy()[..., 0]
        assert _tv(_histogram(ours), _histogram(theirs)) < 0.03, (noise_type, mode)


def test_probability_and_inference():
    images = _flat(6, 6, batch=2000)
    out = additive_noise(images, "gaussian", "per_pixel", probability=0.3, seed=4).numpy()
    changed = (out != LEVEL).any(axis=(1, 2, 3))
    assert 0.25 < changed.mean() < 0.35
    layer = tga.AdditiveNoise("gaussian", "per_pixel", probability=1.0, seed=1)
    np.testing.assert_array_equal(layer(images[:3], training=False).numpy(), images[:3].numpy())
    assert (layer(images[:3]).numpy() != LEVEL).any()


def test_transform_config_round_trip():
    t = tga.AdditiveNoise("laplace", "shared", {"mean_range": (0.0, 0.1), "scale_range": (0.05, 0.1)},
                          probability=0.7, seed=3)
    again = tga.AdditiveNoise(**t.get_config())
    assert again.get_config() == t.get_config()
    images = _flat(9, 9, batch=4)
    np.testing.assert_array_equal(t(images, seed=[1, 2]).numpy(), again(images, seed=[1, 2]).numpy())


@pytest.mark.parametrize("kwargs, message", [
    (dict(noise_type="pink"), "noise_type must be one of"),
    (dict(spatial_mode="tiled"), "spatial_mode must be one of"),
    (dict(noise_params={"ranges": [(-2, 0.1)]}), "within [-1.0, 1.0]"),
    (dict(noise_params={"ranges": [(0.2, 0.1)]}), "min <= max"),
    (dict(noise_params={"ranges": []}), "non-empty list"),
    (dict(noise_type="gaussian", noise_params={"std_range": (0.1, 0.2)}), "keys ['mean_range', 'std_range']"),
    (dict(noise_type="gaussian", noise_params={"mean_range": (0, 0), "std_range": (0.1, 2.0)}), "std_range"),
    (dict(noise_type="beta", noise_params={"alpha_range": (0, 1), "beta_range": (1, 1),
                                           "scale_range": (0.1, 0.2)}), "alpha_range"),
    (dict(noise_type="laplace", noise_params={"mean_range": (0, 0), "scale_range": (0.1, 0.2),
                                              "noise_type": "beta"}), "another noise_type"),
    (dict(approximation=1.5), "approximation must be in [0, 1]"),
    (dict(probability=2.0), "probability"),
])
def test_refusals(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")
                       .replace(")", r"\)")):
        tga.AdditiveNoise(**kwargs)


def test_too_few_ranges_for_the_channels():
    with pytest.raises(ValueError, match="2 ranges for 3 channels"):
        additive_noise(_flat(4, 4), "uniform", "constant", {"ranges": [(0, 0.1), (0, 0.2)]}, seed=1)
    with pytest.raises(ValueError, match="uint8"):
        tga.AdditiveNoise()(tf.zeros([1, 4, 4, 3]))


@pytest.mark.parametrize("name, top", [("uniform_noise", 25.0), ("laplace_noise", 10.0)])
def test_policies_draw_the_noise_stages_by_magnitude(name, top):
    """The registry's uniform_noise (half width 0 .. 25 levels) and laplace_noise (scale 0 ..
    10): the top bin's parameter is the top of the range and moves bytes by its mean absolute
    value (12.5 and 10 levels, less the truncation and saturation); bin 0 is the identity (the
    location, under one level, truncates away)."""
    x = tf.constant(np.random.default_rng(2).integers(40, 216, (8, 32, 32, 3), dtype=np.uint8))
    changes = {}
    for magnitude in (0, 30):
        out, _, params = tga.augment.rand_augment(x, num_ops=1, magnitude=magnitude, augmentations=[name], seed=5,
                                                  return_plan=True)
        np.testing.assert_allclose(params.numpy(), top * magnitude / 30, rtol=1e-6)
        changes[magnitude] = np.abs(out.numpy().astype(np.int64) - x.numpy()).mean()
    assert changes[0] == 0 and top * 0.4 < changes[30] < top * 0.6 + (0 if name == "uniform_noise" else 5), changes
