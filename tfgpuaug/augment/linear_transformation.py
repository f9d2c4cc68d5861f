"""torchvision's LinearTransformation (whitening, ZCA): each image flattened, the mean vector
subtracted, times a square matrix, reshaped back; a TensorFlow matmul for the batch."""
from __future__ import annotations

import tensorflow as tf

from tfgpuaug._types import Images, TensorLike

ORDERS = ("CHW", "HWC")


def linear_transformation(images: Images, transformation_matrix: TensorLike, mean_vector: TensorLike,
                          order: str = "CHW") -> tf.Tensor:
    """torchvision's LinearTransformation: out = (flatten(image) - mean_vector) @ matrix, per
    image, reshaped to the image's shape; float32 out (uint8 values are taken as they are,
    0..255, as torchvision takes an integer tensor).

    Args:
      images: dense `[B, H, W, C]` uint8 or float.
      transformation_matrix: `[D, D]`, D = H W C (a whitening matrix, computed offline).
      mean_vector: `[D]`, subtracted before the product.
      order: how an image is flattened into D values: "CHW" (torchvision's tensors, so its
        matrices and means carry over unchanged) or "HWC" (this library's own layout, for
        matrices computed on NHWC data).
    """
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
    if isinstance(images, tf.RaggedTensor) or (isinstance(images, tf.Tensor) and images.dtype == tf.string):
        raise ValueError("linear_transformation takes a dense batch [B, H, W, C]; decode and resize first")
    images = tf.convert_to_tensor(images)
    if images.shape.rank != 4:
        raise ValueError(f"images must be [B, H, W, C], got shape {images.shape}")
    matrix = tf.convert_to_tensor(transformation_matrix, tf.float32)
    mean = tf.convert_to_tensor(mean_vector, tf.float32)
    if matrix.shape.rank != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"transformation_matrix must be square [D, D], got shape {matrix.shape}")
    if mean.shape.rank != 1 or mean.shape[0] != matrix.shape[0]:
        raise ValueError(f"mean_vector must be [D] with D = {matrix.shape[0]} (the matrix's side), got shape "
                         f"{mean.shape}")
    h, w, c = images.shape[1:]
    if None not in (h, w, c) and h * w * c != matrix.shape[0]:
        raise ValueError(f"transformation_matrix is {matrix.shape[0]} x {matrix.shape[0]}, but images of "
                         f"{h} x {w} x {c} flatten to {h * w * c} values")
    x = tf.cast(images, tf.float32)
    if order == "CHW":
        x = tf.transpose(x, [0, 3, 1, 2])
    shape = tf.shape(x)
    flat = tf.reshape(x, [shape[0], -1]) - mean
    out = tf.reshape(tf.matmul(flat, matrix), shape)
    return tf.transpose(out, [0, 2, 3, 1]) if order == "CHW" else out
