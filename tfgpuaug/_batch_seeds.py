"""Per-batch stateless seeds for gpu_augment, fresh every epoch and restored exactly from
iterator checkpoints."""
from __future__ import annotations

import tensorflow as tf

from tfgpuaug._autograph import unconverted


def batch_seeds(seed: int) -> tf.data.Dataset:
    """An infinite dataset of per-batch stateless seeds `[2]` int64, fresh on every iteration.

    `Dataset.random(rerandomize_each_iteration=True)` draws new numbers for every new iterator
    (re-iteration, or each epoch of a `.repeat()` downstream) from a seed generator that
    starts from `seed` in every process.
    """
    base = tf.constant(seed, tf.int64)
    draws = tf.data.Dataset.random(seed=seed, rerandomize_each_iteration=True)
    return draws.map(unconverted(lambda draw: tf.stack([base, draw])))


def checkpoint_options() -> tf.data.Options:
    """Symbolic checkpoints: an iterator saves positions, not buffered batches, and restores
    the seed generator behind `batch_seeds` exactly (with TF 2.21's default buffer-saving
    checkpoints, the epoch after a restore drew other numbers: tested). Buffered batches are
    recomputed on restore, which the stateless transforms make exact; checkpoints also stay
    small (no image batches in them)."""
    options = tf.data.Options()
    options.experimental_symbolic_checkpoint = True
    return options
