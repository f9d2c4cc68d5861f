"""Argument checks that fail at graph construction with a message saying what was expected."""
from __future__ import annotations

from typing import Iterable

import tensorflow as tf


def one_of(name: str, value, allowed: Iterable) -> None:
    allowed = tuple(allowed)
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")


def string_tensor(name: str, value) -> tf.Tensor:
    t = tf.convert_to_tensor(value, name=name)
    if t.dtype != tf.string:
        raise TypeError(f"{name} must be a tf.string tensor of encoded images, got {t.dtype.name}")
    return t


def static_rank(name: str, t: tf.Tensor, allowed: Iterable[int]) -> int:
    allowed = tuple(allowed)
    rank = t.shape.rank
    if rank is None or rank not in allowed:
        shown = "unknown" if rank is None else rank
        raise ValueError(f"{name} must have rank {' or '.join(map(str, allowed))}, got rank {shown} "
                         f"(shape {t.shape})")
    return rank


def run_time(images: tf.Tensor, ok: tf.Tensor, name: str) -> tf.Tensor:
    """`images` [B, H, W, C], failing at run time unless the scalar bool `ok` holds: a reshape to
    [B, H, W, C + 1] when it does not, whose error names `name` (the rule, in words joined by
    underscores). An Assert would put string constants, which have no GPU kernel, into a
    device stage."""
    shape = tf.shape(images)
    checked = tf.reshape(images, tf.stack([shape[0], shape[1], shape[2], tf.where(ok, shape[3], shape[3] + 1)]),
                         name=name)
    checked.set_shape(images.shape)  # what it is whenever it passes
    return checked
