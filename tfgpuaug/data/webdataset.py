"""WebDataset tar shards as a tf.data source, inside the graph (no `py_function`).

A shard is a tar file whose consecutive members sharing a key (the path up to the first '.' of
the file name) form one sample: `000017.jpg`, `000017.cls`, `000017.json`. The reader streams
members with the `TfGpuAug>TarSampleDataset` op through TensorFlow's filesystems (local
files, or any scheme `tf.io.gfile` opens), so iterator checkpoints and tf.data service work as
for TFRecords. A cut or corrupt shard raises `InvalidArgumentError` naming the shard, the
member and the byte offset; `tf.data.experimental.ignore_errors()` then goes on with the next
shard (a sample missing a field costs only that sample).
"""
from __future__ import annotations

import re
from typing import Dict, Mapping, Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug._autograph import unconverted

DEFAULT_FIELDS = {"image": "jpg;jpeg;png;webp", "label": "cls"}


def expand_braces(pattern: str) -> list:
    """WebDataset's shard notation: "shards-{000..009}.tar" -> 10 names (ranges keep the
    width of their first bound; "{a,b}" lists alternatives). Nested braces are expanded too.

    Args:
      pattern: a name with `{a..b}` ranges or `{x,y}` alternatives.
    """
    match = re.search(r"\{([^{}]*)\}", pattern)
    if match is None:
        return [pattern]
    head, tail, body = pattern[:match.start()], pattern[match.end():], match.group(1)
    numeric = re.fullmatch(r"(\d+)\.\.(\d+)", body)
    if numeric:
        lo, hi = numeric.groups()
        items = [str(i).zfill(len(lo)) for i in range(int(lo), int(hi) + 1)]
    else:
        items = body.split(",")
    return [name for item in items for name in expand_braces(head + item + tail)]


def _shard_files(urls: Union[str, Sequence[str]]) -> list:
    names = [urls] if isinstance(urls, str) else list(urls)
    files = []
    for name in names:
        for expanded in expand_braces(name):
            files += sorted(tf.io.gfile.glob(expanded)) if any(c in expanded for c in "*?[") else [expanded]
    if not files:
        raise ValueError(f"no tar shards match {urls!r}")
    return files


def _field_names(fields: Union[Mapping[str, str], Sequence[str]]) -> Dict[str, str]:
    named = dict(fields) if isinstance(fields, Mapping) else {f.split(";")[0]: f for f in fields}
    if not named:
        raise ValueError("fields must name at least one extension")
    for name, extensions in named.items():
        if not isinstance(extensions, str) or not [e for e in extensions.split(";") if e]:
            raise ValueError(f"field {name!r}: extensions must be a non-empty string like 'jpg;png', "
                             f"got {extensions!r}")
        if name in ("__key__", "__url__"):
            raise ValueError(f"field name {name!r} is reserved for the sample's key and shard")
    return named


def tar_samples(files: Union[str, Sequence[str], tf.Tensor],
                fields: Union[Mapping[str, str], Sequence[str]] = DEFAULT_FIELDS,
                missing_ok: bool = False) -> tf.data.Dataset:
    """The samples of the given shards in order: dicts of `__key__`, `__url__` and one
    string per field (the member's bytes; empty for a missing member with `missing_ok`).

    Args:
      files: tar shard names, a brace pattern, or a string tensor.
      fields: field name -> member extensions (";"-separated alternatives), or a list of extensions.
      missing_ok: give an empty string for a missing member instead of raising.
    """
    from tfgpuaug import _loader

    named = _field_names(fields)
    variant = _loader.ops().tf_gpu_aug_tar_sample_dataset(
        tf.convert_to_tensor(files, tf.string), extensions=list(named.values()), missing_ok=missing_ok)
    spec = tuple(tf.TensorSpec([], tf.string) for _ in range(2 + len(named)))
    ds = tf.data.experimental.from_variant(variant, spec)
    names = ["__key__", "__url__"] + list(named)
    return ds.map(unconverted(lambda *parts: dict(zip(names, parts))))


def webdataset(urls: Union[str, Sequence[str]], fields: Union[Mapping[str, str], Sequence[str]] = DEFAULT_FIELDS,
               shuffle: bool = False, seed: Optional[int] = None, shard: Optional[Tuple[int, int]] = None,
               cycle_length: int = 4, block_length: int = 1, missing_ok: bool = False,
               num_parallel_reads: Optional[int] = tf.data.AUTOTUNE,
               num_samples: Optional[int] = None) -> tf.data.Dataset:
    """Samples from WebDataset tar shards.

    Args:
      urls: shard paths, a glob, or WebDataset's brace notation ("data/train-{0000..0146}.tar"),
        on any filesystem TensorFlow opens.
      fields: output name -> extensions ("jpg;png": the first present wins), or a list of
        extension strings (named by their first extension). Every element also has `__key__`
        and `__url__` (its shard).
      shuffle: reshuffle the shard order every epoch (samples within a shard stay in order;
        follow with `.shuffle(buffer)` to mix samples, as WebDataset does).
      seed: the shard-shuffle seed.
      shard: `(num_shards, index)`: this input pipeline reads every num_shards-th shard
        (`tfgpuaug.data.shard_for(input_context)` under tf.distribute).
      cycle_length, block_length: shards read at once, and samples taken from each in turn.
      missing_ok: a sample without a member for a field gets empty bytes there instead of an
        error.
      num_parallel_reads: shards read in parallel (in a deterministic order unless `shuffle`
        without a `seed`).
      num_samples: how many samples these shards hold, when known (WebDataset's `.nsamples`).
        Tar shards have no index, so the dataset's cardinality is otherwise unknown and Keras
        cannot size an epoch ("input ran out of data" with `steps_per_epoch`); with it the
        dataset reports that cardinality, and an iteration that yields another count raises.
        Not with `shard`, which gives each pipeline an unknown share.

    Returns:
      A dataset of dicts of scalar strings. Labels stored as text (`.cls`) convert with
      `tf.strings.to_number(x["label"], tf.int64)`; images go straight to `gpu_augment`.
    """
    files = _shard_files(urls)
    named = _field_names(fields)
    from tfgpuaug.data.readers import split

    ds = split(tf.data.Dataset.from_tensor_slices(files), shard, count=len(files))
    if shuffle:
        ds = ds.shuffle(len(files), seed=seed, reshuffle_each_iteration=True)
    if num_samples is not None and (shard is not None or num_samples < 0):
        raise ValueError("num_samples is the samples of every shard, so it takes no shard=, and cannot be negative")
    ds = ds.interleave(lambda f: tar_samples(tf.reshape(f, [1]), named, missing_ok),
                       cycle_length=max(1, min(cycle_length, len(files))), block_length=block_length,
                       num_parallel_calls=num_parallel_reads, deterministic=not shuffle or seed is not None)
    return ds if num_samples is None else ds.apply(tf.data.experimental.assert_cardinality(num_samples))
