"""`dataset.apply(gpu_augment(transforms))`: the batched tfgpuaug stage of a tf.data pipeline.

The input dataset yields batches whose first component (or `image`/`images` key) holds
encoded bytes `tf.string [B]` or decoded images; the other components pass through
untouched. Each batch gets a seed derived from (seed, batch index), so epochs are
reproducible and every batch differs, and a checkpointed iterator resumes the same stream.

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
      seed: base seed of the per-batch stateless seeds (random when None).
      prefetch: batches prefetched after the stage (on the device when placed).
      num_parallel_calls: batches processed at once; tfgpuaug's ops already use every core
        per batch, so 1 keeps memory low with full throughput.
    """
    pipeline = Compose(list(transforms)) if isinstance(transforms, (list, tuple)) else transforms
    base = random.SystemRandom().randrange(2**31) if seed is None else int(seed)

    def run(index, element):
        images, rebuild = _split(element)
        batch_seed = tf.stack([tf.constant(base, tf.int64), tf.cast(index, tf.int64)])
        if isinstance(pipeline, Transform) or _takes_seed(pipeline):
            return rebuild(pipeline(images, seed=batch_seed))
        return rebuild(pipeline(images))

    def apply(ds: tf.data.Dataset) -> tf.data.Dataset:
        target = device
        if target is None and tf.config.list_physical_devices("GPU"):
            target = "/gpu:0"
        ds = ds.enumerate()
        if target is None:
            return ds.map(run, num_parallel_calls=num_parallel_calls).prefetch(prefetch)
        ds = ds.apply(tf.data.experimental.copy_to_device(target))
        with tf.device(target):
            ds = ds.map(run, num_parallel_calls=num_parallel_calls)
            return ds.prefetch(prefetch)

    return apply


def _takes_seed(fn) -> bool:
    import inspect

    try:
        return "seed" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
