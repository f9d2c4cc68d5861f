"""Albumentations' GlassBlur ("fast" mode) per sample: cv2.GaussianBlur, then per iteration every
pixel of the interior swapped with a random neighbour as numpy's fancy assignment does it (all
reads first; the interior takes its neighbours' values, then each neighbour the value of the
last interior pixel that chose it), then cv2.GaussianBlur again. Each iteration is one source
index per pixel (the last chooser painted by the SpanRaster op in Albumentations' order) and
one gather of whole pixels packed as 32-bit words."""
from __future__ import annotations

from typing import Tuple

import tensorflow as tf

from tfgpuaug._types import Images, Seed
from tfgpuaug.augment import raster
from tfgpuaug.augment.kernel_blurs import MAX_SIDE, filter2d
from tfgpuaug.augment.opencv_gaussian import kernel_8bit, side_for_sigma
from tfgpuaug.augment.photometric import _check_probability, _draws

GLASS_MODES = ("fast",)
MAX_ITERATIONS = 16


def check_glass_blur_args(sigma, max_delta, iterations, mode, probability) -> Tuple[float, int, int]:
    who = "GlassBlur"
    if not 0.0 < float(sigma) or side_for_sigma(float(sigma)) > MAX_SIDE:
        raise ValueError(f"{who}: sigma must be > 0 with a Gaussian side round(6 sigma + 1) of at most {MAX_SIDE} "
                         f"(sigma below about 10.3), got {sigma!r}")
    if not isinstance(max_delta, int) or not 1 <= max_delta <= 64:
        raise ValueError(f"{who}: max_delta (how far a pixel may move) must be a whole number in [1, 64], "
                         f"got {max_delta!r}")
    if not isinstance(iterations, int) or not 1 <= iterations <= MAX_ITERATIONS:
        raise ValueError(f"{who}: iterations must be a whole number in [1, {MAX_ITERATIONS}], got {iterations!r}")
    if mode not in GLASS_MODES:
        raise ValueError(f"{who}: mode must be 'fast', got {mode!r} (Albumentations' 'exact' mode swaps one pixel "
                         "at a time in a Python loop, each swap seeing the ones before: not available here; "
                         "docs/augmentations.md says why)")
    _check_probability(probability)
    return float(sigma), max_delta, iterations


def _packed(images: tf.Tensor) -> tf.Tensor:
    """uint8 `[B, H, W, C]` (C <= 4) as int32 `[B, H W]`: a pixel a word, so one gather moves it."""
    c = images.shape[-1]
    padded = images if c == 4 else tf.pad(images, [[0, 0], [0, 0], [0, 0], [0, 4 - c]])
    return tf.reshape(tf.bitcast(padded, tf.int32), tf.stack([tf.shape(images)[0], -1]))


def _unpacked(words: tf.Tensor, like: tf.Tensor) -> tf.Tensor:
    pixels = tf.reshape(tf.bitcast(words, tf.uint8), tf.concat([tf.shape(like)[:3], [4]], 0))
    return pixels[..., :like.shape[-1]]


def glassed(images: tf.Tensor, sigma: float, max_delta: int, dxy: tf.Tensor) -> tf.Tensor:
    """GlassBlur "fast" with the displacements `dxy` (swapped_pixels) between two Gaussian blurs."""
    kernels = tf.tile(kernel_8bit(side_for_sigma(sigma), sigma), tf.stack([tf.shape(images)[0], 1, 1]))
    blurred = filter2d(images, kernels, ties_up=True)
    return filter2d(swapped_pixels(blurred, max_delta, dxy), kernels, ties_up=True)


