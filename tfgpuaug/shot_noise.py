"""Albumentations' ShotNoise as a transform (`tfgpuaug.augment.random_shot_noise`, a stage of the
fused augment kernel)."""
from __future__ import annotations

from typing import Optional, Tuple

from tfgpuaug.augment.shot_noise import check_shot_noise_args, random_shot_noise
from tfgpuaug.transforms import _Photometric


class ShotNoise(_Photometric):
    """Albumentations' ShotNoise: photon counting noise per sample, with probability
    `probability`. In linear light (L = (v / 255)^2.2) each byte becomes a Poisson count of mean
    L / scale, times scale, back by the power 1 / 2.2; `scale` uniform in `scale_range` per
    sample. Means from 12 up use the normal approximation (see `random_shot_noise`). Every
    channel, alpha too, as Albumentations; 1, 3 or 4 channels. Annotations pass through;
    inference leaves images alone.

    Args:
      scale_range: (min, max) of the scale, the reciprocal of the photons per unit of linear
        light (larger: more noise), within [1e-4, 1e4].
      probability: probability that a sample gets noise.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.
    """

    def __init__(self, scale_range: Tuple[float, float] = (0.1, 0.3), probability: float = 0.5,
                 seed: Optional[int] = None):
        super().__init__(seed)
        self.scale_range = check_shot_noise_args(scale_range, probability)
        self.probability = float(probability)

    def _run(self, images, seed):
        return random_shot_noise(images, self.scale_range, self.probability, seed)

    def get_config(self) -> dict:
        return dict(scale_range=self.scale_range, probability=self.probability, seed=self.seed)
