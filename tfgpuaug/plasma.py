"""Albumentations' PlasmaBrightnessContrast and PlasmaShadow as transforms: brightness and
contrast, or a shadow, weighted pixel by pixel by a plasma fractal drawn per sample
(`tfgpuaug.augment.plasma_brightness_contrast`, `tfgpuaug.augment.plasma_shadow`)."""
from __future__ import annotations

from typing import Optional, Tuple

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment.photometric import _check_probability, check_range
from tfgpuaug.augment.plasma import check_roughness, plasma_brightness_contrast, plasma_shadow
from tfgpuaug.transforms import TransformOutput, _PerSample


class PlasmaBrightnessContrast(_PerSample):
    """Albumentations' PlasmaBrightnessContrast: with probability `probability` per sample,
    brightness and contrast changes drawn from their ranges and weighted pixel by pixel by a
    plasma fractal (Albumentations' diamond-square steps), by its float32 formula, rounded back
    to levels. Negative brightness and contrast darken and flatten (Albumentations 2.0.8 clips
    them away; for non-negative ones the bytes are its bytes). Images need a static height and
    width. Annotations pass through; inference leaves images alone. (Albumentations'
    `plasma_size` is not taken: it does not use it.)

    Args:
      brightness_range: (min, max) within [-1, 1].
      contrast_range: (min, max) within [-1, 1].
      roughness: the fractal's noise ratio from one step to the next (> 0).
      probability: per-sample probability of the change.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.PlasmaBrightnessContrast(probability=0.3)]))
    """

    moves_targets = False

    def __init__(self, brightness_range: Tuple[float, float] = (-0.3, 0.3),
                 contrast_range: Tuple[float, float] = (-0.3, 0.3), roughness: float = 3.0,
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        _check_probability(probability)
        self.brightness_range = check_range("brightness_range", brightness_range, -1.0, 1.0)
        self.contrast_range = check_range("contrast_range", contrast_range, -1.0, 1.0)
        self.roughness = check_roughness(roughness)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return plasma_brightness_contrast(images, self.brightness_range, self.contrast_range, self.roughness,
                                          self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(brightness_range=self.brightness_range, contrast_range=self.contrast_range,
                    roughness=self.roughness, probability=self.probability, seed=self.seed)


class PlasmaShadow(_PerSample):
    """Albumentations' PlasmaShadow: with probability `probability` per sample, the image times
    1 - intensity * a plasma fractal, intensity drawn from `shadow_intensity_range`; the float32
    product clipped and truncated, as there. Images need a static height and width.
    Annotations pass through; inference leaves images alone.

    Args:
      shadow_intensity_range: (min, max) within [0, 1].
      roughness: the fractal's noise ratio from one step to the next (> 0).
      probability: per-sample probability of the shadow.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    moves_targets = False

    def __init__(self, shadow_intensity_range: Tuple[float, float] = (0.3, 0.7), roughness: float = 3.0,
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        _check_probability(probability)
        self.shadow_intensity_range = check_range("shadow_intensity_range", shadow_intensity_range, 0.0, 1.0)
        self.roughness = check_roughness(roughness)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return plasma_shadow(images, self.shadow_intensity_range, self.roughness, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(shadow_intensity_range=self.shadow_intensity_range, roughness=self.roughness,
                    probability=self.probability, seed=self.seed)
