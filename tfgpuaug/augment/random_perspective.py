"""torchvision's RandomPerspective on a batch, per sample.

Each sample is warped with probability `probability`: its four corners move inward by up to
`distortion_scale` of half the image (torchvision's `get_params`: each corner's offset drawn
uniformly among the integers it allows), and the image is resampled through the homography
that takes the moved corners back to the original ones (torchvision's
`_get_perspective_coeffs`, PIL's `Image.transform(PERSPECTIVE)` convention: output pixel
centres map to continuous input coordinates). Pixels that map outside the image get `fill`.

Resampling runs on TensorFlow's ImageProjectiveTransformV3 (CPU and GPU kernels), in float
and rounded back for uint8 images (bilinear; nearest copies pixels in their own dtype). The
homographies are returned with `return_plan`, and `RandomPerspective` moves boxes (the
enclosing box of the moved corners), masks (nearest) and keypoints with the image.
"""
from __future__ import annotations

from typing import Tuple, Union

import tensorflow as tf

from tfgpuaug._types import Images, Seed

INTERPOLATIONS = ("bilinear", "nearest")


def check_random_perspective_args(distortion_scale: float, probability: float, interpolation: str) -> None:
    if not 0.0 <= distortion_scale <= 1.0:
        raise ValueError(f"distortion_scale must be in [0, 1], got {distortion_scale}")
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {probability}")
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"interpolation must be one of {INTERPOLATIONS}, got {interpolation!r}")


def perspective_matrices(n, height, width, distortion_scale: float, probability: float,
                         seed: tf.Tensor) -> tf.Tensor:
    """`[n, 3, 3]` homographies from output to input continuous coordinates (identity for
    the samples left alone), drawn as torchvision draws its corners."""
    h, w = tf.cast(height, tf.int32), tf.cast(width, tf.int32)
    dh = tf.cast(distortion_scale * tf.cast(h // 2, tf.float32), tf.int32)
    dw = tf.cast(distortion_scale * tf.cast(w // 2, tf.float32), tf.int32)
    seeds = tf.unstack(tf.random.experimental.stateless_split(seed, 9))

    def draw(i, lo, hi):  # integers in [lo, hi), as torch.randint
        return tf.random.stateless_uniform([n], seeds[i], minval=lo, maxval=hi, dtype=tf.int32)

    end = tf.cast(tf.stack([
        tf.stack([draw(0, 0, dw + 1), draw(1, 0, dh + 1)], -1),                  # top left
        tf.stack([draw(2, w - dw - 1, w), draw(3, 0, dh + 1)], -1),              # top right
        tf.stack([draw(4, w - dw - 1, w), draw(5, h - dh - 1, h)], -1),          # bottom right
        tf.stack([draw(6, 0, dw + 1), draw(7, h - dh - 1, h)], -1)], axis=1),    # bottom left
        tf.float64)
    wf, hf = tf.cast(w - 1, tf.float64), tf.cast(h - 1, tf.float64)
    start = tf.stack([tf.zeros([], tf.float64), tf.zeros([], tf.float64), wf, tf.zeros([], tf.float64),
                      wf, hf, tf.zeros([], tf.float64), hf])
    start = tf.tile(tf.reshape(start, [1, 4, 2]), [n, 1, 1])
    matrices = _homographies(end, start)
    applied = tf.random.stateless_uniform([n], seeds[8]) < probability
    return tf.where(applied[:, None, None], matrices, tf.eye(3, batch_shape=[n], dtype=tf.float64))


def _homographies(src: tf.Tensor, dst: tf.Tensor) -> tf.Tensor:
    """`[n, 3, 3]` maps taking the 4 points `src` `[n, 4, 2]` to `dst` (float64 solve)."""
    x, y = src[..., 0], src[..., 1]
    u, v = dst[..., 0], dst[..., 1]
    zero, one = tf.zeros_like(x), tf.ones_like(x)
    rows_u = tf.stack([x, y, one, zero, zero, zero, -u * x, -u * y], -1)
    rows_v = tf.stack([zero, zero, zero, x, y, one, -v * x, -v * y], -1)
    a = tf.concat([rows_u, rows_v], axis=1)                 # [n, 8, 8]
    b = tf.concat([u, v], axis=1)[..., tf.newaxis]          # [n, 8, 1]
    coeffs = tf.linalg.solve(a, b)[..., 0]
    return tf.reshape(tf.concat([coeffs, tf.ones_like(coeffs[:, :1])], axis=1), [-1, 3, 3])


def warp_perspective(images: Images, matrices: tf.Tensor, interpolation: str = "bilinear",
                     fill: float = 0.0) -> tf.Tensor:
    """Resamples `images` `[B, H, W, C]` through output-to-input homographies `[B, 3, 3]`
    (continuous coordinates, PIL's convention)."""
    images = tf.convert_to_tensor(images)
    n = tf.shape(images)[0]
    half = tf.constant([[1.0, 0.0, 0.5], [0.0, 1.0, 0.5], [0.0, 0.0, 1.0]], tf.float64)
    back = tf.constant([[1.0, 0.0, -0.5], [0.0, 1.0, -0.5], [0.0, 0.0, 1.0]], tf.float64)
    # TensorFlow samples at pixel indices: index -> centre (+0.5), map, back to an index (-0.5).
    m = tf.linalg.matmul(tf.linalg.matmul(tf.broadcast_to(back, [n, 3, 3]), tf.cast(matrices, tf.float64)),
                         tf.broadcast_to(half, [n, 3, 3]))
    m = m / m[:, 2:3, 2:3]
    transforms = tf.cast(tf.reshape(m, [-1, 9])[:, :8], tf.float32)
    # Nearest sampling copies pixels: any dtype as it is. Bilinear on integers interpolates in
    # float and rounds (TensorFlow's integer kernels truncate).
    floating = images.dtype.is_floating or interpolation == "nearest"
    x = images if floating else tf.cast(images, tf.float32)
    out = tf.raw_ops.ImageProjectiveTransformV3(
        images=x, transforms=transforms, output_shape=tf.shape(images)[1:3], fill_value=float(fill),
        interpolation=interpolation.upper(), fill_mode="CONSTANT")
    if floating:
        return out
    return tf.cast(tf.clip_by_value(tf.round(out), 0.0, 255.0), images.dtype)


def random_perspective(images: Images, distortion_scale: float = 0.5, probability: float = 0.5,
                       interpolation: str = "bilinear", fill: float = 0.0, seed: Seed = None,
                       return_plan: bool = False) -> Union[tf.Tensor, Tuple[tf.Tensor, tf.Tensor]]:
    """`images` `[B, H, W, C]` (uint8 or float) warped per sample (see the module). With
    `return_plan`, also the `[B, 3, 3]` output-to-input homographies (float64).

    Args:
      images: uint8 or float `[B, H, W, C]`.
      distortion_scale: how far corners may move, as a fraction of half the image.
      probability: probability that a sample is warped.
      interpolation: "bilinear" or "nearest".
      fill: the value of pixels that map outside the image.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return what each sample drew (see Returns).
    """
    from tfgpuaug.geometry import _seed_tensor

    check_random_perspective_args(distortion_scale, probability, interpolation)
    images = tf.convert_to_tensor(images)
    if images.shape.rank != 4:
        raise ValueError(f"images must be [B, H, W, C], got rank {images.shape.rank}")
    shape = tf.shape(images)
    matrices = perspective_matrices(shape[0], shape[1], shape[2], distortion_scale, probability,
                                    _seed_tensor(seed))
    out = warp_perspective(images, matrices, interpolation, fill)
    return (out, matrices) if return_plan else out
