"""Multi-scale training by the shorter side (torchvision v2's RandomShortestSize, Detectron's
ResizeShortestEdge), drawn once per batch: every image of a dense batch is resized to the same
new size, so the batch stays one tensor and its shape changes from batch to batch."""
from __future__ import annotations

from typing import Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug import geometry
from tfgpuaug import targets as tg
from tfgpuaug._types import Seed
from tfgpuaug.transforms import Transform, TransformInput, TransformOutput, _crop_resize_with_targets


def shortest_size(height: tf.Tensor, width: tf.Tensor, shorter: tf.Tensor, max_size: Optional[int]) -> tf.Tensor:
    """torchvision's rule, in float64 as Python computes it: r = shorter / min(h, w), at most
    max_size / max(h, w); the new size is (int(h * r), int(w * r)), at least 1 pixel."""
    h, w = tf.cast(height, tf.float64), tf.cast(width, tf.float64)
    r = tf.cast(shorter, tf.float64) / tf.minimum(h, w)
    if max_size is not None:
        r = tf.minimum(r, float(max_size) / tf.maximum(h, w))
    return tf.maximum(tf.cast(tf.floor(tf.stack([h * r, w * r])), tf.int32), 1)


class RandomShortestSize(Transform):
    """Resizes the batch so that the images' shorter side is one of `min_size`, drawn uniformly
    once per batch, and the longer side at most `max_size` (torchvision v2's RandomShortestSize
    with its size rule, `int(side * r)`; bilinear with antialias, its defaults). Boxes, masks
    (nearest) and keypoints follow. Inference (`training=False`): the largest of `min_size`,
    the usual evaluation scale of a multi-scale recipe.

    The batch must be dense (one image size): every image gets the same new size. Ragged or
    encoded batches of mixed sizes would need a size per image and a padded canvas; resize or
    letterbox them first (`Resize`, `Letterbox`).

    Args:
      min_size: the shorter sides to draw from (an int or a sequence of ints).
      max_size: the longest side allowed after the resize; None: no limit.
      method: "bilinear", "bicubic", "area" or "nearest" (`tf.image.resize`'s names).
      antialias: widen the kernel when downscaling (torchvision v2's default, True).
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.

    Example:
      >>> ds.batch(16).apply(tga.gpu_augment([tga.RandomShortestSize((480, 512, 544, 576, 608), 1000)]))
    """

    def __init__(self, min_size: Union[int, Sequence[int]], max_size: Optional[int] = None, method: str = "bilinear",
                 antialias: bool = True, seed: Optional[int] = None):
        super().__init__(seed)
        sizes = tuple(min_size) if isinstance(min_size, (list, tuple)) else (min_size,)
        if not sizes or any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in sizes):
            raise ValueError(f"min_size must be a positive int or a non-empty sequence of them, got {min_size!r}")
        if max_size is not None and (isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 1):
            raise ValueError(f"max_size must be None or a positive int, got {max_size!r}")
        geometry._checks.one_of("method", method, geometry.METHODS)
        self.min_size, self.max_size, self.method, self.antialias = sizes, max_size, method, bool(antialias)

    def _dense_dims(self, images) -> tf.Tensor:
        if geometry._is_encoded(images) or isinstance(images, tf.RaggedTensor):
            raise ValueError("RandomShortestSize resizes a dense batch [B, H, W, C] (one size for the batch); "
                             "decode and Resize or Letterbox ragged or encoded images first")
        images = tf.convert_to_tensor(images)
        geometry._checks.static_rank("images", images, (4,))
        return tf.shape(images)[1:3]

    def output_size(self, images: TransformInput, seed: Seed = None, training: bool = True) -> tf.Tensor:
        """The new (height, width) of the batch, int32 `[2]`."""
        dims = self._dense_dims(images)
        if training and len(self.min_size) > 1:
            pick = tf.random.stateless_uniform([], geometry._seed_tensor(seed), 0, len(self.min_size), tf.int32)
            shorter = tf.gather(tf.constant(self.min_size), pick)
        else:
            shorter = tf.constant(max(self.min_size) if not training else self.min_size[0])
        return shortest_size(dims[0], dims[1], shorter, self.max_size)

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        hw = self.output_size(images, self._next_seed(seed), training)
        if targets is None or not targets.moves:
            return geometry.resize(images, hw, self.method, self.antialias), targets
        dims = tg.image_sizes(images)
        boxes = tf.concat([tf.zeros_like(dims), dims], axis=1)  # whole images
        return _crop_resize_with_targets(images, targets, boxes, dims, hw, self.method, self.antialias)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> Tuple[Optional[int], ...]:
        return (input_shape[0], None, None, input_shape[-1])

    def get_config(self) -> dict:
        return dict(min_size=self.min_size, max_size=self.max_size, method=self.method, antialias=self.antialias,
                    seed=self.seed)
