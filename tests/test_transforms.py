"""Transform objects: same results as the functional ops, seeds, fusion, configs."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga


@pytest.fixture(scope="module")
def blobs():
    return tf.constant([fixtures.jpeg_bytes(fixtures.photo(90 + 11 * s, 120, seed=s)) for s in range(4)])


def test_compose_fuses_and_matches_unfused(blobs):
    rrc = tga.RandomResizedCrop(32, max_dct_denom=1)
    cmn = tga.CropMirrorNormalize(mirror=0.5)
    fused = tga.Compose([rrc, cmn])(blobs, seed=3).numpy()
    # The same seeds through the two transforms separately (uint8 in between).
    base = tf.constant([3, 0], tf.int64)
    s0, s1 = (tf.random.experimental.stateless_fold_in(base, i) for i in (0, 1))
    crops = rrc(blobs, seed=s0)
    unfused = cmn(crops, seed=s1).numpy()
    assert fused.shape == (4, 32, 32, 3) and fused.dtype == np.float32
    assert np.abs(fused - unfused).max() <= 0.51 / min(tga.IMAGENET_STD)


def test_eval_compose_matches_functional(blobs):
    got = tga.Compose([tga.ResizeCenterCrop(64, 56), tga.CropMirrorNormalize()])(blobs).numpy()
    ref = tga.resize_center_crop(blobs, 64, 56, mean=tga.IMAGENET_MEAN, std=tga.IMAGENET_STD).numpy()
    np.testing.assert_array_equal(got, ref)


def test_seeded_transforms_are_reproducible_and_vary_per_call(blobs):
    a, b = tga.RandomResizedCrop(24, seed=5), tga.RandomResizedCrop(24, seed=5)
    first_a, first_b = a(blobs).numpy(), b(blobs).numpy()
    np.testing.assert_array_equal(first_a, first_b)
    assert (a(blobs).numpy() != first_a).any()  # the next batch differs


def test_random_flip_probabilities():
    x = tf.constant(np.arange(2 * 3 * 1, dtype=np.uint8).reshape(1, 2, 3, 1))
    batch = tf.tile(x, [400, 1, 1, 1])
    out = tga.RandomFlip(horizontal=0.25, seed=1)(batch).numpy()
    flipped = (out[:, 0, 0, 0] == 2).mean()
    assert 0.18 < flipped < 0.32  # 400 Bernoulli(0.25) draws: 4 standard deviations


def test_configs_and_argument_checks():
    t = tga.RandomResizedCrop(224, seed=1)
    assert t.get_config()["size"] == 224 and "RandomResizedCrop(" in repr(t)
    assert tga.CropMirrorNormalize(dtype=tf.float16).get_config()["dtype"] == "float16"
    with pytest.raises(ValueError, match="method"):
        tga.RandomResizedCrop(224, method="cubic")
    with pytest.raises(ValueError, match="probability"):
        tga.RandomFlip(horizontal=2.0)
    with pytest.raises(ValueError, match="std"):
        tga.CropMirrorNormalize(std=(1, 0, 1))


def test_transforms_in_a_dataset(blobs):
    t = tga.Compose([tga.RandomResizedCrop(16, seed=0), tga.CropMirrorNormalize(mirror=0.5, seed=1)])
    ds = tf.data.Dataset.from_tensor_slices(blobs).batch(2).map(t)
    shapes = [b.shape for b in ds]
    assert shapes == [(2, 16, 16, 3), (2, 16, 16, 3)]
