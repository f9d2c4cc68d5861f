"""Albumentations' HEStain as a transform: histology stain jitter, the hematoxylin and eosin
concentrations of each pixel scaled and shifted (`tfgpuaug.augment.he_stain`)."""
from __future__ import annotations

from typing import Optional, Tuple

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment.he_stain import check_he_stain_args, he_stain
from tfgpuaug.transforms import TransformOutput, _PerSample


class HEStain(_PerSample):
    """Albumentations' HEStain (all four methods): with probability
    `probability` per sample, each tissue pixel's hematoxylin and eosin concentrations (its
    optical density split by a stain matrix) scaled and shifted by amounts drawn per sample, and
    the RGB image rebuilt. RGB images only. Annotations pass through; inference leaves images
    alone.

    Args:
      method: "random_preset" (one of the eight reference matrices drawn per sample), "preset",
        "macenko" (the matrix fitted to each image by Macenko's method as its paper states it;
        Albumentations 2.0.8's differs, see `tfgpuaug.augment.he_stain`; an image with fewer than
        two tissue pixels is left alone) or "vahadane" (Albumentations' own NMF fit of each image,
        by a kernel op; an image without density is left alone).
      preset: the reference matrix for "preset" (None: "standard").
      intensity_scale_range: (min, max) factor of each stain's concentration.
      intensity_shift_range: (min, max) shift of each stain's concentration, within [-1, 1].
      augment_background: also change pixels brighter than the tissue threshold (0.85).
      probability: per-sample probability of the jitter.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.HEStain(probability=0.5)]))
    """

    moves_targets = False

    def __init__(self, method: str = "random_preset", preset: Optional[str] = None,
                 intensity_scale_range: Tuple[float, float] = (0.7, 1.3),
                 intensity_shift_range: Tuple[float, float] = (-0.2, 0.2), augment_background: bool = False,
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.preset, self.intensity_scale_range, self.intensity_shift_range = check_he_stain_args(
            method, preset, intensity_scale_range, intensity_shift_range, probability)
        self.method, self.augment_background = method, bool(augment_background)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return he_stain(images, self.method, self.preset, self.intensity_scale_range, self.intensity_shift_range,
                        self.augment_background, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(method=self.method, preset=self.preset, intensity_scale_range=self.intensity_scale_range,
                    intensity_shift_range=self.intensity_shift_range, augment_background=self.augment_background,
                    probability=self.probability, seed=self.seed)
