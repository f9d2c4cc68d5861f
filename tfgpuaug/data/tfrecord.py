"""TFRecord reader for the ImageNet / TFDS layout: `tf.train.Example`s with
`image/encoded` (bytes) and `image/class/label` (int64)."""
from __future__ import annotations

from typing import Optional, Sequence, Tuple, Union

import tensorflow as tf

_FEATURES = {
    "image/encoded": tf.io.FixedLenFeature([], tf.string),
    "image/class/label": tf.io.FixedLenFeature([], tf.int64, default_value=-1),
}


def tfrecord(files: Union[str, Sequence[str]], shuffle: bool = False, seed: Optional[int] = None,
             shard: Optional[Tuple[int, int]] = None, label_offset: int = 0,
             num_parallel_reads: int = tf.data.AUTOTUNE) -> tf.data.Dataset:
    """(encoded bytes, int64 label) from TFRecord files or a glob pattern.

    ImageNet TFRecords written by TF's `build_imagenet_data.py` number classes from 1:
    pass `label_offset=-1` for 0-based labels. `shard=(n, i)` splits by file.
    """
    if isinstance(files, str):
        files = sorted(tf.io.gfile.glob(files))
    files = list(files)
    if not files:
        raise ValueError("no TFRecord files")
    ds = tf.data.Dataset.from_tensor_slices(files)
    if shard is not None:
        ds = ds.shard(*shard)
    if shuffle:
        ds = ds.shuffle(len(files), seed=seed)
    ds = ds.interleave(tf.data.TFRecordDataset, cycle_length=min(len(files), 8),
                       num_parallel_calls=num_parallel_reads, deterministic=not shuffle)

    def parse(record):
        f = tf.io.parse_single_example(record, _FEATURES)
        return f["image/encoded"], f["image/class/label"] + label_offset

    return ds.map(parse, num_parallel_calls=tf.data.AUTOTUNE)
