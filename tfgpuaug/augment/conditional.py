"""Per-sample conditional execution of arbitrary batch transforms, without Python control
flow: the batch is split by each sample's choice, every branch runs on its own samples
only, and the results are merged back in order."""
from __future__ import annotations

from typing import Callable, Optional, Sequence

import tensorflow as tf

from tfgpuaug.geometry import _seed_tensor
from tfgpuaug._types import Images, Seed

BatchFn = Callable[[tf.Tensor], tf.Tensor]


def _choose(n, probs, seed) -> tf.Tensor:
    logits = tf.math.log(tf.constant([probs], tf.float32))
    return tf.reshape(tf.random.stateless_categorical(logits, n, _seed_tensor(seed), dtype=tf.int32), [n])


def random_choice(images: Images, transforms: Sequence[BatchFn],
                  probs: Optional[Sequence[float]] = None, seed: Seed = None) -> tf.Tensor:
    """Sends each sample through one of `transforms`, picked with `probs` (uniform if None).

    Every transform must map `[n, ...]` to the same output shape and dtype (n may be 0).
    Cost: each branch runs once on its gathered samples, plus one gather and one scatter.

    Args:
      images: a batch `[B, ...]`.
      transforms: batch functions `f(images, seed=...)`.
      probs: the probability of each transform (None: uniform).
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    transforms = list(transforms)
    if not transforms:
        raise ValueError("random_choice needs at least one transform")
    probs = [1.0 / len(transforms)] * len(transforms) if probs is None else [float(p) for p in probs]
    if len(probs) != len(transforms) or any(p < 0 for p in probs) or abs(sum(probs) - 1.0) > 1e-5:
        raise ValueError(f"probs must be {len(transforms)} non-negative numbers summing to 1, got {probs}")
    images = tf.convert_to_tensor(images)
    return _route(images, transforms, _choose(tf.shape(images)[0], probs, seed))


def _route(images: tf.Tensor, transforms: Sequence[BatchFn], choice: tf.Tensor) -> tf.Tensor:
    """Each sample through transforms[choice[sample]]: every branch on its gathered samples, the
    results scattered back in order."""
    n = tf.shape(images)[0]
    outputs, indices = [], []
    for j, t in enumerate(transforms):
        idx = tf.where(tf.equal(choice, j))
        outputs.append(t(tf.gather_nd(images, idx)))
        indices.append(idx)
    first = outputs[0]
    shape = tf.concat([[n], tf.shape(first)[1:]], 0)
    merged = tf.zeros(shape, first.dtype)
    for idx, out in zip(indices, outputs):
        merged = tf.tensor_scatter_nd_update(merged, idx, tf.cast(out, first.dtype))
    return merged


def random_apply(images: Images, transform: BatchFn, p: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Applies `transform` to each sample with probability `p`; the others pass unchanged.

    Args:
      images: a batch `[B, ...]`.
      transform: a batch function `f(images, seed=...)` mapping `[n, ...]` to the same shape and dtype.
      p: probability that a sample goes through `transform`.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be in [0, 1], got {p}")
    return random_choice(images, [transform, lambda x: x], [p, 1.0 - p], seed)


def random_order(images: Images, transforms: Sequence[BatchFn], n: int = 1, replace: bool = False,
                 p: float = 1.0, seed: Seed = None) -> tf.Tensor:
    """Albumentations' RandomOrder, per sample: `n` of `transforms` picked uniformly (distinct
    unless `replace`; `n` above their number without `replace` means all of them), applied one
    after another in the order drawn; with probability `1 - p` a sample passes unchanged.

    Every transform must map `[k, ...]` to the same shape and dtype (k may be 0). Cost: `n`
    rounds, each running every transform once on the samples that drew it in that round.

    Args:
      images: a batch `[B, ...]`.
      transforms: batch functions `f(images)`.
      n: how many transforms each sample goes through (>= 1).
      replace: draw with replacement (a transform may come more than once).
      p: probability that a sample is transformed at all.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.

    Example:
      >>> tga.random_order(images, [lambda x: tga.augment.gaussian_blur(x, 1.0),
      ...                           lambda x: tga.augment.adjust_gamma(x, 1.5)], n=2, seed=[1, 2])
    """
    transforms = list(transforms)
    if not transforms:
        raise ValueError("random_order needs at least one transform")
    if not (isinstance(n, int) and n >= 1):
        raise ValueError(f"n must be an int >= 1, got {n!r}")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be in [0, 1], got {p}")
    if not replace:
        n = min(n, len(transforms))
    images = tf.convert_to_tensor(images)
    batch = tf.shape(images)[0]
    s_pick, s_apply = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), 2))
    if replace:
        picks = tf.random.stateless_uniform([batch, n], s_pick, 0, len(transforms), dtype=tf.int32)
    else:  # the first n of a uniformly random permutation: an ordered sample without replacement
        keys = tf.random.stateless_uniform([batch, len(transforms)], s_pick)
        picks = tf.argsort(keys, axis=1)[:, :n]
    applied = tf.random.stateless_uniform([batch], s_apply) < p
    branches = transforms + [lambda x: x]  # the last: samples left alone
    for slot in range(n):
        images = _route(images, branches, tf.where(applied, picks[:, slot], len(transforms)))
    return images
