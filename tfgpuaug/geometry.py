"""Fused geometry and normalization ops with tf.image-style signatures.

Images are uint8 (or float) `[B, H, W, C]` batches, or ragged `[B, None, None, C]` batches
of differently sized images; encoded bytes (`tf.string [B]`) where noted, decoded inside
the op so that only the pixels the output needs are decoded.
"""
from __future__ import annotations

from typing import Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug import _checks, _loader, _skip
from tfgpuaug._types import Flags, Images, Range, Seed, Size, TensorLike
from tfgpuaug.image import DEFAULT_MAX_PIXELS, image_shape

METHODS = ("nearest", "bilinear", "bicubic", "area")
IMAGENET_MEAN = (123.675, 116.28, 103.53)  # ImageNet RGB mean on the 0..255 scale
IMAGENET_STD = (58.395, 57.12, 57.375)
# The crops' JPEG DCT scaling cap: a box at least 4x (2x) the output is decoded at 1/4 (1/2)
# scale. Chosen by measurement (benchmarks/dct_policy.py, docs/architecture.md): the fastest
# cap that moves outputs at most 1 level on average and 4 levels on any image from a full
# decode followed by the same resize, on ImageNet photos and on 12-megapixel photos.
DEFAULT_MAX_DCT_DENOM = 4



def _size_tensor(size: Size) -> tf.Tensor:
    if isinstance(size, int):
        size = (size, size)
    if not isinstance(size, tf.Tensor):
        size = tuple(size)
        if len(size) != 2 or any(int(s) <= 0 for s in size):
            raise ValueError(f"size must be a positive int or (height, width), got {size!r}")
    t = tf.cast(tf.convert_to_tensor(size), tf.int32)
    _checks.static_rank("size", t, (1,))
    return t


def _flat_images(images) -> Tuple[tf.Tensor, tf.Tensor, int]:
    """(values [N, C], shapes [B, 2], batch rank) of a dense or ragged image batch."""
    if isinstance(images, tf.RaggedTensor):
        if images.shape.rank != 4 or images.ragged_rank != 2:
            raise ValueError(f"ragged images must be [B, None, None, C], got {images.shape}")
        heights = images.row_lengths()
        first_rows = images.row_splits[:-1]
        widths = tf.gather(images.values.row_lengths(), tf.minimum(
            first_rows, tf.maximum(tf.shape(images.values.row_lengths(), tf.int64)[0] - 1, 0)))
        shapes = tf.cast(tf.stack([heights, tf.where(heights > 0, widths, 0)], axis=1), tf.int32)
        return images.flat_values, shapes, 4
    images = tf.convert_to_tensor(images)
    rank = _checks.static_rank("images", images, (3, 4))
    if rank == 3:
        images = images[tf.newaxis]
    dims = tf.shape(images)
    channels = images.shape[-1]
    if channels is None:
        raise ValueError("images need a known channel dimension")
    values = tf.reshape(images, [-1, channels])
    shapes = tf.tile(tf.reshape(dims[1:3], [1, 2]), [dims[0], 1])
    return values, shapes, rank


def _check_dtype(images, allowed=(tf.uint8, tf.float32)):
    dtype = images.dtype
    if dtype not in allowed:
        raise TypeError(f"images must be {' or '.join(d.name for d in allowed)}, got {dtype.name}")


def _normalize_attrs(mean, std, channels) -> dict:
    """mean/std attrs for the fused epilogue; both None for uint8 output."""
    if (mean is None) != (std is None):
        raise ValueError("give both mean and std, or neither")
    if mean is None:
        return dict(mean=[], std=[])
    mean, std = [float(m) for m in mean], [float(s) for s in std]
    if len(mean) != len(std) or (channels is not None and len(mean) != channels):
        raise ValueError(f"mean and std need one value per channel ({channels}), got {len(mean)} and {len(std)}")
    if any(v == 0 for v in std):
        raise ValueError("std must not contain 0")
    return dict(mean=mean, std=std)


