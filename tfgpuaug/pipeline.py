"""`dataset.apply(gpu_augment(transforms))`: the batched tfgpuaug stage of a tf.data pipeline.

The input dataset yields batches whose first component (or `image`/`images` key) holds
encoded bytes `tf.string [B]` or decoded images; the other components pass through
untouched. Each batch gets a stateless seed (seed, draw), with draws from `batch_seeds` zipped
with the batches: every batch and every epoch (re-iteration, or `.repeat()` after the stage)
draws afresh, a fixed seed reproduces the whole multi-epoch stream from run to run, and a
checkpointed iterator resumes it exactly, across epoch boundaries (the stage turns on
tf.data's symbolic checkpointing for that; see `_checkpoint_options`).

With a GPU (or `device="/gpu:0"`), batches are copied to the device with
`tf.data.experimental.copy_to_device` and the transforms run in a map placed there, followed
by a prefetch on the device (plain `Dataset.map` would run on the CPU). Strings stay in host
memory; decode ops read them there. Without a GPU the same transforms run on the CPU kernels.
`device="/cpu:0"` forces the device-placed graph onto the CPU, which is how it is tested here.
"""
from __future__ import annotations

import random
from typing import Callable, Optional, Sequence, Union

import tensorflow as tf

from tfgpuaug.transforms import Compose, Transform

_IMAGE_KEYS = ("image", "images")


def _split(element):
    """(images, rebuild) for a tuple/list/dict/tensor element."""
    if isinstance(element, dict):
        key = next((k for k in _IMAGE_KEYS if k in element), None)
        if key is None:
            raise ValueError(f"dict elements need an 'image' or 'images' key, got {sorted(element)}")
        return element[key], lambda images: {**element, key: images}
    if isinstance(element, (tuple, list)):
        return element[0], lambda images: (images, *element[1:])
    return element, lambda images: images


def gpu_augment(transforms: Union[Sequence[Callable], Callable], device: Optional[str] = None,
                seed: Optional[int] = None, prefetch: int = 1,
                num_parallel_calls: int = 1) -> Callable[[tf.data.Dataset], tf.data.Dataset]:
    """A dataset transformation applying `transforms` to every batch.

    Args:
      transforms: a list of transforms (composed with `Compose`, which fuses resampling
        with normalisation) or one callable `f(images, seed=...)`.
      device: None picks "/gpu:0" when TensorFlow sees a GPU, else runs on the CPU
        directly; any device string forces the copy_to_device + placed map + prefetch path.
      seed: seed of the per-batch stateless seeds, which differ per batch and per epoch
        (random when None).
      prefetch: batches prefetched after the stage (on the device when placed).
      num_parallel_calls: batches processed at once; tfgpuaug's ops already use every core
        per batch, so 1 keeps memory low with full throughput.
    """
    pipeline = Compose(list(transforms)) if isinstance(transforms, (list, tuple)) else transforms
    base = random.SystemRandom().randrange(2**31) if seed is None else int(seed)

    def run(batch_seed, element):
        images, rebuild = _split(element)
        if isinstance(pipeline, Transform) or _takes_seed(pipeline):
            return rebuild(pipeline(images, seed=batch_seed))
        return rebuild(pipeline(images))

    def apply(ds: tf.data.Dataset) -> tf.data.Dataset:
        target = device
        if target is None and tf.config.list_physical_devices("GPU"):
            target = "/gpu:0"
        ds = tf.data.Dataset.zip(batch_seeds(base), ds)
        if target is None:
            ds = ds.map(run, num_parallel_calls=num_parallel_calls).prefetch(prefetch)
            return ds.with_options(_checkpoint_options())
        ds = ds.apply(tf.data.experimental.copy_to_device(target))
        with tf.device(target):
            ds = ds.map(run, num_parallel_calls=num_parallel_calls)
            return ds.prefetch(prefetch)

    return apply


def batch_seeds(seed: int) -> tf.data.Dataset:
    """An infinite dataset of per-batch stateless seeds `[2]` int64, fresh on every iteration.

    `Dataset.random(rerandomize_each_iteration=True)` draws new numbers for every new iterator
    (re-iteration, or each epoch of a `.repeat()` downstream) from a seed generator that
    starts from `seed` in every process.
    """
    base = tf.constant(seed, tf.int64)
    draws = tf.data.Dataset.random(seed=seed, rerandomize_each_iteration=True)
    return draws.map(lambda draw: tf.stack([base, draw]))


def _checkpoint_options() -> tf.data.Options:
    """Symbolic checkpoints: an iterator saves positions, not buffered batches, and restores
    the seed generator behind `batch_seeds` exactly (with TF 2.21's default buffer-saving
    checkpoints, the epoch after a restore drew other numbers: tested). Buffered batches are
    recomputed on restore, which the stateless transforms make exact; checkpoints also stay
    small (no image batches in them)."""
    options = tf.data.Options()
    options.experimental_symbolic_checkpoint = True
    return options


def _takes_seed(fn) -> bool:
    import inspect

    try:
        return "seed" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
