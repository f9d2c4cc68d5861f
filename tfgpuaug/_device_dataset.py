"""The dataset class of gpu_augment's GPU-placed stage: its iterators refuse checkpointing
with a message that says what to do instead."""
from __future__ import annotations

import tensorflow as tf
from tensorflow.python.data.ops import dataset_ops, iterator_ops  # private: the pinned TF minor
from tensorflow.python.framework import ops

_NO_CHECKPOINT = (
    "gpu_augment's device stage cannot be checkpointed: TensorFlow builds copy_to_device on "
    "GeneratorDataset, which has no saveable state. To resume, rebuild the pipeline with the "
    "same seed and .skip() the batches already consumed in this epoch (the draws depend on "
    "position only), or checkpoint a CPU-path pipeline (device='/cpu:0').")


class _DeviceStageIterator(iterator_ops.OwnedIterator):
    def _serialize_to_tensors(self):
        raise tf.errors.UnimplementedError(None, None, _NO_CHECKPOINT)


class DeviceStageDataset(dataset_ops.UnaryUnchangedStructureDataset):
    """The device stage's output: its iterators refuse checkpointing with a message that says
    what to do instead (TensorFlow's own error names only GeneratorDataset). Transformations
    applied after the stage return plain datasets, whose iterators fail with TensorFlow's."""

    def __init__(self, dataset: tf.data.Dataset):
        super().__init__(dataset, dataset._variant_tensor)

    def __iter__(self):
        if not (tf.executing_eagerly() or ops.inside_function()):
            return super().__iter__()  # TensorFlow's error for graph-mode iteration
        with ops.colocate_with(self._variant_tensor):
            return _DeviceStageIterator(self)
