"""Albumentations' AdditiveNoise as a transform: uniform, Gaussian, Laplace or beta noise per
sample, one value per channel, per pixel and channel, or per pixel shared by its channels,
truncated toward zero and added with saturation (`tfgpuaug.augment.additive_noise`)."""
from __future__ import annotations

from typing import Any, Mapping, Optional

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment.additive_noise import additive_noise, check_additive_noise_args
from tfgpuaug.transforms import TransformOutput, _PerSample


class AdditiveNoise(_PerSample):
    """Albumentations' AdditiveNoise: with probability `probability` per sample, noise of
    `noise_type` in fractions of 255 added to the image, one value per channel (`constant`), one
    per pixel and channel (`per_pixel`) or one per pixel for all its channels (`shared`),
    truncated toward zero and saturated as Albumentations adds noise to uint8. Per-pixel
    uniform, Gaussian and Laplace noise are stages of the fused augment kernel. Images have 1,
    3 or 4 channels. Annotations pass through; inference leaves images alone.

    Args:
      noise_type: "uniform", "gaussian", "laplace" or "beta".
      spatial_mode: "constant", "per_pixel" or "shared".
      noise_params: Albumentations' parameters of the type (None: its defaults): uniform
        `ranges`, gaussian `mean_range` and `std_range`, laplace `mean_range` and
        `scale_range`, beta `alpha_range`, `beta_range` and `scale_range`.
      approximation: in [0, 1]; below 1, per-pixel noise drawn at that share of each side and
        resized bilinearly.
      probability: per-sample probability of the noise.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224),
      ...                           tga.AdditiveNoise("gaussian", "per_pixel", probability=0.3)]))
    """

    moves_targets = False

    def __init__(self, noise_type: str = "uniform", spatial_mode: str = "constant",
                 noise_params: Optional[Mapping[str, Any]] = None, approximation: float = 1.0,
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.noise_params = check_additive_noise_args(noise_type, spatial_mode, noise_params, approximation,
                                                      probability)
        self.noise_type, self.spatial_mode, self.approximation = noise_type, spatial_mode, float(approximation)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return additive_noise(images, self.noise_type, self.spatial_mode, self.noise_params, self.approximation,
                              self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(noise_type=self.noise_type, spatial_mode=self.spatial_mode, noise_params=self.noise_params,
                    approximation=self.approximation, probability=self.probability, seed=self.seed)
