"""torchvision's ClampKeyPoints and SanitizeKeyPoints: keypoints pinned to the image, or those
outside it dropped, as functions on `[K, 2]` or ragged `[B, (K), 2]` xy points and as
transforms that act on a pipeline's annotations (images pass through).

tfgpuaug's transforms move keypoints without clamping them (a point that leaves the image keeps
its coordinates, except under the distortions, which drop it); these are the explicit steps,
usually the last of a pipeline. The image is [0, width) x [0, height) in pixels: clamping takes
x to [0, width - 1] and y to [0, height - 1] (torchvision's bounds), sanitizing keeps points with
0 <= x < width and 0 <= y < height."""
from __future__ import annotations

from typing import Optional, Tuple, Union

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.transforms import Transform, TransformInput, TransformOutput, _dims
from tfgpuaug._types import Seed

Points = Union[tf.Tensor, tf.RaggedTensor]
Dim = Union[int, float, tf.Tensor]


def _checked(points) -> Points:
    points = points if isinstance(points, tf.RaggedTensor) else tf.convert_to_tensor(points)
    if points.shape[-1] not in (None, 2) or (not isinstance(points, tf.RaggedTensor) and points.shape.rank != 2):
        raise ValueError(f"keypoints must be [K, 2] or ragged [B, (K), 2] xy pixels, got shape {points.shape}")
    return points


def _per_point(value: Dim, points: Points) -> tf.Tensor:
    """A size (one number, or one per image of a ragged batch) for every point."""
    value = tf.cast(value, tf.float32)
    if isinstance(points, tf.RaggedTensor) and value.shape.rank == 1:
        return tf.gather(value, points.value_rowids())
    return value


def _flat(points: Points) -> tf.Tensor:
    return tf.cast(points.flat_values if isinstance(points, tf.RaggedTensor) else points, tf.float32)


def clamp_keypoints(points: Points, height: Dim, width: Dim) -> Points:
    """torchvision's clamp_keypoints: x into [0, width - 1], y into [0, height - 1].

    Args:
      points: `[K, 2]` or ragged `[B, (K), 2]` xy pixels.
      height: the image height (a number, or one per image of a ragged batch).
      width: the image width, as `height`.
    """
    points = _checked(points)
    flat = _flat(points)
    w, h = _per_point(width, points), _per_point(height, points)
    x = tf.clip_by_value(flat[:, 0], 0.0, tf.maximum(w - 1.0, 0.0))
    y = tf.clip_by_value(flat[:, 1], 0.0, tf.maximum(h - 1.0, 0.0))
    clamped = tf.cast(tf.stack([x, y], axis=1), points.dtype)
    return points.with_flat_values(clamped) if isinstance(points, tf.RaggedTensor) else clamped


def sanitize_keypoints(points: Points, labels: Optional[Points] = None, height: Dim = None,
                       width: Dim = None) -> Tuple[Points, Optional[Points]]:
    """torchvision's SanitizeKeyPoints: the points with 0 <= x < width and 0 <= y < height (and
    finite), with their labels.

    Args:
      points: `[K, 2]` or ragged `[B, (K), 2]` xy pixels.
      labels: `[K, ...]` or ragged `[B, (K), ...]` per point, or None.
      height: the image height (a number, or one per image of a ragged batch).
      width: the image width, as `height`.

    Returns:
      `(points, labels)` of the kept points, in the input's layout.
    """
    if height is None or width is None:
        raise ValueError("sanitize_keypoints needs the image's height and width")
    points = _checked(points)
    flat = _flat(points)
    w, h = _per_point(width, points), _per_point(height, points)
    x, y = flat[:, 0], flat[:, 1]
    keep = (x >= 0.0) & (x < w) & (y >= 0.0) & (y < h)  # NaN fails every comparison
    if isinstance(points, tf.RaggedTensor):
        keep = tf.RaggedTensor.from_row_splits(keep, points.row_splits)
        if labels is not None and not isinstance(labels, tf.RaggedTensor):
            raise ValueError("ragged keypoints take ragged labels [B, (K), ...]")
        return tf.ragged.boolean_mask(points, keep), (None if labels is None else tf.ragged.boolean_mask(labels, keep))
    return tf.boolean_mask(points, keep), (None if labels is None else tf.boolean_mask(labels, keep))


class _KeyPointStep(Transform):
    """A step on the annotations' keypoints, at the current image sizes; images pass through."""

    moves_targets = True
    accepts_float = True

    def __init__(self):
        super().__init__(None)

    def __call__(self, images, seed=None, training: bool = True):
        return images

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if targets is None or targets.keypoints is None:
            return images, targets
        sizes = _dims(images)  # [B, 2] (h, w); encoded images: from their headers
        return images, targets.replace(keypoints=self._step(targets.keypoints, sizes[:, 0], sizes[:, 1]))

    def _step(self, points: tf.RaggedTensor, height: tf.Tensor, width: tf.Tensor) -> tf.RaggedTensor:
        raise NotImplementedError

    def get_config(self) -> dict:
        return {}


class ClampKeyPoints(_KeyPointStep):
    """torchvision's ClampKeyPoints on a pipeline's keypoints: x into [0, width - 1], y into
    [0, height - 1] of each image, in training and inference alike."""

    def _step(self, points, height, width):
        return clamp_keypoints(points, height, width)


class SanitizeKeyPoints(_KeyPointStep):
    """torchvision's SanitizeKeyPoints on a pipeline's keypoints: those outside their image
    ([0, width) x [0, height)) or not finite are dropped, in training and inference alike."""

    def _step(self, points, height, width):
        return sanitize_keypoints(points, None, height, width)[0]
