"""Decoding ops: `decode_image` and `image_shape`, with tf.image-style signatures."""
from __future__ import annotations

from typing import Optional, Union

import tensorflow as tf

from tfgpuaug import _checks, _loader, _skip
from tfgpuaug._types import TensorLike

DEFAULT_MAX_PIXELS = 1 << 27  # 134 megapixels; larger headers are refused before allocating
DEFAULT_MAX_BATCH_BYTES = 1 << 32  # 4 GiB of decoded pixels per batch
DCT_METHODS = ("INTEGER_ACCURATE", "INTEGER_FAST", "FLOAT")



def _decode_attrs(channels: int, dct_denom: int, dct_method: str, apply_exif_orientation: bool,
                  max_pixels: int) -> dict:
    _checks.one_of("channels", channels, (1, 3, 4))
    _checks.one_of("dct_denom", dct_denom, (1, 2, 4, 8))
    _checks.one_of("dct_method", dct_method, DCT_METHODS)
    if int(max_pixels) <= 0:
        raise ValueError(f"max_pixels must be positive, got {max_pixels}")
    return dict(channels=int(channels), dct_denom=int(dct_denom), dct_method=dct_method,
                apply_exif_orientation=bool(apply_exif_orientation), max_pixels=int(max_pixels))


def decode_image(contents: TensorLike, channels: int = 3, *,
                 crop_window: Optional[TensorLike] = None, dct_denom: int = 1,
                 dct_method: str = "INTEGER_ACCURATE", apply_exif_orientation: bool = False,
                 max_pixels: int = DEFAULT_MAX_PIXELS,
                 max_batch_bytes: int = DEFAULT_MAX_BATCH_BYTES, expand_animations: bool = False,
                 dtype: tf.DType = tf.uint8, name: Optional[str] = None) -> Union[tf.Tensor, tf.RaggedTensor]:
    """Decodes JPEG, PNG, WebP, GIF (first frame), BMP, PNM, TIFF (first page) or JPEG 2000 bytes
    to uint8 pixels.

    Args:
      contents: a scalar string (one image) or a 1-D string batch.
      channels: 1 (gray), 3 (RGB) or 4 (RGBA).
      crop_window: optional `[y, x, height, width]` (int32; `[B, 4]` for a batch) in the
        coordinates of the scaled (and oriented) image: only that window is decoded; JPEG
        rows below it are never entropy-decoded and columns outside it are skipped.
      dct_denom: 1, 2, 4 or 8: decode at `ceil(size / dct_denom)` (JPEG DCT scaling; the other formats
        average each block).
      dct_method: "INTEGER_ACCURATE" (default, matches PIL), "INTEGER_FAST" (TensorFlow's
        default) or "FLOAT".
      apply_exif_orientation: rotate/flip as the EXIF orientation tag says (as PIL's
        `ImageOps.exif_transpose`).
      max_pixels: images whose header declares more pixels fail before any allocation.
      max_batch_bytes: a batch whose headers add up to more decoded bytes fails before any
        allocation (batches only).
      expand_animations: every frame of a GIF or WebP animation as `[frames, H, W, C]`
        (`decode_animation`); other images give one frame, so the rank is 4 for every file
        (unlike `tf.io.decode_image`, whose rank depends on the data). One image only, full size.
      dtype: `tf.uint8`, or `tf.uint16` (one image at a time, as `tf.io.decode_png`): 16-bit
        PNG, TIFF, PNM and JPEG 2000 keep their full precision, 8-bit samples are widened by
        257.

    Returns:
      A scalar input gives a `uint8` tensor `[height, width, channels]`; a batch gives a
      `tf.RaggedTensor` `[batch, None, None, channels]`, decoded in parallel.

    Raises:
      tf.errors.InvalidArgumentError at run time for corrupt, truncated, empty or non-image
      bytes, and for headers over `max_pixels` or batches over `max_batch_bytes`, naming
      the problem (and the batch index). tf.errors.ResourceExhaustedError when memory for
      the output cannot be allocated.
    """
    if int(max_batch_bytes) <= 0:
        raise ValueError(f"max_batch_bytes must be positive, got {max_batch_bytes}")
    dtype = tf.as_dtype(dtype)
    if dtype not in (tf.uint8, tf.uint16):
        raise ValueError(f"dtype must be tf.uint8 or tf.uint16, got {dtype.name}")
    if expand_animations:
        if dtype != tf.uint8:
            raise ValueError("expand_animations decodes uint8 frames")
        if crop_window is not None or dct_denom != 1 or apply_exif_orientation:
            raise ValueError("expand_animations decodes whole frames: crop_window, dct_denom and "
                             "apply_exif_orientation are not supported with it")
        return decode_animation(contents, channels, max_pixels=max_pixels, max_bytes=max_batch_bytes, name=name)
    attrs = _decode_attrs(channels, dct_denom, dct_method, apply_exif_orientation, max_pixels)
    with tf.name_scope(name or "decode_image"):
        contents = _checks.string_tensor("contents", contents)
        rank = _checks.static_rank("contents", contents, (0, 1))
        ops = _loader.ops()
        if rank == 0:
            window = _window(crop_window, rank=1)
            return ops.tf_gpu_aug_decode_image(contents, window, dtype=dtype, **attrs)
        if dtype != tf.uint8:
            raise ValueError("dtype=tf.uint16 decodes one image (a scalar string) at a time; map it over "
                             "the dataset before batching")
        window = _window(crop_window, rank=2)
        values, shapes, errors = ops.tf_gpu_aug_decode_image_batch(
            contents, window, max_batch_bytes=int(max_batch_bytes), on_error=_skip.on_error_attr(), **attrs)
        _skip.record(errors)
        return _to_ragged(values, shapes)