def _crop_resize(images, boxes, size, method, antialias, mirror=None, mean=None, std=None,
                 seed=None):
    _checks.one_of("method", method, METHODS)
    _check_dtype(images)
    values, shapes, rank = _flat_images(images)
    norm = _normalize_attrs(mean, std, values.shape[-1])
    out_type = tf.float32 if norm["mean"] else values.dtype
    n = tf.shape(shapes)[0]
    out = _loader.ops().tf_gpu_aug_crop_resize(
        values, shapes, tf.cast(boxes, tf.float32), _size_tensor(size),
        _flags(mirror, n, "mirror", seed), out_type=out_type, method=method,
        antialias=bool(antialias), **norm)
    return out if rank == 4 else out[0]


def _paste_resize(images, sources, boxes, regions, size, method: str, antialias: bool) -> tf.Tensor:
    """Per sample b, tile k: the crop boxes[b, k] (y, x, h, w) of images[sources[b, k]] resampled
    into regions[b, k] (y, x, h, w) of a `size` uint8 canvas, later tiles on top, 0 elsewhere
    (`TfGpuAug>PasteResize`, CPU only: Mosaic runs in the host part)."""
    _check_dtype(images, (tf.uint8,))
    values, shapes, _ = _flat_images(images)
    return _loader.ops().tf_gpu_aug_paste_resize(
        values, shapes, tf.cast(sources, tf.int32), tf.cast(boxes, tf.float32), tf.cast(regions, tf.int32),
        _size_tensor(size), method=method, antialias=bool(antialias))


def _image_dims(images) -> tf.Tensor:
    """[B, 2] float (height, width) of a dense or ragged batch."""
    _, shapes, _ = _flat_images(images)
    return tf.cast(shapes, tf.float32)


def resize(images: Images, size: Size, method: str = "bilinear", antialias: bool = False,
           name: Optional[str] = None) -> tf.Tensor:
    """Resizes a dense `[B, H, W, C]` / `[H, W, C]` or ragged batch to `size`.

    Half-pixel centres as `tf.image.resize`. Unlike `tf.image.resize`, uint8 input gives
    uint8 output (rounded), float input float32. `antialias` widens the kernel when
    downscaling (tf.image's `antialias=True`, PIL's reducing filters).

    Args:
      images: uint8 or float, `[B, H, W, C]`, `[H, W, C]` or ragged.
      size: output (height, width), or one int for a square.
      method: "bilinear", "bicubic", "area" or "nearest".
      antialias: widen the kernel when downscaling (False by default, as `tf.image.resize`).
    """
    with tf.name_scope(name or "resize"):
        dims = _image_dims(images)
        boxes = tf.concat([tf.zeros_like(dims), dims], axis=1)
        return _crop_resize(images, boxes, size, method, antialias)


