"""COCO detection annotations as a tf.data source: images with their boxes, labels, crowd
flags, areas and (optionally) masks, in Keras 3's layout.

The annotation file is read once when the dataset is built (it is metadata, like a file
list); segmentations are packed per instance and turned into masks in the graph by the
`TfGpuAug>CocoMasks` kernel (polygons rasterized at pixel centres, RLE decoded), never by a
`py_function`.
"""
from __future__ import annotations

import json
import os
import struct
from typing import Dict, Optional, Tuple

import numpy as np
import tensorflow as tf

from tfgpuaug._autograph import unconverted

MASK_MODES = (None, "instance_ids", "instances")
_POLYGONS, _RLE_COUNTS, _RLE_STRING = 0, 1, 2


def pack_segmentation(segmentation) -> Tuple[int, bytes]:
    """(kind, bytes) of one COCO segmentation for the CocoMasks kernel."""
    if isinstance(segmentation, list):  # polygons: [[x0, y0, x1, y1, ...], ...]
        parts = []
        for part in segmentation:
            coords = np.asarray(part, np.float32).reshape(-1)
            if coords.size % 2:
                raise ValueError(f"a COCO polygon has an odd number of coordinates ({coords.size})")
            parts.append(struct.pack("<I", coords.size) + coords.astype("<f4").tobytes())
        return _POLYGONS, b"".join(parts)
    if isinstance(segmentation, dict) and "counts" in segmentation:
        counts = segmentation["counts"]
        if isinstance(counts, str):
            return _RLE_STRING, counts.encode("ascii")
        if isinstance(counts, bytes):
            return _RLE_STRING, counts
        return _RLE_COUNTS, np.asarray(counts, "<u4").tobytes()
    raise ValueError(f"unknown COCO segmentation: {type(segmentation).__name__}")


def coco(annotation_file: str, image_dir: str, masks: Optional[str] = None, include_crowd: bool = True,
         skip_empty: bool = False, shuffle: bool = False, seed: Optional[int] = None,
         shard: Optional[Tuple[int, int]] = None) -> tf.data.Dataset:
    """Per-image dicts from a COCO annotation file (instances_*.json):
    `{"images": encoded bytes, "image_id": int64, "bounding_boxes": {"boxes": [n, 4] xyxy
    pixels, "labels": int32 category ids [n], "is_crowd": bool [n], "area": float32 [n]}}`.

    Args:
      annotation_file: the JSON file (any filesystem `tf.io.gfile` opens).
      image_dir: the folder the annotations' `file_name` entries are in.
      masks: None; "instance_ids": `"segmentation_masks"` uint8 `[H, W, 1]` holding 1 + the
        index of the (last) instance covering each pixel, which `gpu_augment` moves with the
        image like any mask (at most 255 instances per image); "instances": `"instance_masks"`
        uint8 `[n, H, W]`, one 0/1 mask per box.
      include_crowd: keep `iscrowd` annotations (flagged in `is_crowd`).
      skip_empty: leave out images without annotations.
      shuffle, seed, shard: as the other readers (`shard=(n, i)` splits images before shuffling).

    The returned dataset has `class_names` (category id -> name). Batch with `ragged_batch`.
    """
    if masks not in MASK_MODES:
        raise ValueError(f"masks must be one of {MASK_MODES}, got {masks!r}")
    with tf.io.gfile.GFile(annotation_file, "r") as f:
        data = json.load(f)
    by_image: Dict[int, list] = {}
    for a in data.get("annotations", []):
        if a.get("iscrowd", 0) and not include_crowd:
            continue
        by_image.setdefault(a["image_id"], []).append(a)
    images = sorted(data.get("images", []), key=lambda im: im["id"])
    if skip_empty:
        images = [im for im in images if by_image.get(im["id"])]
    if not images:
        raise ValueError(f"{annotation_file} lists no images")
    rows = {"path": [], "image_id": [], "height": [], "width": [], "boxes": [], "labels": [], "is_crowd": [],
            "area": [], "segmentations": [], "kinds": []}
    for im in images:
        anns = by_image.get(im["id"], [])
        rows["path"].append(os.path.join(image_dir, im["file_name"]))
        rows["image_id"].append(int(im["id"]))
        rows["height"].append(int(im["height"]))
        rows["width"].append(int(im["width"]))
        xywh = np.asarray([a["bbox"] for a in anns], np.float32).reshape(-1, 4)
        rows["boxes"].append(np.concatenate([xywh[:, :2], xywh[:, :2] + xywh[:, 2:]], axis=1))
        rows["labels"].append(np.asarray([a["category_id"] for a in anns], np.int32))
        rows["is_crowd"].append(np.asarray([bool(a.get("iscrowd", 0)) for a in anns], bool))
        rows["area"].append(np.asarray([a.get("area", -1.0) for a in anns], np.float32))
        packed = [pack_segmentation(a["segmentation"]) if masks and "segmentation" in a else (_POLYGONS, b"")
                  for a in anns]
        rows["kinds"].append(np.asarray([k for k, _ in packed], np.int32))
        rows["segmentations"].append([b for _, b in packed])
    def ragged(key, dtype):
        return tf.ragged.constant([list(v) for v in rows[key]], dtype=dtype, ragged_rank=1)

    columns = {
        "path": tf.constant(rows["path"]), "image_id": tf.constant(rows["image_id"], tf.int64),
        "height": tf.constant(rows["height"], tf.int32), "width": tf.constant(rows["width"], tf.int32),
        "boxes": tf.RaggedTensor.from_row_lengths(np.concatenate(rows["boxes"]),
                                                  [len(b) for b in rows["boxes"]]),
        "labels": ragged("labels", tf.int32), "is_crowd": ragged("is_crowd", tf.bool),
        "area": ragged("area", tf.float32), "kinds": ragged("kinds", tf.int32),
        "segmentations": ragged("segmentations", tf.string),
    }
    from tfgpuaug.data.readers import split

    ds = split(tf.data.Dataset.from_tensor_slices(columns), shard)
    if shuffle:
        ds = ds.shuffle(len(images), seed=seed, reshuffle_each_iteration=True)
    ds = ds.map(unconverted(lambda row: _element(row, masks)), num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)
    ds.class_names = {int(c["id"]): c["name"] for c in data.get("categories", [])}
    return ds


def _element(row: dict, masks: Optional[str]) -> dict:
    from tfgpuaug import _loader

    out = {"images": tf.io.read_file(row["path"]), "image_id": row["image_id"],
           "bounding_boxes": {"boxes": row["boxes"], "labels": row["labels"], "is_crowd": row["is_crowd"],
                              "area": row["area"]}}
    if masks:
        m = _loader.ops().tf_gpu_aug_coco_masks(row["segmentations"], row["kinds"], row["height"], row["width"],
                                                instance_ids=masks == "instance_ids")
        out["segmentation_masks" if masks == "instance_ids" else "instance_masks"] = m
    return out
