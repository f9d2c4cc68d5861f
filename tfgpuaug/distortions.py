"""Elastic, grid and optical distortion (Albumentations' ElasticTransform, GridDistortion and
OpticalDistortion): a per-sample map drawn in the graph, and one Remap kernel (cv2.remap's
semantics, CPU and GPU) that resamples images and masks through it. Boxes and keypoints
follow the map: a box becomes the extent of the output pixels that sample it (Albumentations'
rule), a keypoint moves to the output position whose map value it is.

Maps are `[B, H, W, 2]` float32 input coordinates (x, y) per output pixel in pixel indices
(pixel k's centre at k), as cv2.remap takes them.
"""
from __future__ import annotations

from typing import Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfgpuaug import _loader
from tfgpuaug import targets as tg
from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.color_curves import symmetric_range
from tfgpuaug.geometry import _is_encoded
from tfgpuaug.transforms import Transform, TransformInput, TransformOutput

INTERPOLATIONS = ("bilinear", "nearest")
BORDER_MODES = ("constant", "replicate", "reflect", "wrap", "reflect_101")
Range = Union[float, Tuple[float, float]]
Dim = Union[int, tf.Tensor]  # a size, static or from tf.shape


def _check_remap_args(interpolation: str, border_mode: str, fill: float) -> None:
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"interpolation must be one of {INTERPOLATIONS}, got {interpolation!r}")
    if border_mode not in BORDER_MODES:
        raise ValueError(f"border_mode must be one of {BORDER_MODES}, got {border_mode!r}")
    if not 0.0 <= fill <= 255.0:
        raise ValueError(f"fill must be in [0, 255], got {fill}")


def _checked_remap_input(name: str, images: Images, interpolation: str, border_mode: str, fill: float) -> tf.Tensor:
    """The arguments checked and `images` as a uint8 `[B, H, W, C]` tensor, or a ValueError."""
    _check_remap_args(interpolation, border_mode, fill)
    images = tf.convert_to_tensor(images)
    if images.dtype != tf.uint8 or images.shape.rank != 4:
        raise ValueError(f"{name} takes uint8 images [B, H, W, C], got {images.dtype.name} of rank "
                         f"{images.shape.rank}")
    return images


def remap(images: Images, maps: tf.Tensor, interpolation: str = "bilinear", border_mode: str = "constant",
          fill: float = 0.0) -> tf.Tensor:
    """Resamples uint8 `images` `[B, H, W, C]` through `maps` `[B, h, w, 2]` (the input x, y
    each output pixel samples, pixel indices) as cv2.remap does (OpenCV 4.11 and later:
    bilinear in float, rounded half to even; nearest takes the nearest pixel). Returns
    `[B, h, w, C]` uint8.

    Args:
      images: uint8 `[B, H, W, C]`.
      maps: float32 `[B, h, w, 2]`.
      interpolation: "bilinear" or "nearest".
      border_mode: how samples outside the image are read: "constant" (the fill),
        "replicate", "reflect", "wrap" or "reflect_101" (OpenCV's BORDER_* rules).
      fill: the value outside the image for "constant" (0..255); NaN or far-away map values
        (beyond 2^22 pixels) take it in every mode.
    """
    images = _checked_remap_input("remap", images, interpolation, border_mode, fill)
    maps = tf.convert_to_tensor(maps, tf.float32)
    if maps.shape.rank != 4 or maps.shape[-1] not in (None, 2):
        raise ValueError(f"maps must be [B, H, W, 2] (x, y per output pixel), got {maps.shape}")
    return _loader.ops().tf_gpu_aug_remap(images, maps, interpolation=interpolation, border_mode=border_mode,
                                          fill_value=float(fill))


