"""Albumentations' SafeRotate: a rotation about the centre, then each axis scaled so the whole
rotated image fits the original frame (Albumentations' integer fitted size: int(h |sin| +
w |cos|) wide, int(h |cos| + w |sin|) high). One affine map per sample, resampled by the remap
kernel (cv2.remap's rules, every OpenCV border mode); masks follow by the nearest remap, boxes
become the enclosing box of their moved corners (Albumentations' "largest_box"), keypoints move.

The map is built in continuous pixel coordinates (pixel k covers [k, k + 1)) about the centre
(w / 2, h / 2), as Albumentations moves boxes. Albumentations warps the image with the same
formula in pixel indices about ((w - 1) / 2, (h - 1) / 2), which lands its image half a pixel
right of and below its own boxes; here image, masks, boxes and keypoints move together, so the
image differs from Albumentations' by that half-pixel shift.

Images and masks go through the affine remap (`remap_affine`: the map computed in the kernel,
no maps tensor); `safe_rotate_maps` states the same map as a tensor."""
from __future__ import annotations

import math
from typing import NamedTuple, Optional, Tuple, Union

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment.color_curves import symmetric_range
from tfgpuaug.distortions import Dim, _Distortion, remap_affine, remap_masks_affine
from tfgpuaug.transforms import TransformOutput

Range = Union[float, Tuple[float, float]]


class _Fit(NamedTuple):
    """A rotation's cosine and sine and the fitted size, `[n]` float64 each."""
    cos: tf.Tensor
    sin: tf.Tensor
    width: tf.Tensor
    height: tf.Tensor


def _fit(height: Dim, width: Dim, degrees: tf.Tensor) -> _Fit:
    h, w = tf.cast(height, tf.float64), tf.cast(width, tf.float64)
    theta = tf.cast(degrees, tf.float64) * (math.pi / 180.0)
    a, b = tf.cos(theta), tf.sin(theta)
    # Albumentations' int() of positive sizes: the floor
    return _Fit(a, b, tf.floor(h * tf.abs(b) + w * tf.abs(a)), tf.floor(h * tf.abs(a) + w * tf.abs(b)))


def safe_rotate_matrices(height: Dim, width: Dim, degrees: tf.Tensor) -> tf.Tensor:
    """`[n, 2, 3]` float32 forward maps (output xy = M @ [x, y, 1], continuous pixels) of
    SafeRotate by `degrees` `[n]` (counter-clockwise as displayed, cv2.getRotationMatrix2D's
    sense) on `height` x `width` images: M = S (R (q - c) + fitted / 2), S = size / fitted."""
    f = _fit(height, width, degrees)
    h, w = tf.cast(height, tf.float64), tf.cast(width, tf.float64)
    sx, sy, cx, cy = w / f.width, h / f.height, w / 2.0, h / 2.0
    a, b = f.cos, f.sin
    rows = [sx * a, sx * b, sx * (f.width / 2.0 - a * cx - b * cy),
            -sy * b, sy * a, sy * (f.height / 2.0 + b * cx - a * cy)]
    return tf.cast(tf.reshape(tf.stack(rows, axis=1), [-1, 2, 3]), tf.float32)


def safe_rotate_inverse_matrices(height: Dim, width: Dim, degrees: tf.Tensor) -> tf.Tensor:
    """`[n, 2, 3]` float32 matrices of `safe_rotate_maps` for `remap_affine` (output pixel
    indices to input pixel indices): the maps' terms regrouped by x and y, in float64. The
    identity (degrees 0) is exact."""
    f = _fit(height, width, degrees)
    h, w = tf.cast(height, tf.float64), tf.cast(width, tf.float64)
    a, b = f.cos, f.sin
    su, sv = f.width / w, f.height / h  # u = (x + 0.5) su - fitted_w / 2, v likewise
    u0, v0 = 0.5 * su - f.width / 2.0, 0.5 * sv - f.height / 2.0
    rows = [a * su, -b * sv, (w / 2.0 - 0.5) + a * u0 - b * v0,
            b * su, a * sv, (h / 2.0 - 0.5) + b * u0 + a * v0]
    return tf.cast(tf.reshape(tf.stack(rows, axis=1), [-1, 2, 3]), tf.float32)


