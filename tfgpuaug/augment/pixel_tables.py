"""Kernel ops on 256-level tables (CPU and GPU, one pass over the uint8 bytes): `level_tables`
(each byte through a table of 256 per image, row and channel: the weather effects' darkening,
blends and rain layer, per-channel tone tables), `hls_lightness` (OpenCV's 8-bit HLS lightness
rewritten: RandomSnow, RandomGravel) and `channel_histograms` (each channel's level counts:
HistogramMatching)."""
from __future__ import annotations

from typing import Optional

import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug._types import Images, TensorLike


def _no_rows() -> tf.Tensor:
    return tf.zeros([0], tf.int32)


def level_tables(images: Images, tables: TensorLike, rows: Optional[TensorLike] = None) -> tf.Tensor:
    """Each byte replaced by its table entry (the LevelTables kernel op).

    Args:
      images: uint8 `[B, H, W, C]`.
      tables: uint8 `[T, R, K, 256]`: T 1 (one set for the batch) or B (one per image), R rows, K 1
        (one table for every channel) or C (one per channel).
      rows: int32 `[B, H, W]` row index per pixel, clamped into [0, R - 1]; None: row 0.
    """
    from tfgpuaug.augment.ops import check_images
    images = check_images(images)
    tables = tf.convert_to_tensor(tables)
    if tables.dtype != tf.uint8 or tables.shape.rank != 4 or tables.shape[-1] not in (None, 256):
        raise ValueError(f"level_tables: tables must be uint8 [1 or B, R, 1 or C, 256], got {tables.dtype.name} "
                         f"{tables.shape}")
    rows = _no_rows() if rows is None else tf.convert_to_tensor(rows, tf.int32)
    return _loader.ops().tf_gpu_aug_level_tables(images, tables, rows)


def hls_lightness(images: Images, tables: TensorLike, levels: Optional[TensorLike] = None) -> tf.Tensor:
    """RGB images with their OpenCV 8-bit HLS lightness rewritten (the HlsLightness kernel op):
    where `levels` is >= 0 it is the new lightness (255 at most), else `tables[lightness]` is,
    and a negative entry keeps the pixel's bytes. Edited pixels go back through 8-bit HLS as
    cv2.cvtColor's round trip (hue in 2-degree steps).

    Args:
      images: uint8 `[B, H, W, 3]`.
      tables: int32 `[1 or B, 256]`, new lightness per lightness, negative: keep the pixel.
      levels: int32 `[B, H, W]` lightness per pixel, negative: use the table; None: none.
    """
    from tfgpuaug.augment.ops import check_images
    images = check_images(images)
    if images.shape[-1] is not None and images.shape[-1] != 3:
        raise ValueError(f"hls_lightness takes RGB images (3 channels), got {images.shape[-1]}")
    tables = tf.convert_to_tensor(tables, tf.int32)
    if tables.shape.rank != 2 or tables.shape[-1] not in (None, 256):
        raise ValueError(f"hls_lightness: tables must be [1 or B, 256], got {tables.shape}")
    levels = _no_rows() if levels is None else tf.convert_to_tensor(levels, tf.int32)
    return _loader.ops().tf_gpu_aug_hls_lightness(images, tables, levels)


def channel_histograms(images: Images) -> tf.Tensor:
    """int32 `[B, C, 256]`: how many pixels of each image hold each level in each channel (the
    ChannelHistograms kernel op: one read of the bytes).

    Args:
      images: uint8 `[B, H, W, C]`, any channel count.
    """
    images = tf.convert_to_tensor(images)
    if images.dtype != tf.uint8 or images.shape.rank != 4:
        raise ValueError(f"channel_histograms: images must be uint8 [B, H, W, C], got {images.dtype.name} "
                         f"{images.shape}")
    return _loader.ops().tf_gpu_aug_channel_histograms(images)
