"""`dataset.apply(gpu_augment(transforms))`: the batched tfgpuaug stage of a tf.data pipeline.

The input dataset yields batches whose first component (or `image`/`images` key) holds
encoded bytes `tf.string [B]` or decoded images; the other components pass through
untouched. Each batch gets a stateless seed (seed, draw), with draws from `batch_seeds` zipped
with the batches: every batch and every epoch (re-iteration, or `.repeat()` after the stage)
draws afresh, a fixed seed reproduces the whole multi-epoch stream from run to run, and a
checkpointed iterator resumes it exactly, across epoch boundaries (the stage turns on
tf.data's symbolic checkpointing for that; see `_batch_seeds.checkpoint_options`).

Where the work runs:
- CPU target (no GPU visible, or `device="/cpu:..."`): one parallel map runs every transform
  with the CPU kernels, resampling and normalisation fused into one pass.
- GPU target: the transforms are split in two. The host part (everything up to and including
  the transform that decodes: encoded bytes live in host memory and the fused
  decode + crop + resize is a libjpeg-turbo kernel) runs in a parallel map on the CPU and
  yields uint8 crops, prefetched on the host; they are copied to the device (a quarter of the
  float32 bytes); the device part (augmentation, flip, crop-mirror-normalize) runs in
  TensorFlow's `ExperimentalMapDataset`, whose kernel is registered for the GPU (`Dataset.map`
  has CPU kernels only and would be soft-placed on the CPU), and holds no buffer, so the stage's
  iterators checkpoint exactly (`DeviceStageDataset`).
`host_stage` and `device_stage` are the two halves, for running the host part on tf.data
service workers and the device part on the trainer.
"""
from __future__ import annotations

import inspect
import random
from typing import Callable, Optional, Sequence, Union

import tensorflow as tf

from tfgpuaug import _checks, _ragged_copy, _skip
from tfgpuaug._autograph import unconverted
from tfgpuaug._batch_seeds import batch_seeds, checkpoint_options
from tfgpuaug._device_dataset import DeviceStageDataset
from tfgpuaug._elements import Layout
from tfgpuaug.targets import BoxFilter
from tfgpuaug.transforms import Compose, Transform

__all__ = ["gpu_augment", "host_stage", "device_stage", "distribute", "resolve_device",
           "batch_seeds", "DeviceStageDataset"]

Transforms = Union[Sequence[Callable], Callable]
_PLAIN = Layout()


def _check_copyable(element_spec) -> None:
    """The copy to the device moves dense tensors, and ragged ones as their parts
    (_ragged_copy); a sparse component cannot go."""
    sparse = [s for s in tf.nest.flatten(element_spec) if isinstance(s, tf.SparseTensorSpec)]
    if sparse:
        raise ValueError("the GPU-placed stage copies dense and ragged tensors to the GPU, and this element has a "
                         f"sparse component ({sparse[0]}): convert it (tf.RaggedTensor.from_sparse, "
                         "tf.sparse.to_dense) before the stage, or use device='/cpu:0'")


def _takes_seed(fn) -> bool:
    try:
        return "seed" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


_DECODERS = ("RandomResizedCrop, ResizeCenterCrop, Resize, RandomIoUCrop, RandomSizedBBoxSafeCrop, ScaleJitter "
             "or Letterbox")


