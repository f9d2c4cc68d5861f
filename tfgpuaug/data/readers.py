"""Image folder and file-list readers: datasets of (encoded image bytes, int64 label).

Files are read with `tf.io.read_file` inside the graph; an unreadable file raises an error
naming it, and `tf.data.experimental.ignore_errors()` skips it.
"""
from __future__ import annotations

import os
from typing import Callable, Optional, Sequence, Tuple

import tensorflow as tf

from tfgpuaug._autograph import unconverted

_EXTENSIONS = (".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp", ".pbm", ".pgm", ".ppm", ".pnm", ".tif", ".tiff",
               ".jp2", ".j2k")
IMAGE_EXTENSIONS = _EXTENSIONS + tuple(e.upper() for e in _EXTENSIONS)


def _listing(root: str) -> Tuple[list, list, list]:
    """Sorted class folders (or none) and the files below them."""
    if not tf.io.gfile.isdir(root):
        raise ValueError(f"image folder {root!r} does not exist")
    entries = sorted(tf.io.gfile.listdir(root))
    classes = [e.rstrip("/") for e in entries if tf.io.gfile.isdir(os.path.join(root, e))]
    files, labels = [], []
    for label, name in enumerate(classes):
        for f in sorted(tf.io.gfile.listdir(os.path.join(root, name))):
            if f.endswith(IMAGE_EXTENSIONS):
                files.append(os.path.join(root, name, f))
                labels.append(label)
    return classes, files, labels


def file_list(files: Sequence[str], labels: Sequence[int], shuffle: bool = False,
              seed: Optional[int] = None, shard: Optional[Tuple[int, int]] = None,
              with_paths: bool = False) -> tf.data.Dataset:
    """(bytes, label) from explicit files and labels; with `with_paths`, dicts
    `{"images": bytes, "labels": label, "path": file name}`, so `on_error="skip"` warnings
    name each skipped file (`gpu_augment` passes `labels` and `path` through).

    Args:
      files: image file names (any filesystem `tf.io.gfile` opens).
      labels: one int label per file.
      shuffle: shuffle the files (reshuffled every epoch).
      seed: the shuffle's seed (None: random).
      shard: (n, i) keeps every n-th file starting at i, before shuffling (multi-worker input;
        `shard_for` makes it from an InputContext).
      with_paths: yield dicts that carry each file's path.
    """
    files, labels = list(files), [int(x) for x in labels]
    if len(files) != len(labels):
        raise ValueError(f"{len(files)} files but {len(labels)} labels")
    if not files:
        raise ValueError("no image files")
    ds = split(tf.data.Dataset.from_tensor_slices((files, tf.constant(labels, tf.int64))), shard)
    if shuffle:
        ds = ds.shuffle(len(files), seed=seed, reshuffle_each_iteration=True)
    read = unconverted(_read_with_path if with_paths else _read)
    return ds.map(read, num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)


def split(ds: tf.data.Dataset, shard: Optional[Tuple[int, int]], count: Optional[int] = None) -> tf.data.Dataset:
    """`ds` with every num_shards-th element from `index` for `shard=(num_shards, index)` (None:
    all); `count`, the number of elements, refuses splits that would leave a pipeline empty."""
    if shard is None:
        return ds
    num_shards, index = shard
    if not 0 <= index < num_shards:
        raise ValueError(f"shard index must be in [0, {num_shards}), got {index}")
    if count is not None and count < num_shards:
        raise ValueError(f"{count} items cannot be split among {num_shards} input pipelines")
    return ds.shard(num_shards, index)


def _read(path, label):
    return tf.io.read_file(path), label


def _read_with_path(path, label):
    return {"images": tf.io.read_file(path), "labels": label, "path": path}


def image_folder(root: str, shuffle: bool = False, seed: Optional[int] = None,
                 shard: Optional[Tuple[int, int]] = None,
                 label_fn: Optional[Callable[[str], int]] = None, with_paths: bool = False) -> tf.data.Dataset:
    """(bytes, label) for `root/<class>/<image>`; labels index the sorted class names. With
    `with_paths`, dicts `{"images", "labels", "path"}`, so skip warnings name the files.

    A flat folder (no sub-folders) needs `label_fn(file_name) -> int`. The returned dataset
    has `class_names` (list) and `class_indices` (name -> label) attributes. `shard=(n, i)`
    keeps every n-th file starting at i, before shuffling (for multi-worker input).

    Args:
      root: the folder of class sub-folders (or of images, with `label_fn`).
      shuffle: shuffle the files (reshuffled every epoch).
      seed: the shuffle's seed (None: random).
      shard: (n, i) keeps every n-th file starting at i, before shuffling (multi-worker input;
        `shard_for` makes it from an InputContext).
      label_fn: `file_name -> int` for a flat folder.
      with_paths: yield dicts that carry each file's path (see `file_list`).
    """
    classes, files, labels = _listing(root)
    if not classes:
        if label_fn is None:
            raise ValueError(f"{root!r} has no class sub-folders; pass label_fn for a flat folder")
        files = [os.path.join(root, f) for f in sorted(tf.io.gfile.listdir(root)) if f.endswith(IMAGE_EXTENSIONS)]
        labels = [label_fn(os.path.basename(f)) for f in files]
    ds = file_list(files, labels, shuffle, seed, shard, with_paths)
    ds.class_names = classes
    ds.class_indices = {name: i for i, name in enumerate(classes)}
    return ds


def shard_for(input_context: Optional[tf.distribute.InputContext]) -> Optional[Tuple[int, int]]:
    """`shard=` for the readers from a tf.distribute InputContext (None when not sharded).

    In `strategy.distribute_datasets_from_function(lambda ctx: image_folder(root,
    shard=shard_for(ctx)).batch(ctx.get_per_replica_batch_size(global_batch)) ...)`
    each input pipeline reads its own files.

    Args:
      input_context: the `tf.distribute.InputContext`, or None.
    """
    if input_context is None or input_context.num_input_pipelines <= 1:
        return None
    return (input_context.num_input_pipelines, input_context.input_pipeline_id)
