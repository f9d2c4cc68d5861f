"""The geometry of an augmentation plan: the per-sample affine maps its rotate, shear and
translate stages apply, so boxes, keypoints and masks can follow the pixels.

The kernel samples output pixel centres through PIL's matrix M (output -> input, `AffineMatrix`
in cc/kernels/augment/augment.h); a point moves by M's inverse. The arithmetic here follows
AffineMatrix (rotate: cos and sin in float64, then float32).
"""
from __future__ import annotations

import math

import tensorflow as tf

from tfgpuaug.augment.ops import OP_IDS

AFFINE_OPS = ("rotate", "shear_x", "shear_y", "translate_x", "translate_y")


def pil_matrices(op_ids: tf.Tensor, params: tf.Tensor, height, width) -> tf.Tensor:
    """[..., 2, 3] output -> input matrices of each stage (identity for non-affine ops)."""
    p = tf.cast(params, tf.float64)
    a = -p * math.pi / 180.0
    c, s = tf.cos(a), tf.sin(a)
    cx, cy = tf.cast(width, tf.float64) / 2.0, tf.cast(height, tf.float64) / 2.0
    one, zero = tf.ones_like(p), tf.zeros_like(p)
    is_op = lambda name: tf.equal(op_ids, OP_IDS[name])  # noqa: E731
    rot = is_op("rotate")
    m00 = tf.where(rot, c, one)
    m01 = tf.where(rot, s, tf.where(is_op("shear_x"), p, zero))
    m02 = tf.where(rot, c * -cx + s * -cy + cx, tf.where(is_op("translate_x"), p, zero))
    m10 = tf.where(rot, -s, tf.where(is_op("shear_y"), p, zero))
    m11 = tf.where(rot, c, one)
    m12 = tf.where(rot, -s * -cx + c * -cy + cy, tf.where(is_op("translate_y"), p, zero))
    m = tf.stack([tf.stack([m00, m01, m02], -1), tf.stack([m10, m11, m12], -1)], -2)
    return tf.cast(m, tf.float32)


def _invert(m: tf.Tensor) -> tf.Tensor:
    a, b, t0 = m[..., 0, 0], m[..., 0, 1], m[..., 0, 2]
    c, d, t1 = m[..., 1, 0], m[..., 1, 1], m[..., 1, 2]
    det = a * d - b * c
    ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
    return tf.stack([tf.stack([ia, ib, -(ia * t0 + ib * t1)], -1),
                     tf.stack([ic, id_, -(ic * t0 + id_ * t1)], -1)], -2)


def geometric_stages(op_ids: tf.Tensor) -> tf.Tensor:
    """[B, K] bool: the stages that move pixels."""
    return tf.reduce_any(tf.stack([tf.equal(op_ids, OP_IDS[name]) for name in AFFINE_OPS]), axis=0)


def stage_maps(op_ids: tf.Tensor, params: tf.Tensor, height, width) -> list:
    """Per stage k of plans `[B, K]`, the [B, 2, 3] input -> output point map (stages apply in
    order; boxes are clipped after each, as the pixels are)."""
    if op_ids.shape[1] is None:
        raise ValueError("moving boxes through a policy needs a static number of stages")
    m = pil_matrices(op_ids, params, height, width)  # [B, K, 2, 3]
    return [_invert(m[:, k]) for k in range(op_ids.shape[1])]