class _Plan:
    """The transforms as one callable, and where a GPU-placed stage splits them. With
    `training=False` every transform runs its inference behaviour (no randomness)."""

    def __init__(self, transforms: Transforms, training: bool = True):
        self.composed = isinstance(transforms, (list, tuple))
        self.fn = Compose(list(transforms)) if self.composed else transforms
        self.training = bool(training)

    def check_input(self, element_spec) -> None:
        """Refuses, when the stage is built, inputs the transforms would get wrong or fail on
        deep inside the graph: encoded bytes before any decoding transform, and images that are
        not uint8 (tfgpuaug's transforms work on 0..255 pixels and do not guess a float's range)."""
        if not self.composed:
            return
        spec, _ = Layout.split_images(element_spec)
        transforms = self.fn.transforms
        if spec.dtype == tf.string:
            for t in transforms:
                if getattr(t, "decodes", False):
                    break
                name = type(t).__name__
                raise ValueError(f"{name} needs decoded images, and this dataset's images are encoded bytes "
                                 f"(tf.string): put a decoding transform ({_DECODERS}) first, e.g. "
                                 f"[RandomResizedCrop(224), {name}(...)]")
            return
        if spec.dtype != tf.uint8:
            first = next((t for t in transforms if not getattr(t, "accepts_float", False)), None)
            if first is None:
                return
            raise TypeError(
                f"{type(first).__name__} takes uint8 images (0..255), and this dataset's images are "
                f"{spec.dtype.name}: tfgpuaug does not guess their range. Map them to uint8 before the stage: "
                "tf.image.convert_image_dtype(images, tf.uint8, saturate=True) for floats in [0, 1], "
                "tf.cast(tf.clip_by_value(tf.round(images), 0, 255), tf.uint8) for 0..255 floats "
                "(keras.utils.image_dataset_from_directory gives those)")

    def host_stop(self, element_spec) -> int:
        """Transforms [0, host_stop) run on the host: a list through its first decoding
        transform and its last CPU-only one, and with annotations through the last transform
        that moves them (Compose.host_stop); a plain callable whole on the host for encoded or
        ragged images or with annotations, else whole on the device."""
        spec, _ = Layout.split_images(element_spec)
        encoded = isinstance(spec, tf.RaggedTensorSpec) or spec.dtype == tf.string
        with_targets = Layout.has_targets(element_spec)
        if not self.composed:
            return 1 if encoded or with_targets else 0
        stop = self.fn.host_stop(with_targets)
        if encoded and stop == 0:
            raise ValueError("encoded or ragged images need a decoding transform (RandomResizedCrop,"
                             " ResizeCenterCrop or Resize) to make a dense batch")
        return stop

    def run(self, images, seed, start: int = 0, stop: Optional[int] = None):
        if self.composed:
            return self.fn(images, seed=seed, start=start, stop=stop, training=self.training)
        if start > 0 or stop == 0:  # a plain callable is one step
            return images
        if isinstance(self.fn, Transform):
            return self.fn(images, seed=seed, training=self.training)
        if _takes_seed(self.fn):
            return self.fn(images, seed=seed)
        return self.fn(images)

    def run_with_targets(self, images, targets, seed, stop: Optional[int] = None):
        """Transforms [0, stop), with boxes, masks and keypoints following the pixels."""
        fn = self.fn if self.composed else Compose([self.fn])
        return fn.apply(images, targets, seed, self.training, stop=stop)


def _base_seed(seed: Optional[int]) -> int:
    return random.SystemRandom().randrange(2**31) if seed is None else int(seed)


def resolve_device(device: Optional[str]) -> Optional[str]:
    """The GPU the device part runs on, or None for the CPU path.

    None: the GPU of the enclosing `tf.device` scope (as `distribute_datasets_from_function`
    sets per replica with `experimental_place_dataset_on_device`), else "/gpu:0" when
    TensorFlow sees a GPU, else the CPU path. A CPU device string means the CPU path.
    """
    if device is None:
        scope = _current_device_scope()
        if scope:
            device = scope
        elif tf.config.list_physical_devices("GPU"):
            return "/gpu:0"
        else:
            return None
    spec = tf.DeviceSpec.from_string(device)
    return device if (spec.device_type or "").upper() == "GPU" else None


def _current_device_scope() -> str:
    if tf.executing_eagerly():
        from tensorflow.python.eager import context
        return context.context().device_name or ""
    op_device = tf.no_op().device  # the device functions of the graph's current scope
    return op_device or ""