def decode_animation(contents: TensorLike, channels: int = 3, *, max_pixels: int = DEFAULT_MAX_PIXELS,
                     max_bytes: int = DEFAULT_MAX_BATCH_BYTES, name: Optional[str] = None) -> tf.Tensor:
    """Every frame of a GIF or WebP animation as uint8 `[frames, H, W, channels]`, each the
    screen as a viewer shows it (frames composited with their disposal and transparency, as
    PIL's `ImageSequence`); any other image is one frame.

    Args:
      contents: a scalar string.
      channels: 1, 3 or 4.
      max_pixels: a header declaring more pixels per frame is refused before allocating.
      max_bytes: an animation whose frames add up to more bytes is refused before decoding.
    """
    if channels not in (1, 3, 4):
        raise ValueError(f"channels must be one of 1, 3, 4, got {channels}")
    if int(max_pixels) <= 0 or int(max_bytes) <= 0:
        raise ValueError("max_pixels and max_bytes must be positive")
    with tf.name_scope(name or "decode_animation"):
        contents = _checks.string_tensor("contents", contents)
        _checks.static_rank("contents", contents, (0,))
        return _loader.ops().tf_gpu_aug_decode_animation(contents, channels=channels, max_pixels=int(max_pixels),
                                                         max_bytes=int(max_bytes))


def _window(crop_window, rank: int) -> tf.Tensor:
    if crop_window is None:
        return tf.zeros([0] if rank == 1 else [0, 4], tf.int32)
    w = tf.convert_to_tensor(crop_window)
    if not w.dtype.is_integer:
        raise TypeError(f"crop_window must be integer [y, x, height, width], got {w.dtype.name}")
    _checks.static_rank("crop_window", w, (rank,))
    if w.shape[-1] is not None and w.shape[-1] != 4:
        raise ValueError(f"crop_window's last dimension must be 4 (y, x, height, width), got {w.shape}")
    return tf.cast(w, tf.int32)


def _to_ragged(values: tf.Tensor, shapes: tf.Tensor) -> tf.RaggedTensor:
    """[sum(h*w), c] pixels + [B, 3] shapes -> ragged [B, None, None, c]."""
    shapes = tf.cast(shapes, tf.int64)
    heights, widths = shapes[:, 0], shapes[:, 1]
    row_widths = tf.repeat(widths, heights)
    return tf.RaggedTensor.from_nested_row_lengths(values, [heights, row_widths], validate=False)


def image_shape(contents: TensorLike, apply_exif_orientation: bool = False,
                name: Optional[str] = None) -> tf.Tensor:
    """`[..., 3]` int32 (height, width, native channels) read from image headers only.

    Args:
      contents: encoded images, `tf.string` of any shape.
      apply_exif_orientation: report the shape after the EXIF rotation (JPEG).
    """
    with tf.name_scope(name or "image_shape"):
        contents = _checks.string_tensor("contents", contents)
        shape, errors = _loader.ops().tf_gpu_aug_image_shape(
            contents, apply_exif_orientation=bool(apply_exif_orientation), on_error=_skip.on_error_attr())
        _skip.record(errors)
        return shape


def add_jpeg_restart_markers(contents: TensorLike, interval_width: int = 64, *, optimize_huffman: bool = True,
                             max_pixels: int = 1 << 28, name: Optional[str] = None) -> tf.Tensor:
    """JPEG bytes rewritten losslessly with restart markers, so crops decode only what they cover.

    The DCT coefficients are copied as they are (every decoder makes exactly the same pixels)
    into one sequential scan with a restart marker every few MCUs. `decode_image` with a
    `crop_window`, and the fused decode-crop-resize of `RandomResizedCrop`/`gpu_augment`, then
    entropy-decode only the restart intervals that cover the crop plus a one-MCU margin
    instead of every row above it and every column beside it. `python -m tfgpuaug.prepare`
    applies this to a whole dataset.

    Args:
      contents: JPEG bytes, a string tensor of any shape (each element one file).
      interval_width: the restart interval's width wanted, in pixels. An interval is a run of
        MCUs (16x16 pixels for 4:2:0 colour, 8x8 for gray or 4:4:4) that divides the MCUs per
        row, so every MCU row starts an interval and crops can cut columns; each image gets
        the divisor nearest to this width by ratio (a row of a prime number of MCUs gets one
        interval per row rather than one per MCU). Narrower: tighter crops, and two bytes and a
        few padding bits more per interval (benchmarks/restart_interval.py measures both).
      optimize_huffman: per-image Huffman tables (lossless; usually a few percent smaller,
        which pays for the markers).
      max_pixels: larger images are refused before their coefficients are read.
      name: the op's name.

    Returns:
      The rewritten bytes, same shape as `contents`. Progressive files become sequential.
      A damaged or non-JPEG input raises `InvalidArgumentError` naming the problem.
    """
    interval_width = int(interval_width)
    if interval_width < 1:
        raise ValueError(f"interval_width must be a positive number of pixels, got {interval_width}")
    if int(max_pixels) <= 0:
        raise ValueError(f"max_pixels must be positive, got {max_pixels}")
    contents = tf.convert_to_tensor(contents, tf.string)
    return _loader.ops().tf_gpu_aug_jpeg_add_restart_markers(
        contents, interval_width=interval_width, optimize_huffman=bool(optimize_huffman), max_pixels=int(max_pixels),
        name=name)