def remap_affine(images: Images, matrices: tf.Tensor, size: Optional[Union[Sequence[int], tf.Tensor]] = None,
                 interpolation: str = "bilinear", border_mode: str = "constant", fill: float = 0.0) -> tf.Tensor:
    """`remap` through one affine map per image, the map computed in the kernel instead of read
    from a maps tensor (cv2.warpAffine with WARP_INVERSE_MAP, in `remap`'s arithmetic): output
    pixel (x, y) of image b samples the input at `matrices[b] @ [x, y, 1]` (pixel indices,
    pixel k's centre at k). Returns `[B, height, width, C]` uint8.

    Args:
      images: uint8 `[B, H, W, C]`.
      matrices: float32 `[B, 2, 3]`: output pixel indices to the input coordinates sampled.
      size: the output `[height, width]`; the input's by default.
      interpolation: "bilinear" or "nearest".
      border_mode: "constant" (the fill), "replicate", "reflect", "wrap" or "reflect_101".
      fill: the value outside the image for "constant" (0..255); NaN or far-away coordinates
        (beyond 2^22 pixels) take it in every mode.

    >>> tga.distortions.remap_affine(images, [[[1.0, 0.0, 5.0], [0.0, 1.0, 0.0]]] * 8, border_mode="wrap")
    """
    images = _checked_remap_input("remap_affine", images, interpolation, border_mode, fill)
    matrices = tf.convert_to_tensor(matrices, tf.float32)
    if matrices.shape.rank != 3 or matrices.shape[1:] not in ((2, 3), (None, None), (2, None), (None, 3)):
        raise ValueError(f"matrices must be [B, 2, 3] (input x, y of output pixel x, y), got {matrices.shape}")
    size = tf.shape(images)[1:3] if size is None else tf.convert_to_tensor(size, tf.int32)
    return _loader.ops().tf_gpu_aug_remap_affine(images, matrices, size, interpolation=interpolation,
                                                 border_mode=border_mode, fill_value=float(fill))


def remap_radial(images: Images, coefficients: tf.Tensor, interpolation: str = "bilinear",
                 border_mode: str = "constant", fill: float = 0.0) -> tf.Tensor:
    """`remap` through one radial lens map per image, computed in the kernel: the map of
    cv2.initUndistortRectifyMap for the camera with focal lengths (W, H), centre (W / 2, H / 2)
    and distortion (k1, k2, 0, 0), `coefficients` `[B, 2]` = (k1, k2), or `[B, C, 2]` for a map
    per channel. Returns the images' shape.

    Args:
      images: uint8 `[B, H, W, C]`.
      coefficients: float32 `[B, 2]`, (k1, k2) per image, or `[B, C, 2]`, (k1, k2) per channel
        of each image (a channel of (0, 0) keeps its bytes: the identity map).
      interpolation: "bilinear" or "nearest".
      border_mode: OpenCV's border rule, as `remap`.
      fill: the value outside the image for "constant" (0..255).
    """
    images = _checked_remap_input("remap_radial", images, interpolation, border_mode, fill)
    coefficients = tf.convert_to_tensor(coefficients, tf.float32)
    channels = images.shape[-1]
    if (coefficients.shape.rank not in (2, 3) or coefficients.shape[-1] not in (None, 2)
            or (coefficients.shape.rank == 3 and None not in (coefficients.shape[1], channels)
                and coefficients.shape[1] != channels)):
        raise ValueError(f"coefficients must be [B, 2] (k1, k2 per image) or [B, C, 2] (per channel) for images "
                         f"{images.shape}, got {coefficients.shape}")
    return _loader.ops().tf_gpu_aug_remap_radial(images, coefficients, interpolation=interpolation,
                                                 border_mode=border_mode, fill_value=float(fill))


def remap_masks_affine(targets: tg.Targets, matrices: tf.Tensor, border_mode: str, fill_mask: float) -> tg.Targets:
    """Masks through the affine maps of `matrices` by the nearest remap, `fill_mask` outside."""
    if targets.masks is None:
        return targets
    if targets.masks.dtype != tf.uint8:
        raise ValueError(f"distortions remap uint8 masks, got {targets.masks.dtype.name}")
    return targets.replace(masks=remap_affine(targets.masks, matrices, None, "nearest", border_mode, fill_mask))


def identity_maps(n: Dim, height: Dim, width: Dim) -> tf.Tensor:
    """`[n, height, width, 2]` maps that sample every pixel where it is."""
    x = tf.range(tf.cast(width, tf.float32))
    y = tf.range(tf.cast(height, tf.float32))
    xy = tf.stack(tf.meshgrid(x, y), axis=-1)
    return tf.tile(xy[tf.newaxis], [n, 1, 1, 1])