def _seeded_map(ds: tf.data.Dataset, seed: int, fn, num_parallel_calls: int) -> tf.data.Dataset:
    """`fn(batch_seed, element)` over the batches zipped with `batch_seeds(seed)`."""
    ds = tf.data.Dataset.zip(batch_seeds(seed), ds)
    ds = ds.map(unconverted(fn), num_parallel_calls=num_parallel_calls, deterministic=True)
    return ds.with_options(checkpoint_options())


def _batch_size(images) -> tf.Tensor:
    return images.nrows() if isinstance(images, tf.RaggedTensor) else tf.shape(images)[0]


def _map_batches(ds: tf.data.Dataset, seed: int, layout: Layout, process, num_parallel_calls: int,
                 on_error: str, keep_seed: bool = False) -> tf.data.Dataset:
    """`process(images, targets, batch_seed) -> (images, targets)` over the seeded batches,
    rebuilt in the input's layout (as `(batch_seed, element)` with `keep_seed`, for
    `device_stage`). With on_error="skip" the samples a decode fails on leave the batch with
    every other component, are logged and counted, and empty batches are dropped."""
    def output(batch_seed, element):
        return (batch_seed, element) if keep_seed else element

    if on_error == "raise" and not _skip.has_names(ds.element_spec):
        def run(batch_seed, element):
            images, targets, rebuild = layout.split(element)
            return output(batch_seed, rebuild(*process(images, targets, batch_seed)))

        return _seeded_map(ds, seed, run, num_parallel_calls)

    # Skipping, or raising with the failed image's file named (elements that carry paths):
    # the decodes report per-image errors, and the report drops or raises.
    def run_reporting(batch_seed, indexed):
        index, element = indexed
        images, targets, _ = layout.split(element)
        with _skip.collecting(_batch_size(images)) as scope:
            images, targets = _skip.drop_failed(*process(images, targets, batch_seed))
            images = _skip.report(scope, index, element, images, on_error)
        _, _, rebuild = layout.split(_skip.keep_rows(element, scope.kept))
        return output(batch_seed, rebuild(images, targets))

    ds = _seeded_map(ds.enumerate(), seed, run_reporting, num_parallel_calls)
    if on_error == "raise":
        return ds

    def nonempty(element) -> tf.Tensor:
        return _batch_size(layout.split(element)[0]) > 0

    if keep_seed:
        return ds.filter(lambda batch_seed, element: nonempty(element))
    return ds.filter(lambda *element: nonempty(element[0] if len(element) == 1 else element))


def host_stage(transforms: Transforms, seed: Optional[int] = None, num_parallel_calls: int = 1,
               on_error: str = "raise", bounding_box_format: str = "xyxy", max_boxes: Optional[int] = None,
               min_box_area: float = 0.0, min_box_visibility: float = 0.0,
               training: bool = True) -> Callable[[tf.data.Dataset], tf.data.Dataset]:
    """The host half of `gpu_augment`: draws each batch's seed and runs the transforms up to and
    including the decoding one on the CPU, and with annotations (dict elements with
    `bounding_boxes`, `segmentation_masks` or `keypoints`) up to the last transform that moves
    them, so they leave this stage final, in `bounding_box_format` (padded to `max_boxes`).
    Yields `(batch_seed, element)` for `device_stage`.

    Run it where the bytes are (for example on tf.data service workers) and `device_stage` with
    the same transforms on the trainer: the result equals `gpu_augment` on one host.
    `on_error` and the box arguments as `gpu_augment`'s: skipped samples leave the batch here.

    Args:
      transforms: the same transforms as the `device_stage` that follows.
      seed: seed of the per-batch seeds (random when None).
      num_parallel_calls: batches processed at once.
      on_error: "raise" or "skip", as `gpu_augment`'s.
      bounding_box_format: the boxes' format, as `gpu_augment`'s.
      max_boxes: pad boxes to this many, as `gpu_augment`'s (None: ragged).
      min_box_area: as `gpu_augment`'s.
      min_box_visibility: as `gpu_augment`'s.
      training: as `gpu_augment`'s (give `device_stage` the same).
    """
    plan = _Plan(transforms, training)
    base = _base_seed(seed)
    _checks.one_of("on_error", on_error, _skip.ON_ERROR)
    layout = Layout(bounding_box_format, max_boxes, BoxFilter(min_box_area, min_box_visibility))

    def apply(ds: tf.data.Dataset) -> tf.data.Dataset:
        plan.check_input(ds.element_spec)
        stop = plan.host_stop(ds.element_spec)
        if Layout.has_targets(ds.element_spec):
            def process(images, targets, batch_seed):
                return plan.run_with_targets(images, targets, batch_seed, stop)

            return _map_batches(ds, base, layout, process, num_parallel_calls, on_error, keep_seed=True)

        def process_images(images, targets, batch_seed):
            return plan.run(images, batch_seed, 0, stop), targets

        return _map_batches(ds, base, _PLAIN, process_images, num_parallel_calls, on_error, keep_seed=True)

    return apply


