"""HistogramMatching (issue 36; Albumentations' transform of that name). The tables against a
numpy statement of skimage's cumulative-histogram matching (np.interp of the quantiles) and
Albumentations' own functions where installed; the whole op against numpy on references of the
images' size and of another size; the draws (reference, ratio, probability); refusals."""
import numpy as np
import pytest
import tensorflow as tf

import importlib

import tfgpuaug as tga

hm = importlib.import_module("tfgpuaug.augment.histogram_matching")  # the package's name is the function


def numpy_match(source, template):
    """skimage's _match_cumulative_cdf for one uint8 channel, truncated to levels."""
    s_counts = np.bincount(source.ravel(), minlength=256)
    t_counts = np.bincount(template.ravel(), minlength=256)
    values = np.nonzero(t_counts)[0]
    s_q = np.cumsum(s_counts) / source.size
    t_q = np.cumsum(t_counts[values]) / template.size
    return np.interp(s_q, t_q, values).astype(np.uint8)[source]


def sample_images(n, h, w, seed):
    rng = np.random.default_rng(seed)
    centre = rng.uniform(40, 200, (n, 1, 1, 3))
    spread = rng.uniform(5, 50, (n, 1, 1, 3))
    return np.clip(rng.normal(centre, spread, (n, h, w, 3)), 0, 255).astype(np.uint8)


def test_tables_equal_numpy_statement():
    rng = np.random.default_rng(0)
    for trial in range(60):
        a = rng.integers(0, 256, 900) if trial % 2 else rng.normal(120, 15, 900).clip(0, 255).astype(int)
        b = rng.normal(rng.uniform(20, 230), rng.uniform(2, 60), 500).clip(0, 255).astype(int)
        if trial % 5 == 0:
            b[:] = 77  # one level: every pixel maps to it
        table = np.floor(hm.matching_tables(tf.constant(np.bincount(a, minlength=256)[None]),
                                            tf.constant(np.bincount(b, minlength=256)[None])).numpy()[0])
        np.testing.assert_array_equal(table.astype(np.uint8)[a], numpy_match(a, b))


@pytest.mark.parametrize("ref_shape", [(3, 32, 40, 3), (3, 20, 18, 3)])
def test_full_match_equals_numpy(ref_shape):
    images = sample_images(6, 32, 40, seed=1)
    bank = sample_images(ref_shape[0], *ref_shape[1:3], seed=2)
    out = hm.histogram_matching(tf.constant(images), bank, blend_ratio=(1.0, 1.0), probability=1.0,
                                seed=tf.constant([3, 4])).numpy()
    for i in range(6):
        candidates = []
        for ref in bank:
            if ref.shape[:2] != images.shape[1:3]:
                ref = np.clip(np.round(tf.image.resize(ref[None].astype(np.float32), (32, 40)).numpy()[0]), 0,
                              255).astype(np.uint8)
            candidates.append(np.stack([numpy_match(images[i, ..., c], ref[..., c]) for c in range(3)], -1))
        # the drawn reference is one of the bank's, and the output is exactly its match
        assert any((out[i] == c).all() for c in candidates), i


def test_blend_ratio_and_probability():
    images = sample_images(200, 16, 16, seed=5)
    bank = sample_images(1, 16, 16, seed=6)
    matched = hm.histogram_matching(tf.constant(images), bank, (1.0, 1.0), 1.0, seed=1).numpy()
    half = hm.histogram_matching(tf.constant(images), bank, (0.5, 0.5), 1.0, seed=1).numpy()
    want = np.clip(np.round(0.5 * matched.astype(np.float32) + 0.5 * images), 0, 255)
    np.testing.assert_array_equal(half, want)
    some = hm.histogram_matching(tf.constant(images), bank, (1.0, 1.0), 0.3, seed=2).numpy()
    changed = (some != images).any(axis=(1, 2, 3))
    assert 35 <= changed.sum() <= 85, changed.sum()  # 60 expected (5 sigma)
    same = ~changed
    np.testing.assert_array_equal(some[same], images[same])


def test_matches_albumentations():
    A = pytest.importorskip("albumentations")
    from albumentations.augmentations.mixing import domain_adaptation_functional as F
    images = sample_images(4, 48, 56, seed=7)
    ref = sample_images(1, 48, 56, seed=8)
    for ratio in (1.0, 0.6):
        out = hm.histogram_matching(tf.constant(images), ref, (ratio, ratio), 1.0, seed=1).numpy()
        for i in range(4):
            want = F.apply_histogram(images[i], ref[0], ratio)
            diff = np.abs(out[i].astype(int) - want)
            assert diff.max() <= 1 and (diff == 0).mean() >= 0.99, (ratio, diff.max(), (diff == 0).mean())
    assert A.__version__


def test_transform_inference_config_and_refusals():
    images = tf.constant(sample_images(8, 12, 12, seed=9))
    bank = sample_images(2, 10, 10, seed=10)
    t = tga.HistogramMatching(bank, probability=1.0, seed=3)
    assert (t(images).numpy() != images.numpy()).any()
    np.testing.assert_array_equal(t(images, training=False).numpy(), images.numpy())
    again = tga.HistogramMatching(**t.get_config())
    np.testing.assert_array_equal(again.reference_images, bank)
    with pytest.raises(ValueError, match="uint8"):
        tga.HistogramMatching(bank.astype(np.float32) / 255)
    with pytest.raises(ValueError, match="blend_ratio"):
        tga.HistogramMatching(bank, blend_ratio=(0.8, 0.2))
    with pytest.raises(ValueError, match="non-empty"):
        tga.HistogramMatching(np.zeros([0, 4, 4, 3], np.uint8))
    with pytest.raises(ValueError, match="channels"):
        tga.HistogramMatching(bank[..., :1])(images)


@pytest.mark.parametrize("shape", [(3, 17, 9, 3), (2, 5, 3, 1), (2, 4, 7, 4), (2, 3, 5, 6), (1, 1, 1, 3)])
def test_channel_histograms_equal_numpy_counts(shape):
    images = np.random.default_rng(sum(shape)).integers(0, 256, shape, dtype=np.uint8)
    images[0, 0] = 255  # both ends of the range present
    images[-1, -1] = 0
    got = tga.augment.channel_histograms(images).numpy()
    want = np.stack([np.stack([np.bincount(img[..., k].ravel(), minlength=256) for k in range(shape[3])])
                     for img in images])
    np.testing.assert_array_equal(got, want)
    assert got.dtype == np.int32 and got.sum() == images.size


def test_channel_histograms_of_no_images_and_static_shape():
    assert tga.augment.channel_histograms(np.zeros((0, 4, 4, 3), np.uint8)).shape == (0, 3, 256)
    np.testing.assert_array_equal(tga.augment.channel_histograms(np.zeros((2, 0, 4, 3), np.uint8)).numpy(),
                                  np.zeros((2, 3, 256), np.int32))
    spec = tf.TensorSpec([None, None, None, 3], tf.uint8)
    concrete = tf.function(tga.augment.channel_histograms).get_concrete_function(spec)
    assert concrete.output_shapes.as_list() == [None, 3, 256]
    for bad in (np.zeros((2, 4, 4), np.uint8), np.zeros((1, 4, 4, 3), np.float32)):
        with pytest.raises(ValueError, match="uint8"):
            tga.augment.channel_histograms(bad)