def swapped_pixels(images: tf.Tensor, max_delta: int, dxy: tf.Tensor) -> tf.Tensor:
    """GlassBlur's swaps with the displacements `dxy` int32 `[B, (H - 2 m)(W - 2 m), iterations, 2]`
    (dy, dx in [-m, m), m = max_delta; Albumentations' array per sample, its pixel order: the
    interior's rows from H - m down to m + 1 fastest, then its columns from W - m down), each
    iteration as numpy's `x[h, w], x[h + dy, w + dx] = x[h + dy, w + dx], x[h, w]`.

    uint8 `[B, H, W, C]`, C at most 4.
    """
    n, height, width = tf.shape(images)[0], tf.shape(images)[1], tf.shape(images)[2]
    m = max_delta
    rows_n = tf.maximum(height - 2 * m, 1)
    order = tf.range(tf.shape(dxy)[1])
    h, w = (height - m) - order % rows_n, (width - m) - order // rows_n  # each chooser's pixel
    chooser = h * width + w
    y, x = tf.range(height)[:, None], tf.range(width)[None, :]
    interior = (y > m) & (y <= height - m) & (x > m) & (x <= width - m)
    chosen_by = tf.reshape(tf.where(interior, (width - m - x) * rows_n + (height - m - y), 0), [-1])  # order there
    identity = tf.range(height * width)
    pixels = _packed(images)
    for it in range(dxy.shape[2]):
        th, tw = h + dxy[:, :, it, 0], w + dxy[:, :, it, 1]  # [B, total]: the chosen neighbours
        # [B, H W]; a trailing 0 keeps the gather valid when the interior is empty (no swaps)
        neighbour = tf.gather(tf.pad(th * width + tw, [[0, 0], [0, 1]]), chosen_by, axis=1)
        # each chosen pixel: the pixel of its last chooser (painter's order), -1 where none chose it
        last = raster.span_raster(th, tw, tw + 1, tf.broadcast_to(chooser, tf.shape(th)), height, width,
                                  combine="last", fill=-1)
        last = tf.reshape(last, tf.stack([n, -1]))
        source = tf.where(tf.reshape(interior, [-1])[None], neighbour, identity[None])
        source = tf.where(last >= 0, last, source)
        pixels = tf.gather(pixels, source, batch_dims=1)
    return _unpacked(pixels, images)


def glass_blur(images: Images, sigma: float = 0.7, max_delta: int = 4, iterations: int = 2, mode: str = "fast",
               probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' GlassBlur, "fast" mode: with probability `probability` per sample, the image
    blurred by cv2.GaussianBlur with `sigma` (side round(6 sigma + 1) made odd, reflect-101), then
    `iterations` times each interior pixel (rows and columns m + 1 .. side - m, m = `max_delta`)
    swapped with the pixel (dy, dx) away, dy and dx integers uniform in [-m, m): all reads first,
    the interior takes its chosen neighbours' values, then each chosen pixel the value of the
    last interior pixel (in Albumentations' order) that chose it; then blurred again.

    Args:
      images: uint8 `[B, H, W, C]`, C at most 4, H and W above 2 max_delta.
      sigma: the Gaussian's standard deviation, > 0.
      max_delta: how far a pixel may move, 1 .. 64.
      iterations: rounds of swaps, 1 .. 16.
      mode: "fast" (Albumentations' default).
      probability: per-sample probability.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    sigma, max_delta, iterations = check_glass_blur_args(sigma, max_delta, iterations, mode, probability)
    images, n, seeds = _draws(images, seed, 2)
    if images.shape[-1] is None:
        raise ValueError("GlassBlur needs the images' channel count (1, 3 or 4) known when the graph is built: it "
                         "moves whole pixels as 32-bit words; give the input a static last dimension")
    for axis, name in ((1, "height"), (2, "width")):
        if images.shape[axis] is not None and images.shape[axis] <= 2 * max_delta:
            raise ValueError(f"GlassBlur: the image {name} {images.shape[axis]} must be above 2 max_delta = "
                             f"{2 * max_delta} (pixels move within the interior)")
    height, width = tf.shape(images)[1], tf.shape(images)[2]
    total = tf.maximum(height - 2 * max_delta, 0) * tf.maximum(width - 2 * max_delta, 0)
    dxy = tf.random.stateless_uniform(tf.stack([n, total, iterations, 2]), seeds[0], -max_delta, max_delta,
                                      dtype=tf.int32)
    apply = tf.random.stateless_uniform([n], seeds[1]) < probability
    return tf.where(apply[:, None, None, None], glassed(images, sigma, max_delta, dxy), images)