def gaussian_blur_matrix(size: Dim, sigma: float, ksize: int) -> tf.Tensor:
    """`[size, size]` K with K @ v the Gaussian blur of v (cv2.getGaussianKernel(ksize, sigma)
    weights, edges replicated, as cv2.GaussianBlur with BORDER_REPLICATE)."""
    r = ksize // 2
    t = tf.range(ksize, dtype=tf.float64) - r
    g = tf.exp(-t * t / (2.0 * sigma * sigma))
    g = g / tf.reduce_sum(g)
    i = tf.range(size)[:, tf.newaxis]
    j = tf.clip_by_value(i + tf.range(ksize)[tf.newaxis] - r, 0, size - 1)
    cells = tf.reshape(i * size + j, [-1])
    weights = tf.reshape(tf.broadcast_to(g[tf.newaxis], [size, ksize]), [-1])
    return tf.cast(tf.reshape(tf.math.unsorted_segment_sum(weights, cells, size * size), [size, size]),
                   tf.float32)


def elastic_kernel_size(sigma: float, approximate: bool) -> int:
    """cv2.GaussianBlur's size for a float image (ksize (0, 0)): round(8 sigma + 1), odd; 17
    with `approximate` (Albumentations)."""
    return 17 if approximate else int(round(sigma * 8 + 1)) | 1


def elastic_blur_kernel(sigma: float, ksize: int) -> np.ndarray:
    """cv2.getGaussianKernel(ksize, sigma) as float32: exp(-t^2 / (2 sigma^2)) for t in
    -(ksize // 2) .. ksize // 2, normalised in float64."""
    t = np.arange(ksize, dtype=np.float64) - ksize // 2
    g = np.exp(-t * t / (2.0 * sigma * sigma))
    return (g / g.sum()).astype(np.float32)


def elastic_seeds(n: Dim, seed: Seed = None) -> tf.Tensor:
    """`[n]` int32: each sample's seed of the counter-hash noise `elastic_maps` draws."""
    from tfgpuaug.geometry import _seed_tensor
    return tf.random.stateless_uniform([n], _seed_tensor(seed), minval=None, maxval=None, dtype=tf.int32)


def elastic_maps(n: Dim, height: Dim, width: Dim, alpha: float, sigma: float, same_dxdy: bool = False,
                 noise_distribution: str = "gaussian", approximate: bool = False,
                 seed: Seed = None, applied: Optional[tf.Tensor] = None) -> tf.Tensor:
    """`[n, height, width, 2]` maps of Albumentations' ElasticTransform, made by one kernel
    (`ElasticMaps`, CPU and GPU, the same bits on both): per sample, noise fields from the
    counter hash of the sample's seed (`elastic_seeds`; standard normal by Box-Muller pairs,
    scaled so its largest magnitude is 1, or uniform in (-1, 1)), Gaussian-blurred with `sigma`
    (edges replicated), times `alpha`, added to the pixel grid. Albumentations blurs its two
    fields stacked one above the other, so its vertical blur mixes dx's last rows with dy's
    first; each field is blurred on its own here. Samples where `applied` `[n]` is False get
    the grid itself (alpha 0)."""
    alphas = tf.fill([n], float(alpha)) if applied is None else float(alpha) * tf.cast(applied, tf.float32)
    kernel = tf.constant(elastic_blur_kernel(sigma, elastic_kernel_size(sigma, approximate)))
    size = tf.stack([tf.cast(height, tf.int32), tf.cast(width, tf.int32)])
    return _loader.ops().tf_gpu_aug_elastic_maps(elastic_seeds(n, seed), alphas, kernel, size,
                                                 same_dxdy=bool(same_dxdy), noise_distribution=noise_distribution)


def grid_steps(n: Dim, num_steps: int, distort_limit: Tuple[float, float], seed: Seed = None) -> tf.Tensor:
    """`[n, 2, num_steps + 1]` step sizes (x then y) of GridDistortion: 1 + U(distort_limit)."""
    from tfgpuaug.geometry import _seed_tensor
    return 1.0 + tf.random.stateless_uniform([n, 2, num_steps + 1], _seed_tensor(seed), minval=distort_limit[0],
                                             maxval=distort_limit[1], dtype=tf.float64)


