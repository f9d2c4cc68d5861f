"""Albumentations' Superpixels as a transform: some superpixels of each image replaced by their
mean colour (`tfgpuaug.augment.superpixels`)."""
from __future__ import annotations

from typing import Optional

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment.superpixels import FloatRange, IntRange, check_superpixels_args, superpixels
from tfgpuaug.transforms import TransformOutput, _PerSample


class Superpixels(_PerSample):
    """Albumentations' Superpixels: with probability `probability` per sample, the image (shrunk
    to `max_size` on its longer side) cut into about n superpixels by Albumentations' own SLIC,
    each segment replaced by its mean colour with probability p, and resized back; n drawn in
    `n_segments`, p in `p_replace`. One Superpixels kernel op (CPU and GPU) does the SLIC and the
    replacement in Albumentations' float64 arithmetic; the resizes take cv2.resize's taps (a float
    blend where OpenCV's is fixed-point). Label 0 is never replaced, as in Albumentations.
    Annotations pass through; inference leaves images alone.

    Args:
      p_replace: (min, max) probability that a segment is replaced; p means (0, p), as
        Albumentations 2.0.8 reads a number.
      n_segments: (min, max) ints, the rough number of superpixels; n means (1, n), as
        Albumentations reads it; pass (n, n) for a fixed count.
      max_size: longest side the SLIC runs at (None: the image's own size).
      interpolation: "bilinear" (cv2.INTER_LINEAR) or "nearest" (cv2.INTER_NEAREST) for the resizes.
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.Superpixels(probability=0.2)]))
    """

    moves_targets = False

    def __init__(self, p_replace: FloatRange = (0.0, 0.1), n_segments: IntRange = (100, 100),
                 max_size: Optional[int] = 128, interpolation: str = "bilinear", probability: float = 0.5,
                 seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.p_replace, self.n_segments = check_superpixels_args(p_replace, n_segments, max_size, interpolation,
                                                                 probability)
        self.max_size, self.interpolation = max_size, interpolation

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return superpixels(images, self.p_replace, self.n_segments, self.max_size, self.interpolation,
                           self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(p_replace=self.p_replace, n_segments=self.n_segments, max_size=self.max_size,
                    interpolation=self.interpolation, probability=self.probability, seed=self.seed)
