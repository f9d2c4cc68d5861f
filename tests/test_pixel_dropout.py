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


def test_channel_dropout_guard_when_the_channel_count_is_dynamic():
    """With C unknown at graph construction, dropping up to C channels fails when the batch runs,
    in a reshape whose name says why (an Assert would put strings into the device stage)."""
    t = tga.ChannelDropout((1, 3), probability=1.0)

    @tf.function(input_signature=[tf.TensorSpec([None, None, None, None], tf.uint8)])
    def run(x):
        return t(x, seed=[1, 2])

    x = np.random.default_rng(3).integers(10, 256, (2, 8, 8, 4), dtype=np.uint8)
    out = run(tf.constant(x)).numpy()
    assert np.all(np.any(np.all(out == 0, axis=(1, 2)), axis=1))  # each sample lost a channel
    with pytest.raises(tf.errors.InvalidArgumentError, match="ChannelDropout_needs_more_channels"):
        run(tf.constant(x[..., :3])).numpy()


@pytest.mark.parametrize("per_channel,drop_value", [(True, 0), (False, None), (True, [5, 6, 7])])
def test_masks_follow_every_dropped_byte(per_channel, drop_value):
    """mask_drop_value marks a pixel where any of its bytes was dropped: with per-channel drops,
    random levels (a dropped byte may draw its own value: checked only one way) and per-channel
    levels (the kernel finds the places, a select writes the levels)."""
    x = images()
    t = tga.PixelDropout(dropout_prob=0.2, per_channel=per_channel, drop_value=drop_value, mask_drop_value=9,
                         probability=1.0)
    out, moved = t.apply(tf.constant(x), tg.Targets(masks=tf.constant(np.ones((N, H, W, 2), np.uint8))),
                         seed=tf.constant([4, 4]))
    out, m = out.numpy(), moved.masks.numpy()
    marked = m[..., 0] == 9
    np.testing.assert_array_equal(m[..., 0], m[..., 1])
    assert set(np.unique(m)) == {1, 9}
    changed = np.any(out != x, -1)
    assert not np.any(changed & ~marked)  # every changed pixel is marked
    share = 1 - 0.8**3 if per_channel else 0.2
    assert abs(marked.mean() - share) < 5 * np.sqrt(share * (1 - share) / marked.size)
    if drop_value is not None:  # levels outside the inputs' range: changed is exactly marked
        np.testing.assert_array_equal(changed, marked)
    if isinstance(drop_value, list):
        dropped = out != x
        np.testing.assert_array_equal(out[dropped], np.broadcast_to([5, 6, 7], out.shape)[dropped])


def test_function_forms_match_the_transforms():
    """tfgpuaug.augment's functions are the transforms' stages: same seed, same bytes."""
    x = tf.constant(images())
    np.testing.assert_array_equal(
        tga.augment.salt_and_pepper(x, (0.1, 0.2), (0.5, 0.5), 1.0, seed=[1, 2]).numpy(),
        tga.SaltAndPepper((0.1, 0.2), (0.5, 0.5), 1.0)(x, seed=[1, 2]).numpy())
    np.testing.assert_array_equal(
        tga.augment.channel_dropout(x, (1, 2), 7.0, 1.0, seed=[3, 2]).numpy(),
        tga.ChannelDropout((1, 2), 7.0, 1.0)(x, seed=[3, 2]).numpy())
    np.testing.assert_array_equal(
        tga.augment.pixel_dropout(x, 0.3, True, 4.0, 1.0, seed=[5, 2]).numpy(),
        tga.PixelDropout(0.3, True, 4.0, probability=1.0)(x, seed=[5, 2]).numpy())


def test_policies_can_draw_the_replacing_stages():
    """The registry's salt_and_pepper and pixel_dropout take 0 .. 10% of the pixels over the
    magnitude bins (the top bin here: 10%), their streams and salt shares or levels from the
    policy's uniform aux numbers (levels below 1: black); sepia has no magnitude."""
    x = tf.constant(images())  # levels 40 .. 255: a dropped (0 or 1) or salted (255) pixel stands out
    for name in ("salt_and_pepper", "pixel_dropout"):
        out, _, params = tga.augment.rand_augment(x, num_ops=1, magnitude=30, augmentations=[name], seed=5,
                                                  return_plan=True)
        np.testing.assert_allclose(params.numpy(), 0.1, rtol=1e-6)
        out = out.numpy()
        changed = np.any(out != x.numpy(), -1)
        assert abs(changed.mean() - 0.1) < 0.02, (name, changed.mean())  # salt may land on a 255 pixel
        replaced = np.all(out <= 1, -1) | np.all(out == 255, -1) if name == "salt_and_pepper" else \
            np.all(out <= 1, -1)
        assert np.all(replaced[changed])
    sepia = tga.augment.rand_augment(x, num_ops=1, magnitude=5, augmentations=["sepia"], seed=5)
    np.testing.assert_array_equal(sepia.numpy(), tga.augment.to_sepia(x, probability=1.0, seed=1).numpy())