def crop_and_resize(images: Images, boxes: TensorLike, size: Size, method: str = "bilinear",
                    antialias: bool = True, mirror: Flags = None,
                    mean: Optional[Sequence[float]] = None, std: Optional[Sequence[float]] = None,
                    seed: Seed = None,
                    name: Optional[str] = None) -> tf.Tensor:
    """Resizes the box `[y, x, height, width]` (input pixels, fractions allowed) of each image.

    `mirror` (None, bool, probability with `seed`, or `[B]` flags) flips outputs; with
    `mean`/`std` the output is float32 `(x - mean) / std`, fused into the same pass.

    Args:
      images: uint8 or float `[B, H, W, C]`, dense or ragged.
      boxes: float32 `[B, 4]` (y, x, height, width) in input pixels.
      size: output (height, width), or one int for a square.
      method: "bilinear", "bicubic", "area" or "nearest".
      antialias: widen the kernel when downscaling (`tf.image.resize`'s antialias).
      mirror: None, a bool, a flip probability (drawn with `seed`), or `[B]` bool flags.
      mean: None (uint8 output), or one value per channel on the 0..255 scale: float32
        `(x - mean) / std` output from the same pass.
      std: one value per channel with `mean`.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    with tf.name_scope(name or "crop_and_resize"):
        boxes = tf.convert_to_tensor(boxes, tf.float32)
        _checks.static_rank("boxes", boxes, (2,))
        return _crop_resize(images, boxes, size, method, antialias, mirror, mean, std, seed)


def _seed_tensor(seed) -> tf.Tensor:
    if seed is None:
        raise ValueError("a seed is required: an int or a shape-[2] int tensor (stateless RNG)")
    if isinstance(seed, int):
        return tf.constant([seed, 0], tf.int64)
    seed = tf.cast(tf.convert_to_tensor(seed), tf.int64)
    if seed.shape.rank == 0:
        seed = tf.stack([seed, tf.zeros_like(seed)])
    return seed


def _crop_box_draws(n, scale, ratio, seed, attempts: int):
    """The uniforms an Inception-style box is drawn from: area fractions in `scale` and aspect
    ratios (log-uniform in `ratio`) `[n, attempts]`, and positions `[n, 2]` in [0, 1)."""
    if not (0 < scale[0] <= scale[1]) or not (0 < ratio[0] <= ratio[1]):
        raise ValueError(f"need 0 < scale[0] <= scale[1] and 0 < ratio[0] <= ratio[1], got {scale}, {ratio}")
    s1, s2, s3 = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), 3))
    areas = tf.random.stateless_uniform([n, attempts], s1, scale[0], scale[1])
    aspects = tf.exp(tf.random.stateless_uniform([n, attempts], s2, tf.math.log(float(ratio[0])),
                                                 tf.math.log(float(ratio[1]))))
    return areas, aspects, tf.random.stateless_uniform([n, 2], s3)


def random_crop_boxes(image_dims: tf.Tensor, scale: Range = (0.08, 1.0), ratio: Range = (3 / 4, 4 / 3),
                      seed: Seed = None, attempts: int = 10) -> tf.Tensor:
    """Inception-style random boxes `[B, 4]` (y, x, h, w) for images of `image_dims` [B, 2].

    Per image: up to `attempts` draws of area fraction in `scale` and log-uniform aspect
    ratio in `ratio`; the first that fits is placed uniformly at random; if none fits, the
    largest centred crop whose aspect ratio lies in `ratio` (torchvision's fallback). The
    fused decode draws the same boxes from the same uniforms in its kernel
    (cc/kernels/decode/crop_boxes.h); this graph version is the reference the tests compare with.

    Args:
      image_dims: int32 `[B, 2]` (height, width) of each image.
      scale: (min, max) fraction of the image's area.
      ratio: (min, max) aspect ratio (width / height).
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      attempts: draws per image before the fallback crop.
    """
    dims = tf.cast(image_dims, tf.float32)
    h, w = dims[:, 0:1], dims[:, 1:2]
    n = tf.shape(dims)[0]
    area_u, r, u = _crop_box_draws(n, scale, ratio, seed, attempts)
    area = h * w * area_u
    cw = tf.round(tf.sqrt(area * r))
    ch = tf.round(tf.sqrt(area / r))
    fits = (cw > 0) & (cw <= w) & (ch > 0) & (ch <= h)
    first = tf.argmax(tf.cast(fits, tf.int32), axis=1, output_type=tf.int32)
    any_fit = tf.reduce_any(fits, axis=1)
    pick = lambda t: tf.gather(t, first, axis=1, batch_dims=1)
    ch, cw = pick(ch), pick(cw)
    h, w = h[:, 0], w[:, 0]
    y = tf.floor(u[:, 0] * (h - ch + 1))
    x = tf.floor(u[:, 1] * (w - cw + 1))
    # Fallback: whole image, narrowed to the nearest allowed aspect ratio, centred.
    aspect = w / h
    fw = tf.where(aspect < ratio[0], w, tf.where(aspect > ratio[1], tf.round(h * ratio[1]), w))
    fh = tf.where(aspect < ratio[0], tf.round(w / ratio[0]), h)
    fy, fx = tf.floor((h - fh) / 2), tf.floor((w - fw) / 2)
    return tf.stack([tf.where(any_fit, y, fy), tf.where(any_fit, x, fx),
                     tf.where(any_fit, ch, fh), tf.where(any_fit, cw, fw)], axis=1)


def _is_encoded(x) -> bool:
    return not isinstance(x, tf.RaggedTensor) and tf.convert_to_tensor(x).dtype == tf.string


def _decode_crop_resize(contents, boxes, size, method, antialias, channels, dct_method,
                        max_dct_denom, apply_exif_orientation, max_pixels, mirror=None,
                        mean=None, std=None, seed=None, ratio=None):
    """The fused decode of `boxes` [B, 4], or, with `ratio`, of the boxes drawn in the kernel
    from `boxes` = (areas, aspects, positions) (see _crop_box_draws)."""
    _checks.one_of("method", method, METHODS)
    _checks.one_of("channels", channels, (1, 3, 4))
    _checks.one_of("max_dct_denom", max_dct_denom, (1, 2, 4, 8))
    contents = _checks.string_tensor("contents", contents)
    _checks.static_rank("contents", contents, (1,))
    norm = _normalize_attrs(mean, std, channels)
    attrs = dict(channels=channels, dct_method=dct_method,
                 apply_exif_orientation=bool(apply_exif_orientation), max_pixels=int(max_pixels),
                 max_dct_denom=max_dct_denom, method=method, antialias=bool(antialias),
                 out_type=tf.float32 if norm["mean"] else tf.uint8, **norm)
    flags = _flags(mirror, tf.shape(contents)[0], "mirror", seed)
    attrs["on_error"] = _skip.on_error_attr()
    if ratio is not None:
        areas, aspects, positions = boxes
        images, errors = _loader.ops().tf_gpu_aug_decode_random_crop_resize(
            contents, areas, aspects, positions, _size_tensor(size), flags,
            ratio=[float(r) for r in ratio], **attrs)
    else:
        images, errors = _loader.ops().tf_gpu_aug_decode_crop_resize(
            contents, tf.cast(boxes, tf.float32), _size_tensor(size), flags, **attrs)
    _skip.record(errors)
    return images


def _mirror_seed(seed):
    """A seed for the flip draw, independent of the one used for the boxes."""
    return None if seed is None else tf.random.experimental.stateless_fold_in(_seed_tensor(seed), 1)


def random_resized_crop(contents_or_images: Union[TensorLike, Images], size: Size,
                        scale: Range = (0.08, 1.0), ratio: Range = (3 / 4, 4 / 3),
                        seed: Seed = None, method: str = "bilinear", antialias: bool = True,
                        mirror: Flags = None, mean: Optional[Sequence[float]] = None,
                        std: Optional[Sequence[float]] = None, channels: int = 3,
                        dct_method: str = "INTEGER_ACCURATE", max_dct_denom: int = DEFAULT_MAX_DCT_DENOM,
                        apply_exif_orientation: bool = False,
                        max_pixels: int = DEFAULT_MAX_PIXELS, name: Optional[str] = None) -> tf.Tensor:
    """Inception-style random-resized-crop of a batch to a dense `[B, h, w, C]`.

    `contents_or_images`: encoded `tf.string [B]` (decoded inside the op, only within each
    box; JPEGs at up to 1/`max_dct_denom` DCT scale while the box stays at least the output
    size) or decoded images (dense or ragged). Boxes come from stateless RNG on `seed`.
    `mirror` (None, bool, flip probability, or `[B]` flags) and `mean`/`std` (float32
    output `(x - mean) / std`) are fused into the same pass; otherwise the output is uint8.

    Args:
      contents_or_images: encoded `tf.string [B]` (decoded inside the op, only where the output needs
        pixels) or decoded uint8 images `[B, H, W, C]`, dense or ragged.
      size: output (height, width), or one int for a square.
      scale: (min, max) fraction of the image's area the crop covers.
      ratio: (min, max) aspect ratio (width / height), drawn log-uniformly.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      method: "bilinear", "bicubic", "area" or "nearest".
      antialias: widen the kernel when downscaling (`tf.image.resize`'s antialias).
      mirror: None, a bool, a flip probability (drawn with `seed`), or `[B]` bool flags.
      mean: None (uint8 output), or one value per channel on the 0..255 scale: float32
        `(x - mean) / std` output from the same pass.
      std: one value per channel with `mean`.
      channels: 1, 3 or 4 output channels for encoded input.
      dct_method: libjpeg's IDCT: "INTEGER_ACCURATE" (as PIL), "INTEGER_FAST" (`tf.io.decode_jpeg`'s
        default) or "FLOAT".
      max_dct_denom: JPEGs are decoded at up to 1/`max_dct_denom` DCT scale (1, 2, 4 or 8) while
        the crop stays at least the output size.
      apply_exif_orientation: rotate/flip JPEGs by their EXIF orientation tag.
      max_pixels: images with more pixels are refused (a decompression bomb guard).
    """
    with tf.name_scope(name or "random_resized_crop"):
        fuse = dict(mirror=mirror, mean=mean, std=std, seed=_mirror_seed(seed))
        if _is_encoded(contents_or_images):  # the kernel draws each box from its header
            draws = _crop_box_draws(tf.shape(contents_or_images)[0], scale, ratio, seed, 10)
            return _decode_crop_resize(contents_or_images, draws, size, method, antialias,
                                       channels, dct_method, max_dct_denom,
                                       apply_exif_orientation, max_pixels, ratio=ratio, **fuse)
        boxes = random_crop_boxes(_image_dims(contents_or_images), scale, ratio, seed)
        return _crop_resize(contents_or_images, boxes, size, method, antialias, **fuse)


def center_crop_boxes(image_dims: tf.Tensor, resize_shorter: int, crop: Tuple[int, int]) -> tf.Tensor:
    """Boxes equivalent to resizing the shorter side to `resize_shorter` (rounded sizes, as
    tf.image pipelines) and then taking the centred `crop`.

    Args:
      image_dims: int32 `[B, 2]` (height, width) of each image.
      resize_shorter: the shorter side's length after the resize.
      crop: (height, width) of the centred crop.
    """
    dims = tf.cast(image_dims, tf.float32)
    h, w = dims[:, 0], dims[:, 1]
    s = resize_shorter / tf.minimum(h, w)
    rh, rw = tf.round(h * s), tf.round(w * s)
    ch, cw = float(crop[0]), float(crop[1])
    oy, ox = tf.floor((rh - ch) / 2), tf.floor((rw - cw) / 2)
    sy, sx = h / rh, w / rw
    return tf.stack([oy * sy, ox * sx, ch * sy, cw * sx], axis=1)


def resize_center_crop(contents_or_images: Union[TensorLike, Images], resize_shorter: int = 256,
                       crop: Size = 224, method: str = "bilinear", antialias: bool = True,
                       mean: Optional[Sequence[float]] = None, std: Optional[Sequence[float]] = None,
                       channels: int = 3, dct_method: str = "INTEGER_ACCURATE",
                       max_dct_denom: int = DEFAULT_MAX_DCT_DENOM, apply_exif_orientation: bool = False,
                       max_pixels: int = DEFAULT_MAX_PIXELS, name: Optional[str] = None) -> tf.Tensor:
    """The evaluation transform, fused: resize the shorter side to `resize_shorter`, take the
    centred `crop`; only the pixels the crop needs are decoded and resampled. With
    `mean`/`std` the output is float32 `(x - mean) / std` from the same pass.

    Args:
      contents_or_images: encoded `tf.string [B]` (decoded inside the op, only where the output needs
        pixels) or decoded uint8 images `[B, H, W, C]`, dense or ragged.
      resize_shorter: the shorter side's length after the resize.
      crop: (height, width) of the centred crop, or one int.
      method: "bilinear", "bicubic", "area" or "nearest".
      antialias: widen the kernel when downscaling (`tf.image.resize`'s antialias).
      mean: None (uint8 output), or one value per channel on the 0..255 scale: float32
        `(x - mean) / std` output from the same pass.
      std: one value per channel with `mean`.
      channels: 1, 3 or 4 output channels for encoded input.
      dct_method: libjpeg's IDCT: "INTEGER_ACCURATE" (as PIL), "INTEGER_FAST" (`tf.io.decode_jpeg`'s
        default) or "FLOAT".
      max_dct_denom: JPEGs are decoded at up to 1/`max_dct_denom` DCT scale (1, 2, 4 or 8) while
        the crop stays at least the output size.
      apply_exif_orientation: rotate/flip JPEGs by their EXIF orientation tag.
      max_pixels: images with more pixels are refused (a decompression bomb guard).
    """
    crop_hw = (crop, crop) if isinstance(crop, int) else tuple(crop)
    if resize_shorter <= 0 or min(crop_hw) <= 0 or max(crop_hw) > resize_shorter:
        raise ValueError(f"need 0 < crop <= resize_shorter, got crop={crop}, resize_shorter={resize_shorter}")
    with tf.name_scope(name or "resize_center_crop"):
        if _is_encoded(contents_or_images):
            dims = image_shape(contents_or_images, apply_exif_orientation)[:, :2]
            boxes = center_crop_boxes(dims, resize_shorter, crop_hw)
            return _decode_crop_resize(contents_or_images, boxes, crop_hw, method, antialias,
                                       channels, dct_method, max_dct_denom,
                                       apply_exif_orientation, max_pixels, mean=mean, std=std)
        boxes = center_crop_boxes(_image_dims(contents_or_images), resize_shorter, crop_hw)
        return _crop_resize(contents_or_images, boxes, crop_hw, method, antialias, mean=mean, std=std)


def _flags(value, n, name: str, seed=None) -> tf.Tensor:
    """Per-sample bool flags from None, a bool, a probability (needs seed) or a [B] tensor."""
    if value is None or value is False:
        return tf.zeros([n], tf.bool)
    if value is True:
        return tf.ones([n], tf.bool)
    if isinstance(value, float):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} probability must be in [0, 1], got {value}")
        return tf.random.stateless_uniform([n], _seed_tensor(seed)) < value
    t = tf.convert_to_tensor(value)
    _checks.static_rank(name, t, (1,))
    return tf.cast(t, tf.bool)


def crop_mirror_normalize(images: Images, mean: Sequence[float], std: Sequence[float],
                          crop: Optional[Size] = None, mirror: Flags = None, layout: str = "NHWC",
                          dtype: tf.DType = tf.float32, pad_channels: bool = False,
                          crop_offsets: Optional[TensorLike] = None, seed: Seed = None,
                          name: Optional[str] = None) -> tf.Tensor:
    """Crop + per-sample horizontal flip + `(x - mean) / std` + layout + dtype, one pass.

    Args:
      images: uint8 `[B, H, W, C]`.
      mean, std: one value per channel, on the 0..255 scale (e.g. IMAGENET_MEAN/STD).
      crop: None or (height, width), centred unless `crop_offsets` `[B, 2]` (y, x) is given.
      mirror: None, a bool, a flip probability (with `seed`), or a `[B]` bool tensor.
      layout: "NHWC" or "NCHW".
      dtype: tf.float32, tf.float16 or tf.bfloat16.
      pad_channels: pad to 4 channels with zeros.
      crop_offsets: int32 `[B, 2]` (y, x) of each crop, or None for centred crops.
      seed: the stateless seed of a `mirror` probability (None: random).
    """
    _checks.one_of("layout", layout, ("NHWC", "NCHW"))
    _checks.one_of("dtype", tf.as_dtype(dtype), (tf.float32, tf.float16, tf.bfloat16))
    mean, std = [float(m) for m in mean], [float(s) for s in std]
    if len(mean) != len(std) or not 1 <= len(mean) <= 4:
        raise ValueError(f"mean and std need the same number (1 to 4) of values, got {len(mean)} and {len(std)}")
    if any(s == 0 for s in std):
        raise ValueError("std must not contain 0")
    with tf.name_scope(name or "crop_mirror_normalize"):
        images = tf.convert_to_tensor(images)
        _check_dtype(images, (tf.uint8,))
        _checks.static_rank("images", images, (4,))
        if images.shape[-1] is not None and images.shape[-1] != len(mean):
            raise ValueError(f"mean/std have {len(mean)} values for {images.shape[-1]} channels")
        dims = tf.shape(images)
        n = dims[0]
        crop_hw = (0, 0)
        if crop is not None:
            crop_hw = (crop, crop) if isinstance(crop, int) else tuple(int(c) for c in crop)
            if min(crop_hw) <= 0:
                raise ValueError(f"crop must be positive, got {crop}")
        if crop_offsets is None:
            if crop is None:
                crop_offsets = tf.zeros([n, 2], tf.int32)
            else:
                centre = tf.stack([(dims[1] - crop_hw[0]) // 2, (dims[2] - crop_hw[1]) // 2])
                crop_offsets = tf.tile(centre[tf.newaxis], [n, 1])
        flags = _flags(mirror, n, "mirror", seed)
        return _loader.ops().tf_gpu_aug_crop_mirror_normalize(
            images, tf.cast(crop_offsets, tf.int32), flags, mean=mean, std=std,
            crop_height=crop_hw[0], crop_width=crop_hw[1], layout=layout, dtype=tf.as_dtype(dtype),
            pad_channels=bool(pad_channels))


def flip(images: Images, horizontal: Flags = None, vertical: Flags = None, name: Optional[str] = None) -> tf.Tensor:
    """Flips each image of `[B, H, W, C]` by its own flags (None, a bool, or `[B]` bools).

    Args:
      images: `[B, H, W, C]` (uint8, float32, float16, bfloat16 or int32).
      horizontal: None, a bool, or `[B]` bools: flip left-right.
      vertical: None, a bool, or `[B]` bools: flip upside down.
    """
    with tf.name_scope(name or "flip"):
        images = tf.convert_to_tensor(images)
        _checks.static_rank("images", images, (4,))
        _check_dtype(images, (tf.uint8, tf.float32, tf.float16, tf.bfloat16, tf.int32))
        n = tf.shape(images)[0]
        return _loader.ops().tf_gpu_aug_flip(images, _flags(horizontal, n, "horizontal"),
                                             _flags(vertical, n, "vertical"))


def warp_affine(images: Images, matrices: TensorLike, size: Optional[Size] = None, interpolation: str = "bilinear",
                fill_value: float = 128.0, name: Optional[str] = None) -> tf.Tensor:
    """Per-sample affine warp of uint8 `[B, H, W, C]`, as PIL's `Image.transform(AFFINE)`.

    `matrices` `[B, 2, 3]` (or `[2, 3]` for all) map output pixel centres to input
    coordinates: `x_in = a*x + b*y + c`, `y_in = d*x + e*y + f`. Outside pixels get `fill_value`.

    Args:
      images: uint8 `[B, H, W, C]`.
      matrices: float32 `[B, 2, 3]` or `[2, 3]`, output pixel centres to input coordinates.
      size: output (height, width); None keeps the input's.
      interpolation: "bilinear" or "nearest".
      fill_value: the value of pixels that map outside the image.
    """
    _checks.one_of("interpolation", interpolation, ("nearest", "bilinear"))
    with tf.name_scope(name or "warp_affine"):
        images = tf.convert_to_tensor(images)
        _checks.static_rank("images", images, (4,))
        _check_dtype(images, (tf.uint8,))
        m = tf.convert_to_tensor(matrices, tf.float32)
        rank = _checks.static_rank("matrices", m, (2, 3))
        if tuple(m.shape[-2:]) != (2, 3):
            raise ValueError(f"matrices must be [B, 2, 3], got {m.shape}")
        if rank == 2:
            m = tf.tile(m[tf.newaxis], [tf.shape(images)[0], 1, 1])
        size_t = tf.shape(images)[1:3] if size is None else _size_tensor(size)
        return _loader.ops().tf_gpu_aug_warp_affine(images, m, size_t, interpolation=interpolation,
                                                    fill_value=float(fill_value))


def resize_and_pad(contents_or_images: Union[TensorLike, Images], size: Size, scale: Range = (1.0, 1.0),
                   jitter: bool = False, center: bool = False, seed: Seed = None,
                   method: str = "bilinear", antialias: bool = False, mirror: Flags = None,
                   mean: Optional[Sequence[float]] = None, std: Optional[Sequence[float]] = None,
                   pad_value: float = 0.0, channels: int = 3, dct_method: str = "INTEGER_ACCURATE",
                   max_dct_denom: int = 1, apply_exif_orientation: bool = False,
                   max_pixels: int = DEFAULT_MAX_PIXELS, name: Optional[str] = None
                   ) -> Tuple[tf.Tensor, tf.Tensor]:
    """Places each image, resized with its aspect kept, in a `size` output: fit into `size`
    times a scale drawn from `scale`; with `jitter` a random `size` crop where it is larger
    (TF Model Garden's `resize_and_crop_image` with `aug_scale_min/max`); with `center` centred
    (letterbox); the rest is `pad_value` (input pixel units, normalised with the image when `mean`
    is given). `mirror` flips the image
    before it is placed. Encoded input is decoded inside the op, only where the output shows.

    Returns `(images [B, H, W, C], image_info [B, 6])`, the info being (scale_y, scale_x,
    offset_y, offset_x, height, width): an input pixel coordinate (after the flip) maps to the
    output coordinate `input * scale - offset`.

    Args:
      contents_or_images: encoded `tf.string [B]` (decoded inside the op, only where the output needs
        pixels) or decoded uint8 images `[B, H, W, C]`, dense or ragged.
      size: output (height, width), or one int for a square.
      scale: (min, max) of the scale drawn per image, relative to fitting into `size`.
      jitter: take a random `size` crop where the scaled image is larger.
      center: centre the image (letterbox); else top-left.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      method: "bilinear", "bicubic", "area" or "nearest".
      antialias: widen the kernel when downscaling (`tf.image.resize`'s antialias).
      mirror: None, a bool, a flip probability (drawn with `seed`), or `[B]` bool flags.
      mean: None (uint8 output), or one value per channel on the 0..255 scale: float32
        `(x - mean) / std` output from the same pass.
      std: one value per channel with `mean`.
      pad_value: the padding's value in input pixel units (0..255), normalised with the image.
      channels: 1, 3 or 4 output channels for encoded input.
      dct_method: libjpeg's IDCT: "INTEGER_ACCURATE" (as PIL), "INTEGER_FAST" (`tf.io.decode_jpeg`'s
        default) or "FLOAT".
      max_dct_denom: JPEGs decoded at up to 1/`max_dct_denom` DCT scale (1: full size).
      apply_exif_orientation: rotate/flip JPEGs by their EXIF orientation tag.
      max_pixels: images with more pixels are refused (a decompression bomb guard).
    """
    if jitter and center:
        raise ValueError("jitter and center exclude each other")
    if not (0 < scale[0] <= scale[1]):
        raise ValueError(f"scale must be (low, high) with 0 < low <= high, got {scale}")
    _checks.one_of("method", method, METHODS)
    with tf.name_scope(name or "resize_and_pad"):
        encoded = _is_encoded(contents_or_images)
        n = tf.shape(contents_or_images)[0] if encoded else tf.shape(_image_dims(contents_or_images))[0]
        draws = tf.random.stateless_uniform([n, 3], _seed_tensor(seed)) if (jitter or scale[0] != scale[1]) \
            else tf.zeros([n, 3])
        attrs = dict(scale=[float(s) for s in scale], jitter=bool(jitter), center=bool(center),
                     pad_value=float(pad_value), method=method, antialias=bool(antialias))
        flags = _flags(mirror, n, "mirror", _mirror_seed(seed))
        if encoded:
            _checks.one_of("channels", channels, (1, 3, 4))
            _checks.one_of("max_dct_denom", max_dct_denom, (1, 2, 4, 8))
            contents = _checks.string_tensor("contents", contents_or_images)
            _checks.static_rank("contents", contents, (1,))
            norm = _normalize_attrs(mean, std, channels)
            images, info, errors = _loader.ops().tf_gpu_aug_decode_resize_pad(
                contents, draws, _size_tensor(size), flags, channels=channels, dct_method=dct_method,
                apply_exif_orientation=bool(apply_exif_orientation), max_pixels=int(max_pixels),
                max_dct_denom=max_dct_denom, out_type=tf.float32 if norm["mean"] else tf.uint8,
                on_error=_skip.on_error_attr(), **norm, **attrs)
            _skip.record(errors)
            return images, info
        _check_dtype(contents_or_images)
        values, shapes, rank = _flat_images(contents_or_images)
        if rank != 4:
            raise ValueError("resize_and_pad needs a batch [B, H, W, C] (dense or ragged)")
        norm = _normalize_attrs(mean, std, values.shape[-1])
        return _loader.ops().tf_gpu_aug_resize_pad(
            values, shapes, draws, _size_tensor(size), flags,
            out_type=tf.float32 if norm["mean"] else values.dtype, **norm, **attrs)
