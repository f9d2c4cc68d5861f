"""`on_error="skip"`: a sample whose bytes fail to decode costs that sample, not its batch.

Inside `collecting()`, the decoding ops run with `on_error="skip"`: instead of failing the
batch, each reports a per-image reason (`""` when the image decoded) and zeros its output.
`drop_failed` (called by `Compose` after each transform, and by the stage) removes the
failed samples from the images and their annotations, and the stage removes them from every
other component with the indices the scope kept. Scopes are Python state at tracing time
only: the graph holds plain ops, so the stage runs the same on tf.data service workers.
"""
from __future__ import annotations

import contextlib
import threading
from typing import Callable, Iterator, List, Optional, Tuple

import tensorflow as tf

ON_ERROR = ("raise", "skip")
NAME_KEYS = ("filename", "file_name", "path")  # dict keys whose values name each sample's file


class _Scope:
    def __init__(self, batch_size: tf.Tensor):
        self.kept = tf.range(batch_size)  # input-batch index of each surviving sample
        self.pending: Optional[tf.Tensor] = None  # reasons [B] of the current batch, not yet dropped
        self.dropped: List[Tuple[tf.Tensor, tf.Tensor]] = []  # (input indices, reasons)

    def record(self, errors: tf.Tensor) -> None:
        errors = tf.reshape(errors, [-1])
        self.pending = errors if self.pending is None else tf.where(self.pending == "", errors, self.pending)


_LOCAL = threading.local()


def _scope() -> Optional[_Scope]:
    return getattr(_LOCAL, "scope", None)


@contextlib.contextmanager
def collecting(batch_size: tf.Tensor) -> Iterator[_Scope]:
    """Decoding ops traced inside skip failed images and report them to the yielded scope."""
    previous, _LOCAL.scope = _scope(), _Scope(batch_size)
    try:
        yield _LOCAL.scope
    finally:
        _LOCAL.scope = previous


def on_error_attr() -> str:
    """The decoding ops' `on_error` attribute for the current trace."""
    return "raise" if _scope() is None else "skip"


def record(errors: tf.Tensor) -> None:
    """Hands a decoding op's per-image `errors` output to the active scope (if any)."""
    scope = _scope()
    if scope is not None:
        scope.record(errors)


def drop_failed(images, targets=None):
    """`(images, targets)` without the samples the decodes since the last call failed on."""
    scope = _scope()
    if scope is None or scope.pending is None:
        return images, targets
    ok = scope.pending == ""
    keep, bad = tf.where(ok)[:, 0], tf.where(~ok)[:, 0]
    scope.dropped.append((tf.gather(scope.kept, bad), tf.gather(scope.pending, bad)))
    scope.kept, scope.pending = tf.gather(scope.kept, keep), None
    # Copy the (large) images and masks only when a sample failed: a clean batch passes as is.
    clean = tf.reduce_all(ok)
    take = lambda x: tf.cond(clean, lambda: tf.identity(x), lambda: tf.gather(x, keep))  # noqa: E731
    if targets is not None:
        masks = targets.masks
        targets = targets.replace(masks=None).take(keep)
        targets = targets.replace(masks=None if masks is None else take(masks))
    return take(images), targets


def keep_rows(structure, kept: tf.Tensor):
    """Every batched component of an element gathered to the surviving samples."""
    def take(x):
        if isinstance(x, (tf.Tensor, tf.RaggedTensor)) and x.shape.rank != 0:
            return tf.gather(x, kept)
        return x
    return tf.nest.map_structure(take, structure, expand_composites=False)


BAD_IMAGE_HINT = (' (gpu_augment(..., on_error="skip") drops bad images with their labels; '
                  "python -m tfgpuaug.scan DIR lists every bad file)")


def report(scope: _Scope, batch_index: tf.Tensor, element, images, action: str = "skip"):
    """`images`, passed through an op that reports the samples the decodes failed on (batch,
    index in it, file name when the element has one, reason): "skip" logs one warning per
    sample and counts them, "raise" fails the batch naming the first."""
    if not scope.dropped:  # no decoding op ran: nothing can have failed
        return images
    indices = tf.concat([i for i, _ in scope.dropped], 0)
    reasons = tf.concat([r for _, r in scope.dropped], 0)
    where = tf.strings.join(["batch ", tf.strings.as_string(batch_index), ", image ",
                             tf.strings.as_string(indices)])
    names = _names(element)
    if names is not None:
        where = tf.strings.join([where, " (", tf.gather(names, indices), ")"])
    messages = tf.strings.join([where, ": ", reasons] + ([BAD_IMAGE_HINT] if action == "raise" else []))
    return _passing(images, lambda flat: _record(messages, flat, action)[0])


def warn_if(condition: tf.Tensor, message: Callable[[], tf.Tensor], batch, key: str):
    """`batch` passed through an op that prints `message()` (a string scalar, built only when
    `condition` holds) as a tfgpuaug warning, rate-limited per `key`."""
    messages = tf.cond(condition, lambda: tf.reshape(message(), [1]), lambda: tf.zeros([0], tf.string))
    return _passing(batch, lambda flat: _record(messages, flat, "warn", key)[0])


def _passing(batch, fn):
    if isinstance(batch, tf.RaggedTensor):
        return batch.with_flat_values(fn(batch.flat_values))
    return fn(batch)


def has_names(element_spec) -> bool:
    """Whether elements of this spec carry a file name per sample (see NAME_KEYS)."""
    if isinstance(element_spec, dict):
        return any(isinstance(spec, tf.TensorSpec) and spec.dtype == tf.string and spec.shape.rank == 1
                   for spec in (element_spec.get(key) for key in NAME_KEYS))
    return False


def _names(element) -> Optional[tf.Tensor]:
    if isinstance(element, dict):
        for key in NAME_KEYS:
            value = element.get(key)
            if isinstance(value, tf.Tensor) and value.dtype == tf.string and value.shape.rank == 1:
                return value
    return None


def _record(messages: tf.Tensor, batch: tf.Tensor, action: str = "skip", key: str = ""):
    from tfgpuaug import _loader
    return _loader.ops().tf_gpu_aug_record_skipped(messages, batch, action=action, key=key)


def skipped_images() -> int:
    """How many samples this process's `on_error="skip"` stages have dropped so far.

    Each process counts its own: with tf.data service, the workers' logs and counts hold
    theirs."""
    return int(_record(tf.zeros([0], tf.string), tf.zeros([0]))[1].numpy())


def data_warnings() -> List[str]:
    """The latest reports of this process's stages (skipped images and data warnings such as
    boxes truncated to `max_boxes`; at most 1000), oldest first, cleared by the call.

    Stages print each report to stderr as it happens, whatever `TF_CPP_MIN_LOG_LEVEL` says;
    this hands them to Python, for example to `logging` (`tfgpuaug.keras.DataWarningsLogger`
    does that after each epoch)."""
    from tfgpuaug import _loader
    return [r.decode("utf-8", "replace") for r in _loader.ops().tf_gpu_aug_take_data_reports().numpy()]
