"""Albumentations' Illumination as a transform: a linear gradient, corner fall-off or Gaussian
spot of light per sample (`tfgpuaug.augment.illumination`)."""
from __future__ import annotations

from typing import Optional, Tuple

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment.illumination import check_illumination_args, illumination
from tfgpuaug.transforms import TransformOutput, _PerSample


class Illumination(_PerSample):
    """Albumentations' Illumination: with probability `probability` per sample, the image
    times a light pattern: a gradient at a random angle (`linear`), a fall-off from a random
    corner (`corner`) or a Gaussian spot at a random centre (`gaussian`), brightening,
    darkening or either (`effect_type`), by Albumentations' formulas and byte rules. A stage of
    the fused augment kernel. Annotations pass through; inference leaves images alone.

    Args:
      mode: "linear", "corner" or "gaussian".
      intensity_range: (min, max) intensity, within [0, 1] (Albumentations: [0.01, 0.2]).
      effect_type: "brighten", "darken" or "both".
      angle_range: (min, max) degrees of the linear gradient.
      center_range: (min, max) of the gaussian centre, fractions of the width and height.
      sigma_range: (min, max) of the gaussian's width, a fraction of the longer side.
      probability: per-sample probability of the effect.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.Illumination("gaussian", probability=0.3)]))
    """

    moves_targets = False

    def __init__(self, mode: str = "linear", intensity_range: Tuple[float, float] = (0.01, 0.2),
                 effect_type: str = "both", angle_range: Tuple[float, float] = (0.0, 360.0),
                 center_range: Tuple[float, float] = (0.1, 0.9), sigma_range: Tuple[float, float] = (0.2, 1.0),
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        (self.intensity_range, self.angle_range, self.center_range,
         self.sigma_range) = check_illumination_args(mode, intensity_range, effect_type, angle_range, center_range,
                                                     sigma_range, probability)
        self.mode, self.effect_type = mode, effect_type

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return illumination(images, self.mode, self.intensity_range, self.effect_type, self.angle_range,
                            self.center_range, self.sigma_range, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(mode=self.mode, intensity_range=self.intensity_range, effect_type=self.effect_type,
                    angle_range=self.angle_range, center_range=self.center_range, sigma_range=self.sigma_range,
                    probability=self.probability, seed=self.seed)