def copy_and_run(host: tf.data.Dataset, device_part, target: str) -> tf.data.Dataset:
    """The host part's elements copied to `target` by TensorFlow's `copy_to_device`, then the
    device part: the pipeline a `DeviceStageDataset` stands for (and runs, after other
    transformations or in graph mode; its own iterators read their host iterator instead)."""
    return device_part(host.apply(tf.data.experimental.copy_to_device(target)))


def device_stage(transforms: Transforms, device: Optional[str] = None, prefetch: int = 1,
                 training: bool = True, _host_stop: Optional[int] = None,
                 _split_device: Optional[str] = None) -> Callable[[tf.data.Dataset], tf.data.Dataset]:
    """The device half of `gpu_augment`: takes `host_stage`'s `(batch_seed, element)` and runs
    the remaining transforms on `device` (see `resolve_device`); without a GPU, on the CPU.
    On a GPU its iterators checkpoint exactly (`DeviceStageDataset`).

    Args:
      transforms: the same transforms as the `host_stage` before it.
      device: where the rest runs (None: the enclosing scope's GPU, else "/gpu:0" when there is one).
      prefetch: batches prefetched (on a GPU target: after the host part, on the host, so that
        the device part holds nothing a checkpoint would lose).
      training: as `gpu_augment`'s (the same as the `host_stage` before it).
    """
    plan = _Plan(transforms, training)

    def apply(ds: tf.data.Dataset) -> tf.data.Dataset:
        if not (isinstance(ds.element_spec, tuple) and len(ds.element_spec) == 2):
            raise ValueError("device_stage takes host_stage's (batch_seed, element) batches")
        stop = _host_stop
        if stop is None:
            if not plan.composed:
                raise ValueError("host_stage/device_stage split a list of transforms")
            stop = plan.fn.host_stop(Layout.has_targets(ds.element_spec[1]))

        def run(batch_seed, element):
            images, rebuild = Layout.split_images(element)
            return rebuild(plan.run(images, batch_seed, stop))

        # _split_device (tests): the split mechanism on any device, a CPU included.
        target = resolve_device(device) if _split_device is None else _split_device
        if target is None:
            return ds.map(unconverted(run), num_parallel_calls=1).prefetch(prefetch)
        from tensorflow.python.data.experimental.ops import prefetching_ops  # private, pinned TF
        _check_copyable(ds.element_spec)
        on_gpu = (tf.DeviceSpec.from_string(target).device_type or "").upper() == "GPU"
        if on_gpu and tf.executing_eagerly() and not tf.config.list_physical_devices("GPU"):
            # (Graph mode may build a GPU pipeline on any machine, for export or inspection.)
            raise ValueError(f"device={device!r} names a GPU, and TensorFlow sees none here "
                             "(tf.config.list_physical_devices('GPU') is empty): pass device=None (the GPU "
                             "when there is one, else the CPU) or '/cpu:0'; for GPUs, install a CUDA build of "
                             "TensorFlow (pip install 'tensorflow[and-cuda]')")
        # Ragged annotations (boxes without max_boxes, ragged keypoints) cross as values and row
        # splits and come back ragged.
        ragged = _ragged_copy.has_ragged(ds.element_spec)
        host = ds.map(unconverted(lambda s, e: (s, _ragged_copy.to_parts(e)))) if ragged else ds
        host = host.prefetch(prefetch)

        def run_on_device(batch_seed, element):
            return run(batch_seed, _ragged_copy.from_parts(element) if ragged else element)

        def device_part(on_device: tf.data.Dataset) -> tf.data.Dataset:
            # ExperimentalMapDataset: a map kernel registered for the GPU (Dataset.map's are CPU-only).
            with tf.device(target):
                if on_gpu:
                    return on_device.apply(prefetching_ops.map_on_gpu(unconverted(run_on_device)))
                return on_device.map(unconverted(run_on_device))

        return DeviceStageDataset(copy_and_run(host, device_part, target), host, device_part, target)

    return apply


