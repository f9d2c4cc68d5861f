"""MultiplicativeNoise against Albumentations' rule restated in numpy (float32 product, clipped,
truncated: exact) for all four factor shapes, against Albumentations 2.0.8 itself with fixed
factors where installed, and the draws' range and per-sample probability."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga


def photos(n=4, h=9, w=11):
    return np.stack([fixtures.photo(h, w, seed=s) for s in range(n)])


@pytest.mark.parametrize("factor", [0.5, 1.07, 1.9, 0.0])
@pytest.mark.parametrize("per_channel, elementwise", [(False, False), (True, False), (False, True), (True, True)])
def test_a_fixed_factor_is_the_numpy_rule(factor, per_channel, elementwise):
    images = photos()
    out = tga.MultiplicativeNoise(factor, per_channel, elementwise, probability=1.0)(images, seed=1).numpy()
    expected = np.clip(images.astype(np.float32) * np.float32(factor), 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("per_channel, elementwise", [(False, False), (True, False), (False, True), (True, True)])
def test_drawn_factors_have_the_right_shape_and_range(per_channel, elementwise):
    """Images of a constant 100 (no clipping) show each factor: its spread across channels and
    pixels says where it was drawn, and every value lies in [100 * 0.8, 100 * 1.2]."""
    images = np.full((6, 8, 10, 3), 100, np.uint8)
    out = tga.MultiplicativeNoise((0.8, 1.2), per_channel, elementwise, probability=1.0)(images, seed=3).numpy()
    assert out.min() >= 80 and out.max() <= 120
    varies_across_channels = (out.std(axis=3) > 0).any()
    varies_across_pixels = (out.reshape(6, -1, 3).std(axis=1) > 0).any()
    assert varies_across_channels == per_channel
    assert varies_across_pixels == elementwise
    assert len(np.unique(out[:, 0, 0, 0])) > 1  # a draw per sample


def test_probability_and_inference():
    images = np.repeat(photos(1), 300, axis=0)
    out = tga.MultiplicativeNoise((1.5, 1.6), probability=0.25)(images, seed=4).numpy()
    changed = np.array([not np.array_equal(o, images[0]) for o in out])
    assert 0.18 < changed.mean() < 0.32, changed.mean()  # 300 draws: sd 0.025
    np.testing.assert_array_equal(tga.MultiplicativeNoise(probability=1.0)(images[:2], training=False), images[:2])


def test_matches_albumentations_where_installed():
    A = pytest.importorskip("albumentations")
    image = fixtures.photo(13, 17, seed=2)
    for factor in (0.7, 1.13):
        for per_channel, elementwise in ((False, False), (True, False), (False, True), (True, True)):
            theirs = A.MultiplicativeNoise(multiplier=(factor, factor), per_channel=per_channel,
                                           elementwise=elementwise, p=1.0)(image=image)["image"]
            ours = tga.MultiplicativeNoise(factor, per_channel, elementwise, probability=1.0)(image[None], seed=1)
            np.testing.assert_array_equal(ours.numpy()[0], theirs, err_msg=f"{factor} {per_channel} {elementwise}")


def test_the_function_is_the_transform_and_every_channel_is_scaled():
    """`augment.multiplicative_noise` draws what the transform draws; on RGBA the per-pixel factor
    scales alpha too (Albumentations multiplies every channel): a constant 100 image shows one
    factor a pixel across all four channels."""
    images = np.full((3, 6, 7, 4), 100, np.uint8)
    ours = tga.MultiplicativeNoise((0.5, 1.5), elementwise=True, probability=1.0)(images, seed=[5, 6]).numpy()
    np.testing.assert_array_equal(
        tga.augment.multiplicative_noise(images, (0.5, 1.5), elementwise=True, probability=1.0, seed=[5, 6]), ours)
    np.testing.assert_array_equal(ours, np.repeat(ours[..., :1], 4, axis=-1))
    assert len(np.unique(ours)) > 20


def test_bad_arguments_and_inputs():
    with pytest.raises(ValueError, match="multiplier must be"):
        tga.MultiplicativeNoise((1.2, 0.8))
    with pytest.raises(ValueError, match="multiplier must be"):
        tga.MultiplicativeNoise(-0.5)
    with pytest.raises(ValueError, match="takes uint8 images"):
        tga.MultiplicativeNoise()(tf.zeros([1, 4, 4, 3]))
    with pytest.raises(ValueError, match="1, 3 or 4 channels"):
        tga.MultiplicativeNoise()(tf.zeros([1, 4, 4, 2], tf.uint8))
