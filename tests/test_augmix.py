"""AugMix (issue 36; torchvision's AugMix semantics): the result is the Beta/Dirichlet-weighted
mix of the image and its chains, truncated to uint8; the weights and chain plans follow the
definition; inference, refusals and annotations."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug.augment.augmix import AUGMIX_ALL_OPS, AUGMIX_OPS, _dirichlet


def _images(n=8):
    return np.stack([fixtures.photo(32, 40, seed=s) for s in range(n)])


def test_output_changes_the_images_and_the_weights_are_dirichlet():
    """uint8 out, images changed; the chain weights are Dirichlet(1, 1, 1) draws (positive, sum
    one, mean 1/3) and the image's share a Beta(1, 1) (uniform: mean 1/2, variance 1/12)."""
    images = _images()
    out = tga.augment.augmix(images, seed=3).numpy()
    assert out.dtype == np.uint8 and out.shape == images.shape
    assert (out != images).any()
    # the weights: Dirichlet draws sum to one and are positive
    w = _dirichlet(1000, 3, 1.0, tf.constant([1, 2], tf.int64)).numpy()
    np.testing.assert_allclose(w.sum(1), 1.0, rtol=1e-5)
    assert (w > 0).all() and abs(w.mean() - 1 / 3) < 0.02
    # Dirichlet(1, 1) is Beta(1, 1): uniform
    b = _dirichlet(4000, 2, 1.0, tf.constant([3, 4], tf.int64)).numpy()[:, 0]
    assert abs(b.mean() - 0.5) < 0.02 and abs(b.var() - 1 / 12) < 0.01


def test_output_equals_the_definition_recomposed():
    """Recomposes AugMix from its parts with the same seeds (the Dirichlet weights and each
    chain through the policy runner) and compares: equal after truncation."""
    from tfgpuaug.augment.policies import run_choices
    from tfgpuaug.geometry import _seed_tensor
    images = _images(6)
    n, width, severity = 6, 3, 3
    seed = _seed_tensor(11)
    seeds = tf.unstack(tf.random.experimental.stateless_split(seed, 2 + 4 * width))
    m = _dirichlet(n, 2, 1.0, seeds[0]).numpy()
    w = _dirichlet(n, width, 1.0, seeds[1]).numpy() * m[:, 1:2]
    mix = m[:, 0, None, None, None] * images.astype(np.float64)
    for i in range(width):
        s_choice, s_bins, s_depth, s_run = seeds[2 + 4 * i: 6 + 4 * i]
        choice = tf.random.stateless_uniform([n, 3], s_choice, 0, len(AUGMIX_ALL_OPS), dtype=tf.int32)
        bins = tf.random.stateless_uniform([n, 3], s_bins, 0, severity, dtype=tf.int32)
        depth = tf.random.stateless_uniform([n], s_depth, 1, 4, dtype=tf.int32)
        assert set(bins.numpy().ravel()) <= {0, 1, 2} and set(depth.numpy()) <= {1, 2, 3}
        chain = run_choices(images, list(AUGMIX_ALL_OPS), choice, bins, 10, s_run, 0.0, "bilinear",
                            tf.range(3)[None, :] < depth[:, None]).numpy()
        mix += w[:, i, None, None, None] * chain
    expected = np.clip(mix, 0, 255).astype(np.uint8)
    got = tga.augment.augmix(images, seed=11).numpy()
    diff = np.abs(got.astype(int) - expected)
    assert diff.max() <= 1 and (diff > 0).mean() < 0.01  # float32 sums against float64 at truncation edges


def test_space_matches_torchvision():
    """Posterize 4 - round(b / 2.25) bits, solarize 255 -> 0, translations up to a third."""
    post = next(a for a in AUGMIX_OPS if a.name == "posterize")
    bins = tf.range(10, dtype=tf.float32)
    got = post.parameter(bins, 10, tf.zeros([10], tf.bool), 1.0, 1.0).numpy()
    np.testing.assert_array_equal(got, 4 - np.round(np.arange(10) / 2.25))
    sol = next(a for a in AUGMIX_OPS if a.name == "solarize")
    np.testing.assert_allclose(sol.parameter(bins, 10, tf.zeros([10], tf.bool), 1.0, 1.0).numpy(),
                               np.linspace(255, 0, 10), rtol=1e-6)
    tx = next(a for a in AUGMIX_OPS if a.name == "translate_x")
    assert tx.parameter(tf.constant([9.0]), 10, tf.constant([False]), 30.0, 60.0).numpy()[0] == pytest.approx(20.0)


def test_inference_refusals_and_annotations():
    images = tf.constant(_images(2))
    np.testing.assert_array_equal(tga.AugMix()(images, training=False).numpy(), images.numpy())
    for bad in (dict(severity=0), dict(severity=11), dict(mixture_width=0), dict(chain_depth=4), dict(alpha=0.0),
                dict(interpolation="cubic")):
        with pytest.raises(ValueError):
            tga.AugMix(**bad)
    element = {"images": images, "bounding_boxes": {"boxes": tf.ragged.constant([[[1.0, 1, 5, 5]], []], ragged_rank=1),
                                                    "labels": tf.ragged.constant([[1], []])}}
    ds = tf.data.Dataset.from_tensors(element)
    with pytest.raises(ValueError, match="AugMix mixes"):
        ds.apply(tga.gpu_augment([tga.AugMix()], device="/cpu:0"))
