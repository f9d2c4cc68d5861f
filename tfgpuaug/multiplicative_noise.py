"""Albumentations' MultiplicativeNoise as a transform: each sample multiplied by uniform random
factors, one for the image, one per channel, one per pixel or one per pixel and channel; on uint8
the product (float32) is clipped to [0, 255] and truncated, as Albumentations' lookup table and
its cv2.multiply path both do. The per-pixel modes run as a stage of the fused augment kernel
(`tfgpuaug.augment.multiplicative_noise`)."""
from __future__ import annotations

from typing import Optional, Tuple, Union

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment.multiplicative_noise import check_multiplier, multiplicative_noise
from tfgpuaug.transforms import TransformOutput, _PerSample


class MultiplicativeNoise(_PerSample):
    """Albumentations' MultiplicativeNoise: with probability `probability` per sample, the
    pixels times factors drawn uniformly from `multiplier`: one for the whole image, one per
    channel (`per_channel`), one per pixel shared by its channels (`elementwise`), or one per
    pixel and channel (both). The float32 product is clipped to [0, 255] and truncated to
    uint8, as Albumentations does. Images have 1, 3 or 4 channels, as every stage of the augment
    kernel. Annotations pass through; inference leaves images alone.

    Args:
      multiplier: (min, max) of the factors, min >= 0; one number for a fixed factor.
      per_channel: a factor per channel.
      elementwise: a factor per pixel, drawn by the kernel's per-pixel stream.
      probability: per-sample probability of the noise.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    moves_targets = False

    def __init__(self, multiplier: Union[float, Tuple[float, float]] = (0.9, 1.1), per_channel: bool = False,
                 elementwise: bool = False, probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.multiplier = check_multiplier(multiplier)
        self.per_channel, self.elementwise = bool(per_channel), bool(elementwise)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return multiplicative_noise(images, self.multiplier, self.per_channel, self.elementwise, self.probability,
                                    seed), targets

    def get_config(self) -> dict:
        return dict(multiplier=self.multiplier, per_channel=self.per_channel, elementwise=self.elementwise,
                    probability=self.probability, seed=self.seed)
