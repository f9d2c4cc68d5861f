"""PlanckianJitter (Albumentations' PlanckianJitter): the illuminant gains against Albumentations'
own interpolation, the op's bytes against Albumentations' function at the sample's temperature,
the temperature draws' law against the samplers' definition, probability, inference, RGBA and the
refusals."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug.augment.planckian_jitter import _temperatures, planckian_gains, planckian_jitter


@pytest.fixture
def AF():
    """Albumentations' functions, the reference where it is installed (a test-only dependency)."""
    return pytest.importorskip("albumentations.augmentations.pixel.functional")



def _ramp(batch, channels=3):
    """Every level in every channel: a 16 x 16 image whose pixel i has level i in each channel,
    so an output shows the whole lookup table of each channel."""
    levels = np.arange(256, dtype=np.uint8).reshape(16, 16, 1)
    return np.broadcast_to(levels, (batch, 16, 16, channels)).copy()


@pytest.mark.parametrize("mode, low", [("blackbody", 3000), ("cied", 4000)])
def test_gains_equal_albumentations_interpolation(mode, low, AF):
    """The float32 products from the interpolated gains equal Albumentations' bytes at every
    temperature tried (every 37 K, the table's own rows, both ends)."""
    temps = np.unique(np.concatenate([np.arange(low, 15001, 37), np.arange(low, 15001, 500), [14999, 15000]]))
    gains = planckian_gains(tf.constant(temps, tf.float64), mode).numpy()
    image = _ramp(1)[0]
    for t, g in zip(temps, gains):
        factors = (g / g[1]).astype(np.float32)
        ours = np.clip(image.astype(np.float32) * factors, 0, 255).astype(np.uint8)
        np.testing.assert_array_equal(ours, AF.planckian_jitter(image, int(t), mode=mode), err_msg=str(t))


@pytest.mark.parametrize("mode, limits, sampling", [("blackbody", None, "uniform"), ("cied", (5000, 9000), "gaussian")])
def test_op_equals_albumentations_at_the_drawn_temperature(mode, limits, sampling, AF):
    """Each sample's bytes are Albumentations' output at one whole-kelvin temperature within the
    limits (found by matching the red and blue tables: the gains are strictly monotonic in the
    temperature), green unchanged."""
    x = _ramp(24)
    out = planckian_jitter(tf.constant(x), mode, limits, sampling, probability=1.0, seed=8).numpy()
    low, high = limits or ((3000 if mode == "blackbody" else 4000), 15000)
    candidates = {}
    for t in range(low, high + 1):
        key = AF.planckian_jitter(x[0], t, mode=mode).tobytes()
        candidates.setdefault(key, t)
    for i in range(len(x)):
        np.testing.assert_array_equal(out[i, ..., 1], x[i, ..., 1])
        assert out[i].tobytes() in candidates, f"sample {i} matches no temperature in [{low}, {high}]"


def test_temperature_law():
    """Albumentations' samplers: below 6000 K with probability 0.4; uniform on each side; or
    half-normal from 6000 K with a third of the side's span as deviation (clipped)."""
    n = 200_000
    seeds = tf.unstack(tf.random.experimental.stateless_split([3, 4], 2))
    t = _temperatures(n, (3000, 15000), "uniform", seeds).numpy()
    warm = t < 6000
    assert abs(warm.mean() - 0.4) < 0.006
    assert t.min() >= 3000 and t.max() <= 15000 and np.all(t == np.floor(t))
    # uniform on each side: deciles of each side against the uniform's
    for side, (a, b) in ((t[warm], (3000, 6000)), (t[~warm], (6000, 15000))):
        q = np.quantile(side, np.linspace(0.1, 0.9, 9))
        np.testing.assert_allclose(q, a + (b - a) * np.linspace(0.1, 0.9, 9), atol=0.01 * (b - a))
    g = _temperatures(n, (4000, 15000), "gaussian", seeds).numpy()
    warm = g < 6000
    assert abs(warm.mean() - 0.4) < 0.006
    # half-normal deviations: the median of |N(0, s)| is 0.6745 s (s = 2000 / 3 and 9000 / 3)
    assert abs(np.median(6000 - g[warm]) - 0.6745 * 2000 / 3) < 10
    assert abs(np.median(g[~warm] - 6000) - 0.6745 * 3000) < 40
    assert g.min() >= 4000 and g.max() <= 15000


def test_rgba_keeps_alpha_and_probability_and_inference():
    x = _ramp(600, channels=4)
    out = planckian_jitter(tf.constant(x), probability=0.3, seed=2).numpy()
    np.testing.assert_array_equal(out[..., 3], x[..., 3])
    np.testing.assert_array_equal(out[..., 1], x[..., 1])
    changed = (out != x).any(axis=(1, 2, 3))
    assert 0.24 < changed.mean() < 0.36
    layer = tga.PlanckianJitter(probability=1.0, seed=1)
    np.testing.assert_array_equal(layer(tf.constant(x[:3]), training=False).numpy(), x[:3])
    assert (layer(tf.constant(x[:3])).numpy() != x[:3]).any()


def test_transform_config_round_trip():
    t = tga.PlanckianJitter("cied", (4500, 12000), "gaussian", probability=0.6, seed=5)
    again = tga.PlanckianJitter(**t.get_config())
    assert again.get_config() == t.get_config()
    x = tf.constant(_ramp(4))
    np.testing.assert_array_equal(t(x, seed=[1, 2]).numpy(), again(x, seed=[1, 2]).numpy())


@pytest.mark.parametrize("kwargs, message", [
    (dict(mode="tungsten"), "mode must be 'blackbody' or 'cied'"),
    (dict(sampling_method="beta"), "sampling_method must be"),
    (dict(temperature_limit=(2000, 9000)), r"must lie in \[3000, 15000\]"),
    (dict(mode="cied", temperature_limit=(3500, 9000)), r"must lie in \[4000, 15000\]"),
    (dict(temperature_limit=(7000, 9000)), "must contain 6000 K"),
    (dict(temperature_limit=(9000, 5000)), "low <= high"),
    (dict(probability=1.5), "probability"),
])
def test_refusals(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tga.PlanckianJitter(**kwargs)


def test_gray_images_refused():
    with pytest.raises(ValueError, match="RGB or RGBA"):
        planckian_jitter(tf.zeros([1, 4, 4, 1], tf.uint8), seed=1)