def safe_rotate_maps(height: Dim, width: Dim, degrees: tf.Tensor) -> tf.Tensor:
    """`[n, height, width, 2]` remap maps (input x, y in pixel indices per output pixel) of
    `safe_rotate_matrices`, inverted analytically at each output pixel's centre q': undo the
    scale and the fitted centre, u = q'x fitted_w / w - fitted_w / 2 and v likewise, then the
    rotation's transpose about the centre c: input = c + u (a, b) + v (-b, a) - 0.5. The u terms
    vary along a row and the v terms down a column, so the full maps are one broadcast add."""
    f = _fit(height, width, degrees)
    w32, h32 = tf.cast(width, tf.float32), tf.cast(height, tf.float32)
    per_sample = lambda t: tf.cast(t, tf.float32)[:, tf.newaxis, tf.newaxis]  # noqa: E731
    a, b = per_sample(f.cos), per_sample(f.sin)
    u = (tf.range(w32) + 0.5)[tf.newaxis, :, tf.newaxis] * per_sample(f.width / tf.cast(width, tf.float64)) \
        - per_sample(f.width / 2.0)  # [n, w, 1]
    v = (tf.range(h32) + 0.5)[tf.newaxis, :, tf.newaxis] * per_sample(f.height / tf.cast(height, tf.float64)) \
        - per_sample(f.height / 2.0)  # [n, h, 1]
    along_row = tf.stack([w32 / 2.0 - 0.5, h32 / 2.0 - 0.5])[tf.newaxis, tf.newaxis, :] + u * tf.concat([a, b], -1)
    down_column = v * tf.concat([-b, a], -1)  # [n, h, 2]
    return along_row[:, tf.newaxis, :, :] + down_column[:, :, tf.newaxis, :]


class SafeRotate(_Distortion):
    """Albumentations' SafeRotate: per sample, with probability `probability`, a rotation by an
    angle uniform in `limit` (degrees, counter-clockwise as displayed) about the centre, each
    axis then scaled so the whole rotated image fits the frame (the output keeps the input's
    size; the aspect ratio of the content changes unless the angle is a multiple of 180). Masks
    follow by the nearest remap with `fill_mask`; boxes become the enclosing box of their moved
    corners; keypoints move. Inference leaves everything alone. The image sits half a pixel
    from Albumentations' (which misaligns its image and its boxes by that much; see the module).

    Args:
      limit: v (meaning (-v, v)) or (min, max) degrees, within [-360, 360].
      interpolation: "bilinear" or "nearest".
      border_mode: how samples outside the image are read: "constant" (`fill`), "replicate",
        "reflect", "wrap" or "reflect_101" (Albumentations' default).
      fill: the image value outside it for "constant" (0..255).
      fill_mask: the mask value outside it for "constant".
      probability: probability that a sample is rotated.
      seed: seed of the transform's own random draws when it is called without one (a
        `gpu_augment` stage or a Keras layer passes a per-batch seed instead); None: random.

    Example:
      >>> tga.SafeRotate(limit=45, border_mode="constant", probability=0.5)
    """

    def __init__(self, limit: Range = 90.0, interpolation: str = "bilinear", border_mode: str = "reflect_101",
                 fill: float = 0.0, fill_mask: float = 0.0, probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, interpolation, border_mode, fill, fill_mask, seed)
        self.limit = symmetric_range("limit", limit, 360.0)

    def _degrees(self, n: Dim, seed: tf.Tensor, applied: Optional[tf.Tensor]) -> tf.Tensor:
        degrees = tf.random.stateless_uniform([n], seed, self.limit[0], self.limit[1])
        return degrees if applied is None else tf.where(applied, degrees, 0.0)  # 0: the identity, exactly

    def maps(self, n: Dim, height: Dim, width: Dim, seed: tf.Tensor,
             applied: Optional[tf.Tensor] = None) -> tf.Tensor:
        return safe_rotate_maps(height, width, self._degrees(n, seed, applied))

    def _distort(self, images: tf.Tensor, targets: Optional[tg.Targets], applied: tf.Tensor,
                 seed: tf.Tensor) -> TransformOutput:
        shape = tf.shape(images)
        h, w = shape[1], shape[2]
        degrees = self._degrees(shape[0], seed, None if self.probability >= 1.0 else applied)
        inverse = safe_rotate_inverse_matrices(h, w, degrees)
        out = remap_affine(images, inverse, None, self.interpolation, self.border_mode, self.fill)
        if targets is None or not targets.moves:
            return out, targets
        targets = remap_masks_affine(targets, inverse, self.border_mode, self.fill_mask)
        return out, targets.affine(safe_rotate_matrices(h, w, degrees), shape[1:3])

    def get_config(self) -> dict:
        return dict(limit=self.limit, **super().get_config())
