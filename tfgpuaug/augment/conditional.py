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
    n = tf.shape(images)[0]
    choice = _choose(n, probs, seed)
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
