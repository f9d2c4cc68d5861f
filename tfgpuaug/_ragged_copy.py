"""Ragged components across the copy to the device: as their flat values and row splits.

A copy to the device moves dense tensors only (a ragged element component is a variant tensor,
which cannot live on a GPU), so before the copy every ragged component becomes a dict of its
flat values and row splits, and the device part's map rebuilds it. The rebuild itself makes no
op; encoding the rebuilt component as the map's output is `RaggedTensorToVariant`, which has a
CPU kernel only and so runs on the host inside the device function: it touches the annotations
(boxes, labels, keypoints), never the pixels.
"""
from __future__ import annotations

import tensorflow as tf

_VALUES, _SPLITS = "_tfgpuaug_ragged_values", "_tfgpuaug_ragged_row_splits"


def has_ragged(element_spec) -> bool:
    return any(isinstance(s, tf.RaggedTensorSpec) for s in tf.nest.flatten(element_spec))


def to_parts(element):
    """Every RaggedTensor of `element` as {values, row splits} (dense tensors)."""
    return tf.nest.map_structure(
        lambda x: {_VALUES: x.flat_values, _SPLITS: tuple(x.nested_row_splits)}
        if isinstance(x, tf.RaggedTensor) else x, element)


def from_parts(element):
    """`to_parts` undone: the parts rebuilt into RaggedTensors (no validation ops: the splits
    come from a RaggedTensor)."""
    if isinstance(element, dict):
        if set(element) == {_VALUES, _SPLITS}:
            return tf.RaggedTensor.from_nested_row_splits(element[_VALUES], element[_SPLITS], validate=False)
        return {k: from_parts(v) for k, v in element.items()}
    if isinstance(element, tuple) and hasattr(element, "_fields"):  # namedtuple
        return type(element)(*[from_parts(v) for v in element])
    if isinstance(element, (tuple, list)):
        return type(element)(from_parts(v) for v in element)
    return element
