"""Reference-image banks of the domain-adaptation transforms (HistogramMatching, FDA): the
bank's checks, and one reference drawn per sample, resized to the images' size as
Albumentations resizes it (bilinear, cv2.resize's half-pixel centres, rounded)."""
from __future__ import annotations

import tensorflow as tf

from tfgpuaug._types import TensorLike


def check_bank(who: str, reference_images: TensorLike) -> tf.Tensor:
    """The bank as a uint8 `[R, h, w, C]` tensor, or a ValueError naming the transform."""
    bank = tf.convert_to_tensor(reference_images)
    if bank.dtype != tf.uint8 or bank.shape.rank != 4 or bank.shape[0] == 0:
        raise ValueError(f"{who}: reference_images must be a non-empty uint8 [R, h, w, C] batch (images of one "
                         f"size; resize them to one first), got {bank.dtype.name} {bank.shape}")
    return bank


def check_channels(who: str, images: tf.Tensor, bank: tf.Tensor) -> None:
    if images.shape[-1] is not None and images.shape[-1] != bank.shape[-1]:
        raise ValueError(f"{who}: the references have {bank.shape[-1]} channels and the images {images.shape[-1]}")


def drawn_references(bank: tf.Tensor, pick: tf.Tensor, hw: tf.Tensor) -> tf.Tensor:
    """float32 `[B, H, W, C]` levels: bank[pick] resized to `hw` where its size differs."""
    references = tf.gather(tf.cast(bank, tf.float32), pick)  # float32: GPU gathers and resizes take it
    same = tf.reduce_all(tf.equal(tf.shape(references)[1:3], hw))
    return tf.cond(same, lambda: references,
                   lambda: tf.clip_by_value(tf.round(tf.image.resize(references, hw, "bilinear")), 0.0, 255.0))