def _grid_axis(size: Dim, num_steps: int, steps: tf.Tensor, normalized: bool) -> tf.Tensor:
    """`[n, size]` coordinates along one axis (Albumentations' generate_grid, after
    normalize_grid_distortion_steps when `normalized`): cell s of `size // num_steps` pixels
    spans np.linspace(prev, prev + cell * step_s) inclusive."""
    size = tf.cast(size, tf.int32)
    cell = tf.maximum(size // num_steps, 1)  # images narrower than num_steps: one-pixel cells
    cell_f = tf.cast(cell, tf.float64)
    if normalized:
        last = tf.minimum(size, (num_steps + 1) * cell) - num_steps * cell
        steps = tf.concat([steps[:, :-1], steps[:, -1:] * tf.cast(last, tf.float64) / cell_f], axis=1)
        target = tf.cast(size, tf.float64) / cell_f
        steps = steps * (target / tf.reduce_sum(steps, axis=1, keepdims=True))
    ends = tf.cumsum(cell_f * steps, axis=1)                   # [n, S + 1] value at each cell's end
    starts = ends - cell_f * steps
    i = tf.range(size)
    s = tf.minimum(i // tf.maximum(cell, 1), num_steps)
    length = tf.minimum(cell, size - s * cell)                 # pixels of cell s
    pos = tf.cast(i - s * cell, tf.float64)
    lo, hi = tf.gather(starts, s, axis=1), tf.gather(ends, s, axis=1)
    # np.linspace(lo, hi, length): lo + pos * ((hi - lo) / (length - 1)), the last value hi exactly
    step = (hi - lo) / tf.cast(tf.maximum(length - 1, 1), tf.float64)
    values = tf.where(pos == tf.cast(length - 1, tf.float64), hi, lo + pos * step)
    values = tf.where(length == 1, lo, values)
    inside = i < (num_steps + 1) * cell                        # pixels past the last cell stay 0
    return tf.cast(tf.where(inside, values, 0.0), tf.float32)


def grid_maps(height: Dim, width: Dim, num_steps: int, steps: tf.Tensor, normalized: bool = True,
              applied: Optional[tf.Tensor] = None) -> tf.Tensor:
    """`[n, height, width, 2]` maps of GridDistortion from its steps `[n, 2, num_steps + 1]`;
    the identity where `applied` `[n]` is False (Albumentations' undistorted grid is not the
    identity: each cell's linspace holds its end)."""
    xx = _grid_axis(width, num_steps, steps[:, 0], normalized)      # [n, width]
    yy = _grid_axis(height, num_steps, steps[:, 1], normalized)     # [n, height]
    if applied is not None:  # the map is separable, so the choice is made on the two axes
        xx = tf.where(applied[:, tf.newaxis], xx, tf.range(tf.cast(tf.shape(xx)[1], tf.float32))[tf.newaxis])
        yy = tf.where(applied[:, tf.newaxis], yy, tf.range(tf.cast(tf.shape(yy)[1], tf.float32))[tf.newaxis])
    # (x, y) at [b, i, j] = (xx[b, j], yy[b, i]): one broadcasting add writes the whole map
    x_part = tf.stack([xx, tf.zeros_like(xx)], axis=-1)[:, tf.newaxis]           # [n, 1, width, 2]
    y_part = tf.stack([tf.zeros_like(yy), yy], axis=-1)[:, :, tf.newaxis]         # [n, height, 1, 2]
    return x_part + y_part


def optical_maps(height: Dim, width: Dim, k: tf.Tensor, mode: str = "camera") -> tf.Tensor:
    """`[n, height, width, 2]` maps of OpticalDistortion for coefficients `k` `[n]`: "camera"
    is cv2.initUndistortRectifyMap (OpenCV 4.x) with focal lengths (width, height), the centre
    at (width / 2, height / 2) and distortion (k, k, 0, 0, 0): with x, y the normalised
    coordinates and r2 = x^2 + y^2, the offset from the centre scales by 1 + k (r2 + r2^2);
    "fisheye" scales it by 1 + k (r / r_max)^2 (Albumentations). Either way the map is
    grid + k * D with D one `[height, width, 2]` field for every sample, so a batch costs one
    multiply-add per value."""
    w, h = tf.cast(width, tf.float64), tf.cast(height, tf.float64)
    cx, cy = w / 2.0, h / 2.0
    u, v = tf.meshgrid(tf.range(w), tf.range(h))
    if mode == "camera":
        x, y = (u - cx) / w, (v - cy) / h
        r2 = x * x + y * y
        q = r2 + r2 * r2
    else:
        r_max2 = tf.maximum(cx, w - cx) ** 2 + tf.maximum(cy, h - cy) ** 2
        q = ((u - cx) ** 2 + (v - cy) ** 2) / r_max2
    grid = tf.cast(tf.stack([u, v], axis=-1), tf.float32)
    field = tf.cast(tf.stack([(u - cx) * q, (v - cy) * q], axis=-1), tf.float32)
    return grid + tf.cast(k, tf.float32)[:, tf.newaxis, tf.newaxis, tf.newaxis] * field


def remap_masks(targets: tg.Targets, maps: tf.Tensor, border_mode: str, fill_mask: float) -> tg.Targets:
    """Masks through `maps` by the nearest remap, `fill_mask` outside (uint8 masks)."""
    if targets.masks is None:
        return targets
    if targets.masks.dtype != tf.uint8:
        raise ValueError(f"distortions remap uint8 masks, got {targets.masks.dtype.name}")
    return targets.replace(masks=remap(targets.masks, maps, "nearest", border_mode, fill_mask))


def remap_targets(targets: Optional[tg.Targets], maps: tf.Tensor, applied: tf.Tensor, input_hw: tf.Tensor,
                  border_mode: str, fill_mask: float, reach: float = 1.0) -> Optional[tg.Targets]:
    """Masks (nearest, `fill_mask`), boxes and keypoints through `maps` where `applied` [B]."""
    if targets is None or not targets.moves:
        return targets
    ops = _loader.ops()
    targets = remap_masks(targets, maps, border_mode, fill_mask)
    if targets.boxes is not None:
        boxes = targets.boxes
        rows = boxes.value_rowids()
        moved, found = ops.tf_gpu_aug_remap_boxes(maps, tf.cast(boxes.flat_values, tf.float32), rows,
                                                  tf.cast(input_hw, tf.int32))
        on = tf.gather(applied, rows)
        moved = tf.where(on[:, tf.newaxis], moved, boxes.flat_values)
        area = (moved[:, 2] - moved[:, 0]) * (moved[:, 3] - moved[:, 1])
        keep = (found | ~on) & (area > targets.box_filter.min_area)
        targets = targets.replace(boxes=boxes.with_flat_values(moved))
        targets = targets.keep_boxes(boxes.with_flat_values(keep))
    if targets.keypoints is not None:
        points = targets.keypoints
        rows = points.value_rowids()
        moved, found = ops.tf_gpu_aug_remap_points(maps, tf.cast(points.flat_values, tf.float32), rows,
                                                   reach=float(reach))
        on = tf.gather(applied, rows)
        moved = tf.where(on[:, tf.newaxis], moved, points.flat_values)
        targets = targets.replace(keypoints=tf.ragged.boolean_mask(points.with_flat_values(moved),
                                                                   points.with_flat_values(found | ~on)))
    return targets


class _Distortion(Transform):
    """A transform that draws a map per sample and remaps images, masks, boxes and keypoints
    through it (identity where the sample is left alone). Subclasses draw the maps. Without
    annotations a GPU-placed stage runs them on the device."""

    def __init__(self, probability: float, interpolation: str, border_mode: str, fill: float, fill_mask: float,
                 seed: Optional[int]):
        super().__init__(seed)
        _check_remap_args(interpolation, border_mode, fill)
        if not 0.0 <= probability <= 1.0:
            raise ValueError(f"probability must be in [0, 1], got {probability}")
        if not 0.0 <= fill_mask <= 255.0:
            raise ValueError(f"fill_mask must be in [0, 255], got {fill_mask}")
        self.probability, self.interpolation, self.border_mode = float(probability), interpolation, border_mode
        self.fill, self.fill_mask = float(fill), float(fill_mask)

    def maps(self, n: Dim, height: Dim, width: Dim, seed: tf.Tensor,
             applied: Optional[tf.Tensor] = None) -> tf.Tensor:
        """`[n, height, width, 2]` maps drawn from `seed`; the identity for the samples where
        `applied` `[n]` (default: all) is False."""
        raise NotImplementedError

    def __call__(self, images, seed=None, training: bool = True):
        return self.apply(images, None, seed, training)[0]

    def apply(self, images: TransformInput, targets: Optional[tg.Targets], seed: Seed = None,
              training: bool = True) -> TransformOutput:
        if not training:
            return images, targets
        if _is_encoded(images) or (targets is not None and targets.masks is not None and _is_encoded(targets.masks)):
            raise ValueError(f"{type(self).__name__} takes decoded images: put it after a decoding transform "
                             "(Resize, RandomResizedCrop, ...)")
        if isinstance(images, tf.RaggedTensor) or (targets is not None and isinstance(targets.masks, tf.RaggedTensor)):
            raise ValueError(f"{type(self).__name__} takes images (and masks) of one shape: put it after a resize")
        images = tf.convert_to_tensor(images)
        if images.dtype != tf.uint8:
            raise ValueError(f"{type(self).__name__} takes uint8 images, got {images.dtype.name}: put it before "
                             "any float conversion or normalization")
        s_maps, s_apply = tf.unstack(tf.random.experimental.stateless_split(self._next_seed(seed), 2))
        applied = tf.random.stateless_uniform([tf.shape(images)[0]], s_apply) < self.probability
        return self._distort(images, targets, applied, s_maps)

    def _distort(self, images: tf.Tensor, targets: Optional[tg.Targets], applied: tf.Tensor,
                 seed: tf.Tensor) -> TransformOutput:
        """Images and annotations through the maps drawn from `seed`, where `applied` `[B]`."""
        shape = tf.shape(images)
        maps = self.maps(shape[0], shape[1], shape[2], seed, None if self.probability >= 1.0 else applied)
        out = remap(images, maps, self.interpolation, self.border_mode, self.fill)
        return out, self._move_targets(targets, maps, applied, shape[1:3], seed)

    def _move_targets(self, targets: Optional[tg.Targets], maps: tf.Tensor, applied: tf.Tensor,
                      input_hw: tf.Tensor, seed: tf.Tensor) -> Optional[tg.Targets]:
        """The annotations through the maps drawn from `seed` (the distortions: the maps themselves)."""
        return remap_targets(targets, maps, applied, input_hw, self.border_mode, self.fill_mask)

    def output_shape(self, input_shape: Sequence[Optional[int]]) -> tuple:
        return tuple(input_shape)

    def get_config(self) -> dict:
        return dict(probability=self.probability, interpolation=self.interpolation, border_mode=self.border_mode,
                    fill=self.fill, fill_mask=self.fill_mask, seed=self.seed)


class ElasticTransform(_Distortion):
    """Albumentations' ElasticTransform: per sample, random displacement fields (noise
    smoothed by a Gaussian of `sigma`, scaled by `alpha` pixels) move every pixel; masks
    follow with nearest sampling, a box becomes the extent of the output pixels that sample
    it, keypoints move to where the map takes them (dropped when they leave the image).
    Inference leaves everything alone. The fields are drawn and blurred by one kernel from a
    counter hash of each sample's seed, so the same seed gives the same distortion on the CPU
    and the GPU.

    Args:
      alpha: the displacement scale, pixels.
      sigma: the smoothing Gaussian's standard deviation, pixels (> 0).
      interpolation: "bilinear" or "nearest".
      approximate: blur with a 17-tap kernel instead of cv2's round(8 sigma + 1).
      same_dxdy: one field for both directions.
      noise_distribution: "gaussian" (scaled to a largest magnitude of 1) or "uniform".
      border_mode: "constant", "replicate", "reflect", "wrap" or "reflect_101".
      fill: the image value outside it for "constant" (0..255).
      fill_mask: the mask value outside it.
      probability: probability that a sample is distorted.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> tga.ElasticTransform(alpha=120.0, sigma=6.0, probability=1.0)
    """

    def __init__(self, alpha: float = 1.0, sigma: float = 50.0, interpolation: str = "bilinear",
                 approximate: bool = False, same_dxdy: bool = False, noise_distribution: str = "gaussian",
                 border_mode: str = "constant", fill: float = 0.0, fill_mask: float = 0.0,
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, interpolation, border_mode, fill, fill_mask, seed)
        if not (alpha >= 0.0 and sigma > 0.0 and sigma <= 1e4):
            raise ValueError(f"need alpha >= 0 and 0 < sigma <= 1e4, got alpha={alpha}, sigma={sigma}")
        if noise_distribution not in ("gaussian", "uniform"):
            raise ValueError(f"noise_distribution must be 'gaussian' or 'uniform', got {noise_distribution!r}")
        self.alpha, self.sigma, self.approximate = float(alpha), float(sigma), bool(approximate)
        self.same_dxdy, self.noise_distribution = bool(same_dxdy), noise_distribution

    def maps(self, n: Dim, height: Dim, width: Dim, seed: tf.Tensor,
             applied: Optional[tf.Tensor] = None) -> tf.Tensor:
        return elastic_maps(n, height, width, self.alpha, self.sigma, self.same_dxdy, self.noise_distribution,
                            self.approximate, seed, applied)

    def get_config(self) -> dict:
        return dict(alpha=self.alpha, sigma=self.sigma, approximate=self.approximate, same_dxdy=self.same_dxdy,
                    noise_distribution=self.noise_distribution, **super().get_config())


class GridDistortion(_Distortion):
    """Albumentations' GridDistortion: per sample, the image is cut into `num_steps` cells a
    side and each grid line moved (every cell stretched by 1 + U(distort_limit)), piecewise
    linearly; `normalized` rescales the steps so the grid spans the image exactly. Targets
    follow as in ElasticTransform. Inference leaves everything alone.

    Args:
      num_steps: cells a side (>= 1).
      distort_limit: v (meaning (-v, v)) or (min, max), inside [-1, 1].
      interpolation: "bilinear" or "nearest".
      normalized: keep the distorted grid inside the image.
      border_mode: "constant", "replicate", "reflect", "wrap" or "reflect_101".
      fill: the image value outside it for "constant" (0..255).
      fill_mask: the mask value outside it.
      probability: probability that a sample is distorted.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> tga.GridDistortion(num_steps=5, distort_limit=0.3, probability=1.0)
    """

    def __init__(self, num_steps: int = 5, distort_limit: Range = (-0.3, 0.3), interpolation: str = "bilinear",
                 normalized: bool = True, border_mode: str = "constant", fill: float = 0.0, fill_mask: float = 0.0,
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, interpolation, border_mode, fill, fill_mask, seed)
        if int(num_steps) < 1:
            raise ValueError(f"num_steps must be at least 1, got {num_steps}")
        self.num_steps, self.normalized = int(num_steps), bool(normalized)
        self.distort_limit = symmetric_range("distort_limit", distort_limit, 1.0)

    def maps(self, n: Dim, height: Dim, width: Dim, seed: tf.Tensor,
             applied: Optional[tf.Tensor] = None) -> tf.Tensor:
        steps = grid_steps(n, self.num_steps, self.distort_limit, seed)
        return grid_maps(height, width, self.num_steps, steps, self.normalized, applied)

    def get_config(self) -> dict:
        return dict(num_steps=self.num_steps, distort_limit=self.distort_limit, normalized=self.normalized,
                    **super().get_config())


class OpticalDistortion(_Distortion):
    """Albumentations' OpticalDistortion: per sample, a lens distortion with coefficient
    k ~ U(distort_limit): "camera" is OpenCV's undistortion map with distortion (k, k, 0, 0, 0),
    "fisheye" scales the offset from the centre by 1 + k (r / r_max)^2. Targets follow as in
    ElasticTransform. Inference leaves everything alone.

    Args:
      distort_limit: v (meaning (-v, v)) or (min, max), inside [-1, 1].
      interpolation: "bilinear" or "nearest".
      mode: "camera" or "fisheye".
      border_mode: "constant", "replicate", "reflect", "wrap" or "reflect_101".
      fill: the image value outside it for "constant" (0..255).
      fill_mask: the mask value outside it.
      probability: probability that a sample is distorted.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> tga.OpticalDistortion(distort_limit=0.3, mode="camera", probability=1.0)
    """

    def __init__(self, distort_limit: Range = (-0.05, 0.05), interpolation: str = "bilinear", mode: str = "camera",
                 border_mode: str = "constant", fill: float = 0.0, fill_mask: float = 0.0, probability: float = 0.5,
                 seed: Optional[int] = None):
        super().__init__(probability, interpolation, border_mode, fill, fill_mask, seed)
        if mode not in ("camera", "fisheye"):
            raise ValueError(f"mode must be 'camera' or 'fisheye', got {mode!r}")
        self.distort_limit, self.mode = symmetric_range("distort_limit", distort_limit, 1.0), mode

    def maps(self, n: Dim, height: Dim, width: Dim, seed: tf.Tensor,
             applied: Optional[tf.Tensor] = None) -> tf.Tensor:
        k = tf.random.stateless_uniform([n], seed, minval=self.distort_limit[0], maxval=self.distort_limit[1])
        if applied is not None:
            k = k * tf.cast(applied, k.dtype)  # k = 0: the grid itself, exactly
        return optical_maps(height, width, k, self.mode)

    def get_config(self) -> dict:
        return dict(distort_limit=self.distort_limit, mode=self.mode, **super().get_config())
