"""Albumentations' ToSepia: the classic sepia matrix applied to RGB, per sample (one stage of
the fused augment kernel)."""
from __future__ import annotations

from typing import Optional

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment.dropouts import to_sepia
from tfgpuaug.transforms import TransformOutput, _PerSample

# Rows: output red, green, blue as weights of input red, green, blue (Albumentations 2.0.8); the
# kernel's SepiaPixel (cc/kernels/augment/augment.h) holds the same numbers.
SEPIA = ((0.393, 0.769, 0.189), (0.349, 0.686, 0.168), (0.272, 0.534, 0.131))


class ToSepia(_PerSample):
    """Albumentations' ToSepia: in a sample chosen with probability `probability`, each RGB
    pixel becomes the sepia matrix times it, rounded half to even and saturated to [0, 255]
    (OpenCV's `cv2.transform`, which Albumentations calls); alpha and other channels past the
    third are kept; one-channel images pass unchanged, as Albumentations leaves gray ones.
    Annotations pass through; inference leaves images alone.

    Args:
      probability: probability that a sample turns sepia.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    moves_targets = False

    def __init__(self, probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        channels = images.shape[-1]
        if channels == 1:
            return images, targets
        if channels == 2:
            raise ValueError("ToSepia takes 1-channel (passed unchanged), RGB or RGB+ images, got 2 channels")
        return to_sepia(images, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(probability=self.probability, seed=self.seed)
