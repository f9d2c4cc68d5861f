"""Albumentations' domain-adaptation transforms with a bank of reference images
(`tfgpuaug.augment.histogram_matching`, `tfgpuaug.augment.fda`): each sample takes on the look
of a reference drawn per sample, its annotations unchanged."""
from __future__ import annotations

from typing import Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment.fda import check_fda_args, fda
from tfgpuaug.augment.histogram_matching import check_histogram_matching_args, histogram_matching
from tfgpuaug.augment.pixel_distribution import check_pixel_distribution_args, pixel_distribution_adaptation
from tfgpuaug.transforms import TransformOutput, _PerSample

Bank = Union[np.ndarray, Sequence]


class _ReferenceBankTransform(_PerSample):
    """A per-sample transform holding a uint8 bank of reference images (in its config)."""

    moves_targets = False

    def __init__(self, reference_images: Bank, probability: float, seed: Optional[int]):
        super().__init__(probability, seed)
        bank = np.asarray(reference_images)
        if bank.dtype != np.uint8:
            if not (np.issubdtype(bank.dtype, np.integer) and bank.size and 0 <= bank.min() and bank.max() <= 255):
                raise ValueError(f"{type(self).__name__}: reference_images must be uint8 levels, got {bank.dtype}")
            bank = bank.astype(np.uint8)
        self.reference_images = bank

    def get_config(self) -> dict:
        return dict(reference_images=self.reference_images.tolist(), probability=self.probability, seed=self.seed)


class HistogramMatching(_ReferenceBankTransform):
    """Albumentations' HistogramMatching: with probability `probability` per sample, each channel
    mapped so that its cumulative histogram follows that of a reference drawn uniformly from
    `reference_images` (resized to the image's size when it differs), blended with the image
    by a weight drawn in `blend_ratio`: rint(r matched + (1 - r) image). One lookup table per
    sample and channel in the graph, applied by one gather. Annotations pass through;
    inference leaves images alone.

    Args:
      reference_images: uint8 `[R, h, w, C]` array (or nested lists): the bank, one size, the
        images' channels. It is part of the transform's config, so keep banks small (their
        histograms are all that is used: downscaled references give nearly the same tables).
      blend_ratio: (min, max) weight of the matched image within [0, 1].
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    def __init__(self, reference_images: Bank, blend_ratio: Tuple[float, float] = (0.5, 1.0),
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(reference_images, probability, seed)
        _, self.blend_ratio = check_histogram_matching_args(self.reference_images, blend_ratio, probability)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return histogram_matching(images, self.reference_images, self.blend_ratio, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(super().get_config(), blend_ratio=self.blend_ratio)


class FDA(_ReferenceBankTransform):
    """Albumentations' FDA (Fourier Domain Adaptation): with probability `probability` per
    sample, the low-frequency amplitudes of each channel's spectrum (a centred window of
    half-side floor(min(H, W) beta), beta drawn in `beta_limit`) replaced by those of a
    reference drawn uniformly from `reference_images` (resized to the image's size), the phases
    kept: the reference's colours and illumination, the image's content. Rounded to levels
    (Albumentations truncates its float result, so there beta 0 loses a level on about half
    the pixels; here it is the identity). Annotations pass through; inference leaves images
    alone.

    Args:
      reference_images: uint8 `[R, h, w, C]` array (or nested lists): the bank, one size, the
        images' channels; part of the transform's config.
      beta_limit: (min, max) within [0, 0.5]; b means (0, b).
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    def __init__(self, reference_images: Bank, beta_limit: Union[float, Tuple[float, float]] = (0.0, 0.1),
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(reference_images, probability, seed)
        _, self.beta_limit = check_fda_args(self.reference_images, beta_limit, probability)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return fda(images, self.reference_images, self.beta_limit, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(super().get_config(), beta_limit=self.beta_limit)


class PixelDistributionAdaptation(_ReferenceBankTransform):
    """Albumentations' PixelDistributionAdaptation, as its code intends: with probability
    `probability` per sample, the image's pixel distribution (levels / 255, channels as
    features) moved onto that of a reference drawn uniformly from `reference_images` by
    fitting `transform_type` ("pca": principal axes, "standard": mean and deviation,
    "minmax": range) to both, mapping through the image's fit and back through the
    reference's inverse, blended with the image by a weight drawn in `blend_ratio`. Each map is
    affine, so a sample costs one 3x3 colour matrix and offset. (Albumentations 2.0.8 blends its
    adapted levels on the 0..1 scale with the image on 0..255: its output is the image times
    (1 - weight).) Annotations pass through; inference leaves images alone.

    Args:
      reference_images: uint8 `[R, h, w, C]` array (or nested lists): the bank, the images'
        channels; part of the transform's config.
      blend_ratio: (min, max) weight of the adapted image within [0, 1].
      transform_type: "pca", "standard" or "minmax".
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    def __init__(self, reference_images: Bank, blend_ratio: Tuple[float, float] = (0.25, 1.0),
                 transform_type: str = "pca", probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(reference_images, probability, seed)
        _, self.blend_ratio = check_pixel_distribution_args(self.reference_images, blend_ratio, transform_type,
                                                            probability)
        self.transform_type = transform_type

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return pixel_distribution_adaptation(images, self.reference_images, self.blend_ratio, self.transform_type,
                                             self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(super().get_config(), blend_ratio=self.blend_ratio, transform_type=self.transform_type)
