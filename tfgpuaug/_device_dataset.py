"""The dataset class of gpu_augment's GPU-placed stage, whose iterators checkpoint exactly.

TensorFlow's `copy_to_device` creates the host iterator inside a `GeneratorDataset`, out of
reach, so its iterators cannot be saved. Here each `iter()` creates the host part's iterator
itself (an ordinary CPU iterator, symbolic checkpoints on), and the device part reads it
through a `GeneratorDataset` on the target device that pulls from that iterator's handle.
The device part holds no buffer (no prefetch on the device, no injected one): every element
the consumer has taken is exactly one the host iterator has produced, so saving the host
iterator's state saves the whole stage's. The host part's prefetch overlaps decoding with the
consumer; the copy and the device transforms run when the consumer asks for a batch.
"""
from __future__ import annotations

from typing import Callable, Optional

import tensorflow as tf
from tensorflow.python.data.ops import dataset_ops, iterator_ops  # private: the pinned TF minor
from tensorflow.python.data.util import structure
from tensorflow.python.eager import def_function
from tensorflow.python.framework import dtypes, ops, tensor_spec
from tensorflow.python.ops import array_ops, functional_ops, gen_dataset_ops

_NO_CHECKPOINT = (
    "this dataset's GPU-placed part cannot be checkpointed: a transformation applied after "
    "gpu_augment's device stage (other than .repeat()) runs it through TensorFlow's "
    "copy_to_device, which has no saveable state. Apply such transformations before the stage, "
    "or rebuild the pipeline with the same seed and .skip() the batches already consumed.")

DevicePart = Callable[[tf.data.Dataset], tf.data.Dataset]


def _synchronous() -> tf.data.Options:
    """No prefetch or parallelism injected into the device part: it must hold no element the
    consumer has not taken (the host iterator's state is then the stage's)."""
    options = tf.data.Options()
    options.autotune.enabled = False
    options.experimental_optimization.inject_prefetch = False
    options.experimental_optimization.map_parallelization = False
    return options


class _FromHostIterator(dataset_ops.DatasetSource):
    """The elements of an existing host iterator, fetched onto `target` (a GeneratorDataset
    whose functions call the host through `remote_call`, as `copy_to_device` does, but over an
    iterator it does not own: the caller keeps it, saves it and restores it)."""

    def __init__(self, host_iterator: iterator_ops.OwnedIterator, element_spec, target: str,
                 source: str = "/cpu:0"):
        self._spec = element_spec
        with ops.device(source):
            handle = gen_dataset_ops.iterator_to_string_handle(host_iterator._iterator_resource)
        source_tensor = ops.convert_to_tensor(source)
        flat_types = structure.get_flat_tensor_types(element_spec)

        @def_function.function()
        def init():
            return array_ops.identity(handle)

        init_fn = init.get_concrete_function()

        @def_function.function()
        def remote_init():
            return functional_ops.remote_call(target=source_tensor, args=init_fn.captured_inputs,
                                              Tout=[dtypes.string], f=init_fn)

        @def_function.function(input_signature=[tensor_spec.TensorSpec([], dtypes.string)])
        def next_element(string_handle):
            with ops.device(source):
                iterator = iterator_ops.Iterator.from_string_handle(
                    string_handle, dataset_ops.get_legacy_output_types(self),
                    dataset_ops.get_legacy_output_shapes(self), dataset_ops.get_legacy_output_classes(self))
            return structure.to_tensor_list(element_spec, iterator.get_next())

        next_fn = next_element.get_concrete_function()

        @def_function.function(input_signature=[tensor_spec.TensorSpec([], dtypes.string)],
                               experimental_attributes={"experimental_ints_on_device": True})
        def remote_next(string_handle):
            return functional_ops.remote_call(target=source_tensor, args=[string_handle] + next_fn.captured_inputs,
                                              Tout=flat_types, f=next_fn)

        @def_function.function(input_signature=[tensor_spec.TensorSpec([], dtypes.string)])
        def finalize(string_handle):  # the iterator is the caller's: nothing to destroy
            del string_handle
            return tf.constant(0, tf.int64)

        functions = [remote_init.get_concrete_function(), remote_next.get_concrete_function(),
                     finalize.get_concrete_function()]
        graph = ops.get_default_graph()
        for fn in functions:
            fn.add_to_graph(graph)
        with ops.device(target):
            variant = gen_dataset_ops.generator_dataset(
                functions[0].captured_inputs, functions[1].captured_inputs, functions[2].captured_inputs,
                init_func=functions[0], next_func=functions[1], finalize_func=functions[2],
                output_types=flat_types, output_shapes=structure.get_flat_tensor_shapes(element_spec))
        super().__init__(variant)

    @property
    def element_spec(self):
        return self._spec


class _RefusingIterator(iterator_ops.OwnedIterator):
    def _serialize_to_tensors(self):
        raise tf.errors.UnimplementedError(None, None, _NO_CHECKPOINT)


class _DeviceStageIterator(iterator_ops.OwnedIterator):
    """Iterates the device part; saves and restores the host iterator it reads from."""

    def __init__(self, dataset: tf.data.Dataset, host_iterator: iterator_ops.OwnedIterator):
        super().__init__(dataset)
        self._host_iterator = host_iterator

    def _serialize_to_tensors(self):
        return self._host_iterator._serialize_to_tensors()

    def _restore_from_tensors(self, restored_tensors):
        return self._host_iterator._restore_from_tensors(restored_tensors)


class DeviceStageDataset(dataset_ops.UnaryUnchangedStructureDataset):
    """The device stage's output. Its iterators (eager, as `model.fit` and Python loops make
    them) save and restore exactly with `tf.train.Checkpoint(iterator=...)`, and `.repeat()`
    keeps that (it repeats the host part). Other transformations applied after it return plain
    datasets over TensorFlow's `copy_to_device`, whose iterators refuse to be saved.

    Args:
      dataset: the same pipeline built with `copy_to_device` (what other transformations and
        graph-mode iteration use).
      host: the host part's dataset (None: only refuse checkpoints, for any `dataset`).
      device_part: builds the device part over a dataset of host elements on `target`.
      target: the device the device part runs on.
    """

    def __init__(self, dataset: tf.data.Dataset, host: Optional[tf.data.Dataset] = None,
                 device_part: Optional[DevicePart] = None, target: Optional[str] = None):
        super().__init__(dataset, dataset._variant_tensor)
        self._host, self._device_part, self._target = host, device_part, target

    def repeat(self, count=None, name=None):
        if self._host is None:
            return super().repeat(count, name)
        from tfgpuaug.pipeline import copy_and_run  # the static pipeline over the repeated host part
        host = self._host.repeat(count, name)
        return DeviceStageDataset(copy_and_run(host, self._device_part, self._target), host,
                                  self._device_part, self._target)

    def __iter__(self):
        if not (tf.executing_eagerly() or ops.inside_function()):
            return super().__iter__()  # TensorFlow's error for graph-mode iteration
        if self._host is None or not tf.executing_eagerly():
            with ops.colocate_with(self._variant_tensor):
                return _RefusingIterator(self)
        host_iterator = iter(self._host)
        device = self._device_pipeline(host_iterator)
        with ops.colocate_with(device._variant_tensor):
            return _DeviceStageIterator(device, host_iterator)

    def _device_pipeline(self, host_iterator: iterator_ops.OwnedIterator) -> tf.data.Dataset:
        """The device part over `host_iterator`'s elements, on the target, holding no buffer."""
        with ops.device(self._target):
            device = self._device_part(_FromHostIterator(host_iterator, self._host.element_spec, self._target))
            return device.with_options(_synchronous())
