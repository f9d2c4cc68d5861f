"""Albumentations' UnsharpMask as a transform (`tfgpuaug.augment.unsharp_mask`)."""
from __future__ import annotations

from typing import Optional, Tuple, Union

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment.unsharp_mask import check_unsharp_mask_args, unsharp_mask
from tfgpuaug.transforms import TransformOutput, _PerSample


class UnsharpMask(_PerSample):
    """Albumentations' UnsharpMask: with probability `probability` per sample, the image
    sharpened by its difference from a Gaussian blur (OpenCV's kernel for a side drawn among the
    odd ones in `blur_limit` and a sigma in `sigma_limit`), by an amount drawn in `alpha`, where
    that difference exceeds `threshold` levels, blended by the blurred mask of those pixels, in
    float32 as Albumentations computes it. One kernel op for the batch (CPU and GPU).
    Annotations pass through; inference leaves images alone.

    Args:
      blur_limit: odd Gaussian side, or (min, max) of odd sides, within [3, 63]; one side k
        means (3, k).
      sigma_limit: (min, max) sigma; 0 takes OpenCV's sigma for the side; s means (0, s).
      alpha: (min, max) amount within [0, 1]; a means (0, a).
      threshold: levels (0 .. 255) a pixel must differ from its blur by to be sharpened.
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.UnsharpMask(probability=0.3)]))
    """

    moves_targets = False

    def __init__(self, blur_limit: Union[int, Tuple[int, int]] = (3, 7),
                 sigma_limit: Union[float, Tuple[float, float]] = 0.0,
                 alpha: Union[float, Tuple[float, float]] = (0.2, 0.5), threshold: int = 10,
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.blur_limit, self.sigma_limit, self.alpha = check_unsharp_mask_args(blur_limit, sigma_limit, alpha,
                                                                                threshold, probability)
        self.threshold = int(threshold)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return unsharp_mask(images, self.blur_limit, self.sigma_limit, self.alpha, self.threshold, self.probability,
                            seed), targets

    def get_config(self) -> dict:
        return dict(blur_limit=self.blur_limit, sigma_limit=self.sigma_limit, alpha=self.alpha,
                    threshold=self.threshold, probability=self.probability, seed=self.seed)