def gpu_augment(transforms: Transforms, device: Optional[str] = None, seed: Optional[int] = None,
                prefetch: int = 1, num_parallel_calls: int = 1, bounding_box_format: str = "xyxy",
                max_boxes: Optional[int] = None, min_box_area: float = 0.0,
                min_box_visibility: float = 0.0, on_error: str = "raise",
                training: bool = True,
                _split_device: Optional[str] = None) -> Callable[[tf.data.Dataset], tf.data.Dataset]:
    """A dataset transformation applying `transforms` to every batch.

    Args:
      transforms: a list of transforms (composed with `Compose`, which fuses resampling
        with normalisation) or one callable `f(images, seed=...)`.
      device: where the device part runs (see `resolve_device`): None picks the enclosing
        device scope's GPU, else "/gpu:0" when TensorFlow sees one, else the CPU path.
      seed: seed of the per-batch stateless seeds, which differ per batch and per epoch
        (random when None).
      prefetch: batches prefetched after the stage (on a GPU target, after its host part: the
        device part then holds nothing a checkpoint would lose).
      num_parallel_calls: batches processed at once on the host; tfgpuaug's ops already use
        every core per batch, so 1 keeps memory low with full throughput.
      bounding_box_format: the format of `bounding_boxes["boxes"]` in dict elements (Keras 3's
        names, see `tfgpuaug.boxes`); boxes come out in it.
      max_boxes: pad boxes (and their per-box fields) to this many with -1, as Keras 3's
        `MaxNumBoundingBoxes`; the boxes past it are dropped, and a batch where that happens
        is reported (stderr, `tfgpuaug.data_warnings()`): pick a bound above the dataset's
        most boxes per image; None gives ragged boxes, which `model.fit` does not
        take ("None values not supported"): give max_boxes for Keras training.
      min_box_area, min_box_visibility: a box clipped by a transform is kept when its area is
        more than `min_box_area` pixels and at least `min_box_visibility` of its area before
        clipping; dropped boxes take their labels with them.
      on_error: "raise" (a sample whose bytes fail to decode fails its batch, as
        `tf.io.decode_image` fails its element; the error names the file when a dict element
        has `filename`/`path`) or "skip" (the sample leaves the batch with every other
        component of it, a report on stderr names it (batch, index, file name) and why,
        `tfgpuaug.skipped_images()` counts it and `tfgpuaug.data_warnings()` returns the
        reports; batches come out smaller, empty ones are dropped).
      training: False runs every transform's inference behaviour, as the Keras layers do with
        `training=False`: no augmentation, flips or randomness, and the random crops become
        their evaluation crops (for `validation_data`; the same transform list serves both).
    """
    plan = _Plan(transforms, training)
    base = _base_seed(seed)
    layout = Layout(bounding_box_format, max_boxes, BoxFilter(min_box_area, min_box_visibility))
    _checks.one_of("on_error", on_error, _skip.ON_ERROR)

    def apply(ds: tf.data.Dataset) -> tf.data.Dataset:
        plan.check_input(ds.element_spec)
        target = resolve_device(device) if _split_device is None else _split_device
        if target is not None:  # host part, copy, device part (annotations made final on the host)
            stop = plan.host_stop(ds.element_spec)
            ds = ds.apply(host_stage(transforms, base, num_parallel_calls, on_error, bounding_box_format,
                                     max_boxes, min_box_area, min_box_visibility, training))
            return ds.apply(device_stage(transforms, target, prefetch, training, _host_stop=stop,
                                         _split_device=_split_device))
        if Layout.has_targets(ds.element_spec):
            process = plan.run_with_targets
        else:  # CPU: every transform in one map, resampling + normalize fused
            process = lambda images, targets, seed: (plan.run(images, seed), targets)  # noqa: E731
        return _map_batches(ds, base, layout, process, num_parallel_calls, on_error).prefetch(prefetch)

    return apply


