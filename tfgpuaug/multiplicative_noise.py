"""Albumentations' MultiplicativeNoise: each sample multiplied by a uniform random factor, one for
the image, one per channel, one per pixel or one per pixel and channel; on uint8 the product
(float32) is clipped to [0, 255] and truncated, as Albumentations' lookup table and its
cv2.multiply path both do."""
from __future__ import annotations

from typing import Optional, Tuple, Union

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment.photometric import check_range
from tfgpuaug.transforms import TransformOutput, _PerSample, select_samples


class MultiplicativeNoise(_PerSample):
    """Albumentations' MultiplicativeNoise: with probability `probability` per sample, the
    pixels times factors drawn uniformly from `multiplier`: one for the whole image, one per
    channel (`per_channel`), one per pixel shared by its channels (`elementwise`), or one per
    pixel and channel (both). The float32 product is clipped to [0, 255] and truncated to
    uint8, as Albumentations does. Annotations pass through; inference leaves images alone.

    Args:
      multiplier: (min, max) of the factors, min >= 0; one number for a fixed factor.
      per_channel: a factor per channel.
      elementwise: a factor per pixel.
      probability: per-sample probability of the noise.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    moves_targets = False

    def __init__(self, multiplier: Union[float, Tuple[float, float]] = (0.9, 1.1), per_channel: bool = False,
                 elementwise: bool = False, probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        pair = (multiplier, multiplier) if isinstance(multiplier, (int, float)) else tuple(multiplier)
        check_range("multiplier", pair, 0.0)
        self.multiplier = tuple(float(v) for v in pair)
        self.per_channel, self.elementwise = bool(per_channel), bool(elementwise)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        shape = tf.shape(images)
        draw_seed, apply_seed = tf.unstack(tf.random.experimental.stateless_split(seed, 2))
        factors_shape = tf.stack([shape[0], shape[1] if self.elementwise else 1, shape[2] if self.elementwise else 1,
                                  shape[3] if self.per_channel else 1])
        low, high = self.multiplier
        factors = tf.random.stateless_uniform(factors_shape, draw_seed, low, high)
        noisy = tf.cast(tf.clip_by_value(tf.cast(images, tf.float32) * factors, 0.0, 255.0), tf.uint8)  # truncates
        applied = tf.random.stateless_uniform([shape[0]], apply_seed) < self.probability
        return select_samples(applied, noisy, images), targets

    def get_config(self) -> dict:
        return dict(multiplier=self.multiplier, per_channel=self.per_channel, elementwise=self.elementwise,
                    probability=self.probability, seed=self.seed)
