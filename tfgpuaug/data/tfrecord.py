"""TFRecord readers: the ImageNet / TFDS classification layout (`image/encoded`,
`image/class/label`) and the detection layout TF Model Garden's `tf_example_decoder.py` reads."""
from __future__ import annotations

from typing import Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug._autograph import unconverted

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

    Args:
      files: TFRecord file names or a glob pattern.
      shuffle: shuffle the files (reshuffled every epoch).
      seed: the shuffle's seed (None: random).
      shard: (n, i) keeps every n-th file starting at i.
      label_offset: added to every label.
      num_parallel_reads: files read at once (-1: autotuned).
    """
    return _records(files, shuffle, seed, shard, num_parallel_reads).map(
        unconverted(lambda record: _parse_classification(record, label_offset)), num_parallel_calls=tf.data.AUTOTUNE)


def _parse_classification(record, label_offset):
    f = tf.io.parse_single_example(record, _FEATURES)
    return f["image/encoded"], f["image/class/label"] + label_offset


def _records(files, shuffle, seed, shard, num_parallel_reads) -> tf.data.Dataset:
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
    return ds.interleave(tf.data.TFRecordDataset, cycle_length=min(len(files), 8),
                         num_parallel_calls=num_parallel_reads, deterministic=not shuffle)


_BOX_KEYS = ("image/object/bbox/xmin", "image/object/bbox/ymin", "image/object/bbox/xmax",
             "image/object/bbox/ymax")
_DETECTION_FEATURES = {
    "image/encoded": tf.io.FixedLenFeature([], tf.string),
    "image/source_id": tf.io.FixedLenFeature([], tf.string, default_value=""),
    "image/height": tf.io.FixedLenFeature([], tf.int64, default_value=-1),
    "image/width": tf.io.FixedLenFeature([], tf.int64, default_value=-1),
    **{k: tf.io.VarLenFeature(tf.float32) for k in _BOX_KEYS},
    "image/object/class/label": tf.io.VarLenFeature(tf.int64),
    "image/object/area": tf.io.VarLenFeature(tf.float32),
    "image/object/is_crowd": tf.io.VarLenFeature(tf.int64),
    "image/object/mask": tf.io.VarLenFeature(tf.string),
}


def detection_tfrecord(files: Union[str, Sequence[str]], shuffle: bool = False, seed: Optional[int] = None,
                       shard: Optional[Tuple[int, int]] = None, include_masks: bool = False,
                       num_parallel_reads: int = tf.data.AUTOTUNE) -> tf.data.Dataset:
    """Per-image dicts in Keras 3's layout from the detection TF Examples Model Garden reads:
    `{"images": encoded bytes, "bounding_boxes": {"boxes": [n, 4] rel_xyxy, "labels": int32 [n],
    "is_crowd": bool [n], "area": float32 [n]}, "source_id": string}` (boxes as stored:
    `image/object/bbox/{xmin,ymin,xmax,ymax}` fractions, so pass
    `bounding_box_format="rel_xyxy"` to `gpu_augment`). With `include_masks`, the instance
    masks `image/object/mask` (PNG bytes, one per box) come as `"instance_masks"`.
    Use `ragged_batch` to batch. A record with ragged box fields of different lengths raises.

    Args:
      files: TFRecord file names or a glob pattern.
      shuffle: shuffle the files (reshuffled every epoch).
      seed: the shuffle's seed (None: random).
      shard: (n, i) keeps every n-th file starting at i.
      include_masks: also read the instance masks.
      num_parallel_reads: files read at once (-1: autotuned).
    """
    def parse(record):
        f = tf.io.parse_single_example(record, _DETECTION_FEATURES)
        dense = {k: tf.sparse.to_dense(v) if isinstance(v, tf.sparse.SparseTensor) else v for k, v in f.items()}
        coords = [dense[k] for k in _BOX_KEYS]
        n = tf.shape(coords[0])[0]
        checks = [tf.debugging.assert_equal(tf.shape(c)[0], n, message="box coordinate lists differ in length")
                  for c in coords[1:]]
        checks.append(tf.debugging.assert_equal(tf.shape(dense["image/object/class/label"])[0], n,
                                                message="image/object/class/label and the boxes differ in length"))
        with tf.control_dependencies(checks):
            boxes = tf.stack(coords, axis=1)
        pad = lambda v, default: tf.concat([v, tf.fill([n - tf.shape(v)[0]], default)], 0)[:n]  # noqa: E731
        out = {"images": dense["image/encoded"], "source_id": dense["image/source_id"],
               "bounding_boxes": {
                   "boxes": boxes,
                   "labels": tf.cast(dense["image/object/class/label"], tf.int32),
                   "is_crowd": tf.cast(pad(dense["image/object/is_crowd"], tf.constant(0, tf.int64)), tf.bool),
                   "area": pad(dense["image/object/area"], -1.0)}}
        if include_masks:
            out["instance_masks"] = dense["image/object/mask"]
        return out

    records = _records(files, shuffle, seed, shard, num_parallel_reads)
    return records.map(unconverted(parse), num_parallel_calls=tf.data.AUTOTUNE)
