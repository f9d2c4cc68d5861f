"""Detection MixUp (YOLOX, YOLOv5/v8): images of a batch blended in pairs, the boxes of both
kept. The draws (partner, ratio, whether a sample mixes) are one function, the mixing another,
so tests check the pixels against the draws."""
from __future__ import annotations

from typing import NamedTuple, Optional, Sequence, Union

import tensorflow as tf

from tfgpuaug import geometry
from tfgpuaug import targets as tg
from tfgpuaug._types import Seed
from tfgpuaug.augment.mix import _beta
from tfgpuaug.transforms import Transform, TransformInput, TransformOutput, select_samples


class MixDraws(NamedTuple):
    partner: tf.Tensor  # [B] int32: the next sample in a random cyclic order (never itself from 2 samples)
    ratio: tf.Tensor    # [B] float32: the sample's own weight, Beta(alpha, alpha)
    mixes: tf.Tensor    # [B] bool: whether the sample is mixed


def _keep_rows(values: tg.Ragged, row_flags: tf.Tensor) -> tg.Ragged:
    """The rows of `values` [B, (N), ...] whose sample's flag is set; the others emptied."""
    flags = tf.RaggedTensor.from_row_splits(tf.gather(row_flags, values.value_rowids()), values.row_splits,
                                            validate=False)
    return tf.ragged.boolean_mask(values, flags)


class DetectionMixUp(Transform):
    """YOLO-style detection MixUp: with probability `probability` a sample is blended with the
    next sample of a random cyclic order of the batch, `r x + (1 - r) x_partner` rounded, `r ~
    Beta(alpha, alpha)` per sample (YOLOv5's 32: close to 0.5), and keeps its own boxes (with
    their fields) and keypoints followed by the partner's. Images must be decoded, one shape
    (after `Resize`, `Letterbox`, `ScaleJitter` or `Mosaic`); masks are refused (two images'
    instance masks have no blend). Inference leaves everything alone.

    Args:
      alpha: the Beta distribution's parameter (> 0).
      probability: probability that a sample is mixed.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.

    Example:
      >>> tga.gpu_augment([tga.Mosaic(640), tga.DetectionMixUp(probability=0.15)], max_boxes=200)
    """

    def __init__(self, alpha: float = 32.0, probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(seed)
        if not alpha > 0.0:
            raise ValueError(f"alpha must be > 0, got {alpha}")
        if not 0.0 <= probability <= 1.0:
            raise ValueError(f"probability must be in [0, 1], got {probability}")
        self.alpha, self.probability = float(alpha), float(probability)

    def draws(self, n: Union[int, tf.Tensor], seed: Seed = None) -> MixDraws:
        """The draws of a batch of `n` (the same seed gives the same draws as `apply`)."""
        s_ratio, s_order, s_apply = tf.unstack(tf.random.experimental.stateless_split(self._next_seed(seed), 3))
        order = tf.cast(tf.random.experimental.index_shuffle(tf.range(n, dtype=tf.int64), s_order,
                                                             tf.cast(n, tf.int64) - 1), tf.int32)
        position = tf.math.invert_permutation(order)
        partner = tf.gather(order, (position + 1) % n)
        # a batch of one has no partner: nothing mixes
        mixes = (tf.random.stateless_uniform([n], s_apply) < self.probability) & (partner != tf.range(n))
        return MixDraws(partner, _beta(n, self.alpha, s_ratio), mixes)

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if geometry._is_encoded(images) or isinstance(images, tf.RaggedTensor):
            raise ValueError("DetectionMixUp blends decoded images of one shape: put it after a resize "
                             "(Resize, Letterbox, ScaleJitter or Mosaic)")
        if targets is not None and targets.masks is not None:
            raise ValueError("DetectionMixUp does not take masks (two images' instance masks have no blend); "
                             "use it on boxes and keypoints")
        if not training:
            return images, targets
        d = self.draws(tf.shape(images)[0], seed)
        x = tf.cast(images, tf.float32)
        r = d.ratio[:, None, None, None]
        mixed = tf.cast(tf.clip_by_value(tf.round(r * x + (1.0 - r) * tf.gather(x, d.partner)), 0.0, 255.0),
                        images.dtype)
        out = select_samples(d.mixes, mixed, images)
        if targets is None or not targets.moves:
            return out, targets
        other = targets.take(d.partner)
        keep = lambda v: None if v is None else _keep_rows(v, d.mixes)  # noqa: E731
        other = other.replace(boxes=keep(other.boxes), box_fields={k: keep(v) for k, v in other.box_fields.items()},
                              keypoints=keep(other.keypoints))
        return out, tg.Targets.concat([targets, other], None, targets.box_filter)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return tuple(input_shape)

    def get_config(self) -> dict:
        return dict(alpha=self.alpha, probability=self.probability, seed=self.seed)
