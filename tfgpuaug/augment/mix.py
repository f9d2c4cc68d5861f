"""Batch-level MixUp and CutMix that mix the labels with the images."""
from __future__ import annotations

from typing import Tuple

import tensorflow as tf

from tfgpuaug.geometry import _seed_tensor
from tfgpuaug._types import Images, Seed


def _beta(n, alpha, seed):
    s1, s2 = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), 2))
    a = tf.random.stateless_gamma([n], s1, alpha)
    b = tf.random.stateless_gamma([n], s2, alpha)
    return a / (a + b)


def _partners(n, seed):
    return tf.random.experimental.index_shuffle(tf.range(n, dtype=tf.int64), _seed_tensor(seed),
                                                tf.cast(n, tf.int64) - 1)


def _check(images, labels, alpha):
    if alpha <= 0:
        raise ValueError(f"alpha must be positive, got {alpha}")
    images = tf.convert_to_tensor(images)
    labels = tf.convert_to_tensor(labels)
    if not labels.dtype.is_floating:
        raise TypeError("labels must be float (one-hot or soft), got " + labels.dtype.name)
    return images, labels


def mixup(images: Images, labels: tf.Tensor, alpha: float = 0.2,
          seed: Seed = None) -> Tuple[tf.Tensor, tf.Tensor]:
    """Per-sample MixUp with a shuffled partner: lam ~ Beta(alpha, alpha);
    images lam * x + (1 - lam) * x_partner (rounded for uint8), labels likewise.

    Args:
      images: `[B, H, W, C]` (uint8 rounded, or float).
      labels: one-hot (or soft) float labels `[B, classes]`.
      alpha: the Beta distribution's parameter.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    images, labels = _check(images, labels, alpha)
    n = tf.shape(images)[0]
    s_lam, s_perm = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), 2))
    lam = _beta(n, alpha, s_lam)
    partner = tf.cast(_partners(n, s_perm), tf.int32)
    x = tf.cast(images, tf.float32)
    lam_x = tf.reshape(lam, [-1] + [1] * (images.shape.rank - 1))
    mixed = lam_x * x + (1 - lam_x) * tf.gather(x, partner)
    if images.dtype == tf.uint8:
        mixed = tf.cast(tf.clip_by_value(tf.round(mixed), 0, 255), tf.uint8)
    else:
        mixed = tf.cast(mixed, images.dtype)
    lam_y = tf.reshape(lam, [-1] + [1] * (labels.shape.rank - 1))
    return mixed, lam_y * labels + (1 - lam_y) * tf.gather(labels, partner)


def cutmix(images: Images, labels: tf.Tensor, alpha: float = 1.0,
           seed: Seed = None) -> Tuple[tf.Tensor, tf.Tensor]:
    """Per-sample CutMix: a box of area fraction 1 - lam (lam ~ Beta(alpha, alpha)) is pasted
    from a shuffled partner; labels are mixed by the pasted box's exact area.

    Args:
      images: `[B, H, W, C]`.
      labels: one-hot (or soft) float labels `[B, classes]`.
      alpha: the Beta distribution's parameter.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    images, labels = _check(images, labels, alpha)
    n = tf.shape(images)[0]
    h, w = tf.shape(images)[1], tf.shape(images)[2]
    s_lam, s_perm, s_pos = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), 3))
    lam = _beta(n, alpha, s_lam)
    partner = tf.cast(_partners(n, s_perm), tf.int32)
    cut = tf.sqrt(1.0 - lam)
    hf, wf = tf.cast(h, tf.float32), tf.cast(w, tf.float32)
    centre = tf.random.stateless_uniform([n, 2], s_pos) * tf.stack([hf, wf])
    y0 = tf.clip_by_value(tf.round(centre[:, 0] - cut * hf / 2), 0, hf)
    y1 = tf.clip_by_value(tf.round(centre[:, 0] + cut * hf / 2), 0, hf)
    x0 = tf.clip_by_value(tf.round(centre[:, 1] - cut * wf / 2), 0, wf)
    x1 = tf.clip_by_value(tf.round(centre[:, 1] + cut * wf / 2), 0, wf)
    ys = tf.cast(tf.range(h), tf.float32)[None, :, None]
    xs = tf.cast(tf.range(w), tf.float32)[None, None, :]
    inside = ((ys >= y0[:, None, None]) & (ys < y1[:, None, None]) &
              (xs >= x0[:, None, None]) & (xs < x1[:, None, None]))
    mixed = tf.where(inside[..., None], tf.gather(images, partner), images)
    area = (y1 - y0) * (x1 - x0) / (hf * wf)
    keep = tf.reshape(1.0 - area, [-1] + [1] * (labels.shape.rank - 1))
    return mixed, keep * labels + (1 - keep) * tf.gather(labels, partner)
