"""TensorFlow Datasets with image decoding skipped: the encoded bytes reach tfgpuaug's fused
decode-crop-resize ops instead of being decoded whole by `tf.io.decode_image` first.

`tensorflow-datasets` is an optional dependency: it is imported only when this reader runs.
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Union

import tensorflow as tf


def image_keys(features: Any, prefix: str = "") -> List[str]:
    """The paths ("image", "objects/mask") of every `tfds.features.Image` in a features dict."""
    import tensorflow_datasets as tfds_lib

    keys = []
    items = features.items() if hasattr(features, "items") else []
    for name, feature in items:
        path = f"{prefix}{name}"
        if isinstance(feature, tfds_lib.features.Image):
            keys.append(path)
        elif hasattr(feature, "items"):
            keys += image_keys(feature, path + "/")
    return keys


def _skip_decoding(keys: Sequence[str]) -> dict:
    import tensorflow_datasets as tfds_lib

    decoders: dict = {}
    for key in keys:
        node = decoders
        *parents, leaf = key.split("/")
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = tfds_lib.decode.SkipDecoding()
    return decoders


def tfds(name_or_builder: Union[str, Any], split: str, data_dir: Optional[str] = None, shuffle_files: bool = False,
         seed: Optional[int] = None, input_context: Optional[tf.distribute.InputContext] = None,
         as_supervised: bool = False, download: bool = False) -> tf.data.Dataset:
    """A TFDS split whose image features stay encoded (`tfds.decode.SkipDecoding`).

    Args:
      name_or_builder: a registered dataset name ("imagenet2012", "coco/2017:1.1.0") or a
        `tfds.core.DatasetBuilder`.
      split: "train", "validation[:10%]", ... (TFDS's split syntax).
      data_dir: where the prepared dataset lives (TFDS's default when None).
      shuffle_files: shuffle the record files (reshuffled every epoch); `seed` fixes the order.
      seed: the shuffle's seed (None: random).
      input_context: a `tf.distribute.InputContext`: each input pipeline reads its own files.
      as_supervised: (image bytes, label) pairs instead of feature dicts.
      download: run `download_and_prepare` first.

    Returns:
      Elements as TFDS gives them (dicts, or pairs with `as_supervised`), every image feature
      a scalar string of encoded bytes, ready for `gpu_augment`.
    """
    try:
        import tensorflow_datasets as tfds_lib
    except ImportError as e:  # pragma: no cover - exercised only without the package
        raise ImportError("tga.data.tfds needs tensorflow-datasets: pip install tensorflow-datasets") from e

    builder = (tfds_lib.builder(name_or_builder, data_dir=data_dir) if isinstance(name_or_builder, str)
               else name_or_builder)
    if download:
        builder.download_and_prepare()
    keys = image_keys(builder.info.features)
    if not keys:
        raise ValueError(f"{builder.info.name} has no image feature to keep encoded")
    read_config = tfds_lib.ReadConfig(shuffle_seed=seed, input_context=input_context)
    return builder.as_dataset(split=split, shuffle_files=shuffle_files, decoders=_skip_decoding(keys),
                              read_config=read_config, as_supervised=as_supervised)