def distribute(strategy: tf.distribute.Strategy,
               dataset_fn: Callable[[tf.distribute.InputContext], tf.data.Dataset],
               transforms: Transforms, seed: Optional[int] = None, prefetch: int = 1,
               num_parallel_calls: int = 1, on_error: str = "raise", bounding_box_format: str = "xyxy",
               max_boxes: Optional[int] = None, min_box_area: float = 0.0,
               min_box_visibility: float = 0.0, training: bool = True) -> tf.distribute.DistributedDataset:
    """One input pipeline per replica, each with its `gpu_augment` stage on its own device.

    `dataset_fn(input_context)` returns the replica's batches (per-replica batch size; shard the
    reader with `tga.data.shard_for(input_context)`). The result feeds `model.fit` and custom
    loops under `strategy`. It follows the recipe of DALI's plugin: the dataset is placed on
    the replica's device, not fetched there again, one pipeline per replica
    (`InputOptions(experimental_place_dataset_on_device=True, experimental_fetch_to_device=False,
    experimental_replication_mode=PER_REPLICA)`). Replica i draws from seed + i, so replicas
    do not repeat each other's augmentations. The other arguments are `gpu_augment`'s.

    Args:
      strategy: the `tf.distribute.Strategy` the model is built under.
      dataset_fn: `input_context -> tf.data.Dataset` of per-replica batches.
      transforms: as `gpu_augment`'s.
      seed: base seed; replica i uses seed + i.
      prefetch: as `gpu_augment`'s.
      num_parallel_calls: as `gpu_augment`'s.
      on_error: "raise" or "skip", as `gpu_augment`'s.
      bounding_box_format: the boxes' format, as `gpu_augment`'s.
      max_boxes: pad boxes to this many, as `gpu_augment`'s (None: ragged).
      min_box_area: as `gpu_augment`'s.
      min_box_visibility: as `gpu_augment`'s.
      training: as `gpu_augment`'s.
    """
    devices = list(strategy.extended.worker_devices)
    base = _base_seed(seed)

    def per_replica(context: tf.distribute.InputContext) -> tf.data.Dataset:
        device = devices[context.input_pipeline_id % len(devices)]
        with tf.device(device):
            ds = dataset_fn(context)
            return ds.apply(gpu_augment(transforms, device=device,
                                        seed=(base + context.input_pipeline_id) % 2**31,
                                        prefetch=prefetch, num_parallel_calls=num_parallel_calls,
                                        on_error=on_error, bounding_box_format=bounding_box_format,
                                        max_boxes=max_boxes, min_box_area=min_box_area,
                                        min_box_visibility=min_box_visibility, training=training))

    options = tf.distribute.InputOptions(
        experimental_place_dataset_on_device=True, experimental_fetch_to_device=False,
        experimental_replication_mode=tf.distribute.InputReplicationMode.PER_REPLICA)
    return strategy.distribute_datasets_from_function(per_replica, options)
