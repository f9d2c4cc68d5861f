"""Albumentations' Morphological: dilation or erosion by OpenCV's elliptical structuring element
(cv2.getStructuringElement(MORPH_ELLIPSE, scale), anchored at its centre), as cv2.dilate and
cv2.erode compute it: per channel, the maximum (minimum) over the element's taps, the outside
ignored (OpenCV's default border value). The element is fixed per transform, as Albumentations',
so the taps are a static handful of shifted slices of one padded batch."""
from __future__ import annotations

from typing import Optional, Tuple, Union

import numpy as np
import tensorflow as tf

from tfgpuaug import geometry
from tfgpuaug import targets as tg
from tfgpuaug.transforms import _PerSample, TransformOutput, select_samples

OPERATIONS = ("dilation", "erosion")


def ellipse_element(width: int, height: int) -> np.ndarray:
    """OpenCV's getStructuringElement(MORPH_ELLIPSE, (width, height)) as a [height, width] bool
    array: row i spans c -+ round(c * sqrt((r^2 - (i - r)^2) / r^2)) around c = width // 2,
    r = height // 2 (rounded half to even, as cvRound)."""
    r, c = height // 2, width // 2
    inv_r2 = 1.0 / (r * r) if r else 0.0
    element = np.zeros((height, width), bool)
    for i in range(height):
        dy = i - r
        if abs(dy) <= r:
            dx = int(round(c * np.sqrt((r * r - dy * dy) * inv_r2)))
            element[i, max(c - dx, 0):min(c + dx + 1, width)] = True
    return element


def _extreme(dtype: tf.DType, largest: bool):
    if dtype.is_floating:
        return np.inf if largest else -np.inf
    return dtype.max if largest else dtype.min


def morphology(images: tf.Tensor, element: np.ndarray, operation: str) -> tf.Tensor:
    """cv2.dilate / cv2.erode of each image of `[B, H, W, C]` (any real dtype) by the bool
    `element` [kh, kw], anchored at (kh // 2, kw // 2)."""
    kh, kw = element.shape
    ay, ax = kh // 2, kw // 2
    dilate = operation == "dilation"
    # outside pixels never win: the smallest value for a maximum, the largest for a minimum
    neutral = _extreme(images.dtype, largest=not dilate)
    padded = tf.pad(images, [[0, 0], [ay, kh - 1 - ay], [ax, kw - 1 - ax], [0, 0]], constant_values=neutral)
    h, w = tf.shape(images)[1], tf.shape(images)[2]
    combine = tf.maximum if dilate else tf.minimum
    out = None
    for i, j in zip(*np.nonzero(element)):
        tap = padded[:, i:i + h, j:j + w, :]
        out = tap if out is None else combine(out, tap)
    out.set_shape(images.shape)
    return out


def _moved_boxes(boxes: tf.RaggedTensor, element: np.ndarray, operation: str, hw: tf.Tensor,
                 applied: tf.Tensor) -> tf.RaggedTensor:
    """Boxes of the samples in `applied` grown (dilation) or shrunk (erosion) by the element's
    reach from its anchor, clipped to the image; an image edge does not erode (outside counts
    as inside, as OpenCV's default border for erosion)."""
    kh, kw = element.shape
    before = tf.constant([kw // 2, kh // 2] * 2, tf.float32)  # reach left/up of the anchor
    after = tf.constant([kw - 1 - kw // 2, kh - 1 - kh // 2] * 2, tf.float32)
    rows = boxes.value_rowids()
    flat = boxes.flat_values
    size = tf.gather(tf.reverse(tf.cast(hw, tf.float32), [1]), rows)  # (width, height) per box
    low, high = flat[:, :2], flat[:, 2:]
    if operation == "dilation":
        moved = tf.concat([tf.maximum(low - after[:2], 0.0), tf.minimum(high + before[2:], size)], 1)
    else:
        low = tf.where(low > 0.0, low + before[:2], low)
        moved = tf.concat([low, tf.maximum(tf.where(high < size, high - after[2:], high), low)], 1)  # empty: area 0
    return boxes.with_flat_values(tf.where(tf.gather(applied, rows)[:, None], moved, flat))


class Morphological(_PerSample):
    """Albumentations' Morphological: with probability `probability` per sample, dilation
    (the brightest value under the element) or erosion (the darkest) by OpenCV's elliptical
    element of `scale` = (width, height), anchored at its centre, per channel, exactly as
    cv2.dilate / cv2.erode. Masks take the same operation (as Albumentations'); boxes grow or
    shrink by the element's reach (dilation: clipped to the image; erosion: not at an image
    edge; a box eroded to nothing is dropped); keypoints stay. Inference leaves images alone.

    Albumentations' docs call `scale=(min, max)` a range to draw from; its code orders the
    pair and uses it as the element's (width, height), smaller first, and so does this. It
    truncates boxes to whole pixels before moving them; here they keep their fractions.

    Args:
      scale: one int for a square element, or a pair: (width, height) once ordered.
      operation: "dilation" or "erosion".
      probability: per-sample probability of the operation.
      seed: seed of the per-sample draws when called without one; None: random.
    """

    accepts_float = True

    def __init__(self, scale: Union[int, Tuple[int, int]] = (2, 3), operation: str = "dilation",
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        pair = (scale, scale) if isinstance(scale, int) else tuple(scale)
        if len(pair) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 31 for v in pair):
            raise ValueError(f"scale must be an int or a pair of ints, each 1 .. 31, got {scale!r}")
        pair = tuple(sorted(pair))  # Albumentations' range type orders the pair
        geometry._checks.one_of("operation", operation, OPERATIONS)
        self.scale, self.operation = pair, operation
        self._element = ellipse_element(*pair)

    def _dense_input(self, images) -> tf.Tensor:
        return self._dense(images)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        n = tf.shape(images)[0]
        applied = tf.random.stateless_uniform([n], seed) < self.probability
        pick = lambda done, kept: select_samples(applied, done, kept)  # noqa: E731
        out = pick(morphology(images, self._element, self.operation), images)
        if targets is None or not targets.moves:
            return out, targets
        masks, boxes = targets.masks, targets.boxes
        if masks is not None:
            masks = pick(morphology(self._dense(masks), self._element, self.operation), masks)
        if boxes is not None:
            boxes = _moved_boxes(boxes, self._element, self.operation, tg.image_sizes(images), applied)
        moved = targets.replace(masks=masks, boxes=boxes)
        # clip and drop what erosion emptied, with the identity map
        identity = tf.tile(tf.constant([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]), [n, 1, 1])
        return out, moved.affine(identity, tg.image_sizes(images))

    def get_config(self) -> dict:
        return dict(scale=self.scale, operation=self.operation, probability=self.probability, seed=self.seed)

