"""PixelDropout (issue 36; Albumentations' transform of that name): the dropped share of pixels
matches dropout_prob (binomial bounds), dropped values are exactly drop_value (per channel, or
uniform random levels), everything else is untouched, per_channel drops channels on their own,
masks take mask_drop_value at the dropped pixels, and bad arguments are refused."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import targets as tg

N, H, W = 8, 64, 64


def images():
    # no pixel is 0 or (10, 20, 30), so a dropped one is told apart
    return np.random.default_rng(4).integers(40, 256, (N, H, W, 3), dtype=np.uint8)


def test_dropped_share_and_values():
    x = images()
    out = tga.PixelDropout(dropout_prob=0.1, drop_value=[10, 20, 30], probability=1.0)(
        tf.constant(x), seed=[1, 2]).numpy()
    dropped = np.all(out == [10, 20, 30], axis=-1)
    n = dropped.size
    assert abs(dropped.mean() - 0.1) < 5 * np.sqrt(0.1 * 0.9 / n)
    np.testing.assert_array_equal(out[~dropped], x[~dropped])  # the rest untouched
    assert not np.any((out != x).any(-1) & ~dropped)           # whole pixels only


def test_per_channel_and_random_values():
    x = images()
    out = tga.PixelDropout(dropout_prob=0.2, per_channel=True, drop_value=0, probability=1.0)(
        tf.constant(x), seed=[3, 4]).numpy()
    zero = out == 0
    assert abs(zero.mean() - 0.2) < 5 * np.sqrt(0.2 * 0.8 / zero.size)
    partial = zero.any(-1) & ~zero.all(-1)
    assert abs(partial.mean() - (1 - 0.8**3 - 0.2**3)) < 0.02  # channels drop independently
    rand = tga.PixelDropout(dropout_prob=0.5, drop_value=None, probability=1.0)(tf.constant(x), seed=[5, 6]).numpy()
    changed = rand != x
    low = rand[changed] < 40  # random levels land below the inputs' range too: uniform in 0..255
    assert 0.1 < low.mean() < 0.2


def test_probability_inference_and_masks():
    x = images()
    masks = np.ones((N, H, W, 1), np.uint8)
    t = tga.PixelDropout(dropout_prob=0.3, drop_value=0, mask_drop_value=255, probability=0.5)
    out, moved = t.apply(tf.constant(x), tg.Targets(masks=tf.constant(masks)), seed=tf.constant([7, 8]))
    out, m = out.numpy(), moved.masks.numpy()[..., 0]
    dropped = np.all(out == 0, axis=-1)
    np.testing.assert_array_equal(m == 255, dropped)  # the same pixels
    touched = dropped.any(axis=(1, 2))
    assert 0 < touched.sum() < N  # probability 0.5 per sample
    assert t.moves_targets and not tga.PixelDropout().moves_targets
    np.testing.assert_array_equal(t(tf.constant(x), training=False).numpy(), x)


def test_refusals():
    with pytest.raises(ValueError, match="dropout_prob must be in"):
        tga.PixelDropout(dropout_prob=1.5)
    with pytest.raises(ValueError, match="drop_value must be a level"):
        tga.PixelDropout(drop_value=300)
    with pytest.raises(ValueError, match="drop_value has 2 levels for 3-channel images"):
        tga.PixelDropout(drop_value=[1, 2])(tf.constant(images()), seed=[1, 1])
    with pytest.raises(ValueError, match="takes uint8 images"):
        tga.PixelDropout()(tf.zeros([1, 4, 4, 3]), seed=[1, 1])
    with pytest.raises(ValueError, match="dense batch"):
        tga.PixelDropout()(tf.constant([b"bytes"]), seed=[1, 1])


def test_channel_dropout_counts_choices_and_fill():
    """k channels of 4 set to fill, k uniform in (1, 2); which channels, uniform; the rest kept."""
    x = np.random.default_rng(9).integers(10, 256, (400, 4, 4, 4), dtype=np.uint8)
    out = tga.ChannelDropout((1, 2), fill=3, probability=1.0)(tf.constant(x), seed=[2, 3]).numpy()
    filled = np.all(out == 3, axis=(1, 2))            # [400, 4] channel filled
    kept = np.all(out == x, axis=(1, 2))
    assert np.all(filled ^ kept)                        # each channel either filled or untouched
    counts = filled.sum(1)
    assert set(counts) == {1, 2} and abs(np.mean(counts == 2) - 0.5) < 5 * np.sqrt(0.25 / 400)
    share = filled.mean(0)                              # each channel dropped 1.5 / 4 of the time
    assert np.all(np.abs(share - 0.375) < 5 * np.sqrt(0.375 * 0.625 / 400)), share
    half = tga.ChannelDropout(probability=0.5)(tf.constant(x), seed=[4, 5]).numpy()
    touched = np.any(half != x, axis=(1, 2, 3))
    assert abs(touched.mean() - 0.5) < 5 * np.sqrt(0.25 / 400)
    np.testing.assert_array_equal(tga.ChannelDropout()(tf.constant(x), training=False).numpy(), x)


def test_channel_dropout_refusals():
    with pytest.raises(ValueError, match="at least one must stay"):
        tga.ChannelDropout((1, 3))(tf.zeros([1, 2, 2, 3], tf.uint8), seed=[1, 1])
    with pytest.raises(ValueError, match="1 <= min <= max"):
        tga.ChannelDropout((0, 1))
    with pytest.raises(ValueError, match="fill must be a level"):
        tga.ChannelDropout(fill=-1)
    with pytest.raises(ValueError, match="takes uint8 images"):
        tga.ChannelDropout()(tf.zeros([1, 2, 2, 3]), seed=[1, 1])


def test_salt_and_pepper_shares_and_values():
    """Fixed amount 0.1 and salt share 0.3: about 10% of pixels noisy (binomial bounds), 30% of
    those salt (255 in every channel), the rest pepper (0); everything else untouched."""
    x = np.random.default_rng(6).integers(1, 255, (N, H, W, 3), dtype=np.uint8)  # no 0 or 255 inside
    out = tga.SaltAndPepper((0.1, 0.1), (0.3, 0.3), probability=1.0)(tf.constant(x), seed=[1, 9]).numpy()
    salt, pepper = np.all(out == 255, -1), np.all(out == 0, -1)
    noisy = salt | pepper
    assert abs(noisy.mean() - 0.1) < 5 * np.sqrt(0.1 * 0.9 / noisy.size)
    assert abs(salt.sum() / noisy.sum() - 0.3) < 5 * np.sqrt(0.3 * 0.7 / noisy.sum())
    np.testing.assert_array_equal(out[~noisy], x[~noisy])
    per_sample = tga.SaltAndPepper((0.0, 0.2), probability=1.0)(tf.constant(x), seed=[2, 9]).numpy()
    shares = np.mean(np.all(per_sample == 255, -1) | np.all(per_sample == 0, -1), axis=(1, 2))
    assert shares.std() > 0.02  # the amount is drawn per sample
    np.testing.assert_array_equal(tga.SaltAndPepper()(tf.constant(x), training=False).numpy(), x)
    with pytest.raises(ValueError, match="amount must be"):
        tga.SaltAndPepper(amount=(0.2, 0.1))
