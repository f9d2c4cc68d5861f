"""Albumentations' PlanckianJitter as a transform: the colour cast of a light source at a random
colour temperature (`tfgpuaug.augment.planckian_jitter`)."""
from __future__ import annotations

from typing import Optional, Tuple

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment.planckian_jitter import check_planckian_args, planckian_jitter
from tfgpuaug.transforms import TransformOutput, _PerSample


class PlanckianJitter(_PerSample):
    """Albumentations' PlanckianJitter: with probability `probability` per sample, a colour
    temperature drawn per sample and the image lit as by that illuminant: red and blue scaled by
    their gain over green's (interpolated from a table every 500 K), green and alpha unchanged,
    products clipped and truncated as Albumentations does on uint8. Images are RGB or RGBA.
    Annotations pass through; inference leaves images alone.

    Args:
      mode: "blackbody" (3000 .. 15000 K) or "cied" (4000 .. 15000 K).
      temperature_limit: (low, high) kelvin within the mode's span, containing 6000; None: the
        whole span.
      sampling_method: "uniform" or "gaussian" (about 6000 K, as Albumentations).
      probability: per-sample probability of the jitter.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.PlanckianJitter(probability=0.3)]))
    """

    moves_targets = False

    def __init__(self, mode: str = "blackbody", temperature_limit: Optional[Tuple[int, int]] = None,
                 sampling_method: str = "uniform", probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        check_planckian_args(mode, temperature_limit, sampling_method, probability)
        self.mode, self.sampling_method = mode, sampling_method
        self.temperature_limit = None if temperature_limit is None else tuple(int(t) for t in temperature_limit)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return planckian_jitter(images, self.mode, self.temperature_limit, self.sampling_method, self.probability,
                                seed), targets

    def get_config(self) -> dict:
        return dict(mode=self.mode, temperature_limit=self.temperature_limit, sampling_method=self.sampling_method,
                    probability=self.probability, seed=self.seed)
