"""Albumentations' HistogramMatching as a transform (`tfgpuaug.augment.histogram_matching`)."""
from __future__ import annotations

from typing import Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment.histogram_matching import check_histogram_matching_args, histogram_matching
from tfgpuaug.transforms import TransformOutput, _PerSample


class HistogramMatching(_PerSample):
    """Albumentations' HistogramMatching: with probability `probability` per sample, each channel
    mapped so that its cumulative histogram follows that of a reference drawn uniformly from
    `reference_images` (resized to the image's size when it differs), blended with the image
    by a weight drawn in `blend_ratio`: rint(r matched + (1 - r) image). Domain adaptation
    (a camera's or a dataset's look) without training. One lookup table per sample and channel
    in the graph, applied by one gather. Annotations pass through; inference leaves images alone.

    Args:
      reference_images: uint8 `[R, h, w, C]` array (or nested lists): the bank, one size, the
        images' channels. It is part of the transform's config, so keep banks small (their
        histograms are all that is used: downscaled references give nearly the same tables).
      blend_ratio: (min, max) weight of the matched image within [0, 1].
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    moves_targets = False

    def __init__(self, reference_images: Union[np.ndarray, Sequence], blend_ratio: Tuple[float, float] = (0.5, 1.0),
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        bank = np.asarray(reference_images)
        if bank.dtype != np.uint8:
            if not (np.issubdtype(bank.dtype, np.integer) and bank.size and 0 <= bank.min() and bank.max() <= 255):
                raise ValueError(f"HistogramMatching: reference_images must be uint8 levels, got {bank.dtype}")
            bank = bank.astype(np.uint8)
        _, self.blend_ratio = check_histogram_matching_args(bank, blend_ratio, probability)
        self.reference_images = bank

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return histogram_matching(images, self.reference_images, self.blend_ratio, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(reference_images=self.reference_images.tolist(), blend_ratio=self.blend_ratio,
                    probability=self.probability, seed=self.seed)
