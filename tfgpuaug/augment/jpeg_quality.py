"""JPEG compression artefacts per sample (DALI's `jpeg_compression_distortion`): each sample
is encoded at a quality drawn uniformly from `quality` (whole numbers, both ends included)
and decoded back, with probability `probability`. PIL's encoder defaults (4:2:0 chroma,
accurate integer DCT, standard Huffman tables), so a sample equals PIL's save-and-reload at
the same quality. libjpeg runs on the CPU: in a GPU-placed `gpu_augment` the transform (and
what precedes it) runs in the host part.
"""
from __future__ import annotations

from typing import Tuple, Union

import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug._types import Images, Seed


def check_jpeg_quality_args(quality: Tuple[int, int], probability: float) -> None:
    if not 1 <= quality[0] <= quality[1] <= 100:
        raise ValueError(f"quality must be (min, max) with 1 <= min <= max <= 100, got {quality}")
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {probability}")


def jpeg_quality(images: Images, quality: Tuple[int, int] = (30, 95), probability: float = 1.0,
                 seed: Seed = None, return_plan: bool = False) -> Union[tf.Tensor, Tuple[tf.Tensor, tf.Tensor]]:
    """uint8 `images` `[B, H, W, C]` (1, 3 or 4 channels) through a JPEG round trip per sample.
    With `return_plan`, also the `[B]` qualities (0 where the sample was left alone).

    Args:
      images: uint8 `[B, H, W, C]`, 1, 3 or 4 channels.
      quality: (min, max) JPEG quality drawn per sample.
      probability: probability that a sample goes through.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return what each sample drew (see Returns).
    """
    from tfgpuaug.augment.ops import check_images
    from tfgpuaug.geometry import _seed_tensor

    check_jpeg_quality_args(tuple(quality), probability)
    images = check_images(images)
    n = tf.shape(images)[0]
    s_quality, s_apply = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), 2))
    q = tf.random.stateless_uniform([n], s_quality, minval=quality[0], maxval=quality[1] + 1, dtype=tf.int32)
    q = tf.where(tf.random.stateless_uniform([n], s_apply) < probability, q, 0)
    out = _loader.ops().tf_gpu_aug_jpeg_quality(images, q)
    return (out, q) if return_plan else out
