"""timm's RandomErasing (Zhong et al.; DeiT's recipe) on a batch, per sample.

Each sample is erased with probability `probability`: `count` rectangles (drawn in
[min_count, max_count]), each of area `uniform(min_area, max_area) * H * W / count` and aspect
`exp(uniform(log(min_aspect), log(max_aspect)))`, the first of 10 attempts that fits strictly
inside the image, at a uniform position (timm's `_erase`). The fill: `mode="const"` the
constant `value`; `"rand"` one random colour per rectangle; `"pixel"` random per pixel. Random
values are N(0, 1) for float images (timm erases normalised images) and uniform levels for
uint8 ones. Rectangles are drawn in the graph from stateless uniforms and applied with one
masked select per rectangle slot.
"""
from __future__ import annotations

import math
from typing import Optional, Tuple, Union

import tensorflow as tf

from tfgpuaug._types import Images, Seed

MODES = ("const", "rand", "pixel")
ATTEMPTS = 10


def check_random_erasing_args(probability: float, area: Tuple[float, float], min_aspect: float,
                              max_aspect: Optional[float], mode: str, count: Tuple[int, int]) -> None:
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {probability}")
    if not 0.0 < area[0] <= area[1] <= 1.0:
        raise ValueError(f"area must be (min, max) with 0 < min <= max <= 1, got {area}")
    if not 0.0 < min_aspect <= (max_aspect if max_aspect is not None else 1.0 / min_aspect):
        raise ValueError(f"aspects must satisfy 0 < min_aspect <= max_aspect, got {min_aspect}, {max_aspect}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if not 1 <= count[0] <= count[1]:
        raise ValueError(f"count must be (min, max) with 1 <= min <= max, got {count}")


def random_erasing(images: Images, probability: float = 0.5, area: Tuple[float, float] = (0.02, 1 / 3),
                   min_aspect: float = 0.3, max_aspect: Optional[float] = None, mode: str = "const",
                   value: float = 0.0, count: Tuple[int, int] = (1, 1), seed: Seed = None,
                   return_plan: bool = False) -> Union[tf.Tensor, Tuple[tf.Tensor, tf.Tensor]]:
    """`images` `[B, H, W, C]` (uint8 or float) with rectangles erased per sample (see the
    module). With `return_plan`, also the rectangles `[B, max_count, 4]` (y, x, h, w; zero
    size where a slot erased nothing).

    Args:
      images: uint8 or float `[B, H, W, C]`.
      probability: probability that a sample is erased.
      area: (min, max) fraction of the area erased.
      min_aspect: smallest aspect ratio of a rectangle.
      max_aspect: largest (None: 1 / min_aspect).
      mode: "const", "rand" or "pixel" (see the module).
      value: the fill of mode "const".
      count: (min, max) rectangles per erased sample.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return what each sample drew (see Returns).
    """
    from tfgpuaug.geometry import _seed_tensor

    check_random_erasing_args(probability, area, min_aspect, max_aspect, mode, count)
    images = tf.convert_to_tensor(images)
    if images.shape.rank != 4:
        raise ValueError(f"images must be [B, H, W, C], got rank {images.shape.rank}")
    max_aspect = 1.0 / min_aspect if max_aspect is None else max_aspect
    shape = tf.shape(images)
    n, h_img, w_img, channels = shape[0], shape[1], shape[2], shape[3]
    k = count[1]
    seeds = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), 6))
    applied = tf.random.stateless_uniform([n], seeds[0]) < probability
    counts = tf.random.stateless_uniform([n], seeds[1], minval=count[0], maxval=count[1] + 1, dtype=tf.int32)
    hf, wf = tf.cast(h_img, tf.float32), tf.cast(w_img, tf.float32)
    target = (hf * wf * tf.random.stateless_uniform([n, k, ATTEMPTS], seeds[2], area[0], area[1])
              / tf.cast(counts, tf.float32)[:, None, None])
    aspect = tf.exp(tf.random.stateless_uniform([n, k, ATTEMPTS], seeds[3], math.log(min_aspect),
                                                math.log(max_aspect)))
    rh, rw = tf.round(tf.sqrt(target * aspect)), tf.round(tf.sqrt(target / aspect))
    fits = (rw < wf) & (rh < hf)  # timm: strictly inside
    first = tf.argmax(tf.cast(fits, tf.int32), axis=-1)  # the first attempt that fits
    found = tf.reduce_any(fits, axis=-1)
    rh, rw = tf.gather(rh, first, batch_dims=2), tf.gather(rw, first, batch_dims=2)
    used = found & applied[:, None] & (tf.range(k)[None, :] < counts[:, None])
    pos = tf.random.stateless_uniform([n, k, 2], seeds[4])
    top = tf.floor(pos[..., 0] * (hf - rh + 1))  # uniform integer in [0, H - h]
    left = tf.floor(pos[..., 1] * (wf - rw + 1))
    zero = tf.zeros_like(rh)
    rects = tf.stack([tf.where(used, top, zero), tf.where(used, left, zero), tf.where(used, rh, zero),
                      tf.where(used, rw, zero)], axis=-1)
    rows = tf.cast(tf.range(h_img), tf.float32)[None, :, None]
    cols = tf.cast(tf.range(w_img), tf.float32)[None, None, :]
    floating = images.dtype.is_floating
    noise_seeds = tf.unstack(tf.random.experimental.stateless_split(seeds[5], k))
    out = images
    for slot in range(k):  # one masked select per rectangle slot
        y, x, rh_s, rw_s = (rects[:, slot, i][:, None, None] for i in range(4))
        inside = (rows >= y) & (rows < y + rh_s) & (cols >= x) & (cols < x + rw_s)
        fill = _fill(mode, value, tf.shape(images), n, channels, floating, images.dtype, noise_seeds[slot])
        out = tf.where(inside[..., None], fill, out)
    return (out, rects) if return_plan else out


def _fill(mode: str, value: float, shape, n, channels, floating: bool, dtype, seed) -> tf.Tensor:
    if mode == "const":
        return tf.cast(tf.fill([1, 1, 1, 1], value), dtype)
    noise_shape = shape if mode == "pixel" else tf.stack([n, 1, 1, channels])
    if floating:
        return tf.cast(tf.random.stateless_normal(noise_shape, seed), dtype)
    return tf.cast(tf.random.stateless_uniform(noise_shape, seed, minval=0, maxval=256, dtype=tf.int32), dtype)
