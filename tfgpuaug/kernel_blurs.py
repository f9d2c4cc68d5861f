"""Albumentations' AdvancedBlur, Defocus, RingingOvershoot, GlassBlur and ZoomBlur as transforms
(`tfgpuaug.augment.advanced_blur`, `defocus`, `ringing_overshoot`, `glass_blur`, `zoom_blur`):
kernels drawn per sample, applied by the Filter2D kernel op (CPU and GPU); GlassBlur's pixel swaps
between two Gaussian blurs; ZoomBlur's zooms by its own kernel op. Annotations pass through;
inference leaves images alone."""
from __future__ import annotations

import math
from typing import Optional, Tuple

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment import kernel_blurs as kb
from tfgpuaug.augment.glass_blur import check_glass_blur_args, glass_blur
from tfgpuaug.augment.zoom_blur import check_zoom_blur_args, zoom_blur
from tfgpuaug.transforms import TransformOutput, _PerSample


class AdvancedBlur(_PerSample):
    """Albumentations' AdvancedBlur: with probability `probability` per sample, the image
    correlated with a generalised Gaussian kernel (Real-ESRGAN's: anisotropic spreads
    `sigma_x_limit`, `sigma_y_limit`, rotated by an angle in `rotate_limit`, shape beta below or
    above 1 with equal odds, multiplicative noise per tap in `noise_limit`, normalised) of an
    odd side drawn in `blur_limit`; cv2.filter2D's arithmetic (reflect-101 border, rounded).

    Args:
      blur_limit: odd kernel side, or (min, max) odd sides, within [3, 63]; k means (3, k).
      sigma_x_limit: (min, max) spread along the kernel's x axis; s means (0, s).
      sigma_y_limit: (min, max) spread along its y axis; the two may not both start at 0.
      rotate_limit: (min, max) kernel rotation in degrees; a means (-a, a).
      beta_limit: (min, max) shape with min < 1 < max.
      noise_limit: (min, max) multiplicative noise per kernel tap.
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.AdvancedBlur(probability=0.3)]))
    """

    moves_targets = False

    def __init__(self, blur_limit: kb.IntRange = (3, 7), sigma_x_limit: kb.FloatRange = (0.2, 1.0),
                 sigma_y_limit: kb.FloatRange = (0.2, 1.0), rotate_limit: kb.FloatRange = (-90.0, 90.0),
                 beta_limit: kb.FloatRange = (0.5, 8.0), noise_limit: kb.FloatRange = (0.9, 1.1),
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        (self.blur_limit, self.sigma_x_limit, self.sigma_y_limit, self.rotate_limit, self.beta_limit,
         self.noise_limit) = kb.check_advanced_blur_args(blur_limit, sigma_x_limit, sigma_y_limit, rotate_limit,
                                                         beta_limit, noise_limit, probability)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return kb.advanced_blur(images, self.blur_limit, self.sigma_x_limit, self.sigma_y_limit, self.rotate_limit,
                                self.beta_limit, self.noise_limit, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(blur_limit=self.blur_limit, sigma_x_limit=self.sigma_x_limit, sigma_y_limit=self.sigma_y_limit,
                    rotate_limit=self.rotate_limit, beta_limit=self.beta_limit, noise_limit=self.noise_limit,
                    probability=self.probability, seed=self.seed)


class Defocus(_PerSample):
    """Albumentations' Defocus: with probability `probability` per sample, the image correlated
    with a disc of a radius drawn in `radius` (on a grid of side 2 max(8, r) + 1) softened by
    cv2.GaussianBlur with sigma drawn in `alias_blur`; cv2.filter2D's arithmetic.

    Args:
      radius: (min, max) disc radius within [1, 31]; r means (1, r).
      alias_blur: (min, max) sigma of the softening Gaussian; a means (0, a).
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    moves_targets = False

    def __init__(self, radius: kb.IntRange = (3, 10), alias_blur: kb.FloatRange = (0.1, 0.5),
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.radius, self.alias_blur = kb.check_defocus_args(radius, alias_blur, probability)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return kb.defocus(images, self.radius, self.alias_blur, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(radius=self.radius, alias_blur=self.alias_blur, probability=self.probability, seed=self.seed)


class RingingOvershoot(_PerSample):
    """Albumentations' RingingOvershoot: with probability `probability` per sample, the image
    correlated with a 2-D sinc kernel (the circular low-pass w J1(w d) / (2 pi d), normalised)
    of an odd side drawn in `blur_limit` and cutoff w drawn in `cutoff`; cv2.filter2D's
    arithmetic. Ringing and overshoot near edges, as sharpened or compressed images show.

    Args:
      blur_limit: odd kernel side, or (min, max) odd sides, within [3, 63]; k means (3, k).
      cutoff: (min, max) cutoff frequency in radians within [0, pi].
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    moves_targets = False

    def __init__(self, blur_limit: kb.IntRange = (7, 15), cutoff: Tuple[float, float] = (math.pi / 4, math.pi / 2),
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.blur_limit, self.cutoff = kb.check_ringing_overshoot_args(blur_limit, cutoff, probability)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return kb.ringing_overshoot(images, self.blur_limit, self.cutoff, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(blur_limit=self.blur_limit, cutoff=self.cutoff, probability=self.probability, seed=self.seed)


class GlassBlur(_PerSample):
    """Albumentations' GlassBlur ("fast" mode): with probability `probability` per sample, a
    Gaussian blur of `sigma`, `iterations` rounds of every interior pixel swapped with a random
    neighbour at most `max_delta` away (numpy's fancy-assignment order), and the blur again:
    frosted glass.

    Args:
      sigma: the Gaussian's standard deviation, > 0 (side round(6 sigma + 1) made odd).
      max_delta: how far a pixel may move, 1 .. 64; images must be more than 2 max_delta on a side.
      iterations: rounds of swaps, 1 .. 16.
      mode: "fast" (Albumentations' "exact" is not available: docs/augmentations.md).
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    moves_targets = False

    def __init__(self, sigma: float = 0.7, max_delta: int = 4, iterations: int = 2, mode: str = "fast",
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.sigma, self.max_delta, self.iterations = check_glass_blur_args(sigma, max_delta, iterations, mode,
                                                                            probability)
        self.mode = mode

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return glass_blur(images, self.sigma, self.max_delta, self.iterations, self.mode, self.probability,
                          seed), targets

    def get_config(self) -> dict:
        return dict(sigma=self.sigma, max_delta=self.max_delta, iterations=self.iterations, mode=self.mode,
                    probability=self.probability, seed=self.seed)


class ZoomBlur(_PerSample):
    """Albumentations' ZoomBlur: with probability `probability` per sample, the image averaged
    with its central zooms by every factor of arange(1, max(1 + s, m), s), s drawn in
    `step_factor` and m in `max_factor`, each zoom resized with OpenCV's bilinear taps: a radial
    blur from the centre, as a camera zooming during the exposure. One ZoomBlur kernel op (CPU
    and GPU); OpenCV's float arithmetic, so Albumentations' bytes.

    Args:
      max_factor: (min, max) largest zoom factor within [1, 64]; x means (1, x).
      step_factor: (min, max) step between factors, min above 0 (at most 256 zooms a sample).
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.ZoomBlur(probability=0.2)]))
    """

    moves_targets = False

    def __init__(self, max_factor: kb.FloatRange = (1.0, 1.31), step_factor: kb.FloatRange = (0.01, 0.03),
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.max_factor, self.step_factor = check_zoom_blur_args(max_factor, step_factor, probability)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return zoom_blur(images, self.max_factor, self.step_factor, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(max_factor=self.max_factor, step_factor=self.step_factor, probability=self.probability,
                    seed=self.seed)
