"""OpenCV's 8-bit HLS (cv2.COLOR_RGB2HLS / COLOR_HLS2RGB on uint8) in float32 graph ops:
hue in 2-degree steps 0..180, lightness and saturation 0..255, each rounded as OpenCV rounds
them. Albumentations' weather effects edit the lightness of this representation, so matching
its quantisation is what matches their output."""
from __future__ import annotations

import tensorflow as tf


def rgb_to_hls8(rgb: tf.Tensor) -> tuple:
    """(hue, lightness, saturation) float32 whole numbers for float32 RGB levels `[..., 3]` 0..255."""
    r, g, b = tf.unstack(rgb * (1.0 / 255.0), axis=-1)
    vmax = tf.maximum(tf.maximum(r, g), b)
    vmin = tf.minimum(tf.minimum(r, g), b)
    diff = vmax - vmin
    lightness = (vmax + vmin) * 0.5
    chromatic = diff > 1.1920929e-07  # FLT_EPSILON
    saturation = tf.where(lightness < 0.5, tf.math.divide_no_nan(diff, vmax + vmin),
                          tf.math.divide_no_nan(diff, 2.0 - vmax - vmin))
    scale = tf.math.divide_no_nan(tf.constant(60.0), diff)
    hue = tf.where(tf.equal(vmax, r), (g - b) * scale,
                   tf.where(tf.equal(vmax, g), (b - r) * scale + 120.0, (r - g) * scale + 240.0))
    hue = tf.where(hue < 0.0, hue + 360.0, hue)
    hue = tf.where(chromatic, hue, 0.0)
    saturation = tf.where(chromatic, saturation, 0.0)
    return tf.round(hue * 0.5), tf.round(lightness * 255.0), tf.round(saturation * 255.0)


def hls8_to_rgb(hue: tf.Tensor, lightness: tf.Tensor, saturation: tf.Tensor) -> tf.Tensor:
    """float32 RGB levels `[..., 3]`, rounded, from 8-bit HLS (hue 0..180 in 2-degree steps)."""
    l = lightness * (1.0 / 255.0)  # noqa: E741
    s = saturation * (1.0 / 255.0)
    p2 = tf.where(l <= 0.5, l * (1.0 + s), l + s - l * s)
    p1 = 2.0 * l - p2
    h = hue * (6.0 / 180.0)
    h = tf.where(h < 0.0, h + 6.0, tf.where(h >= 6.0, h - 6.0, h))
    sector = tf.floor(h)
    h = h - sector
    rising = p1 + (p2 - p1) * h
    falling = p1 + (p2 - p1) * (1.0 - h)

    def pick(options):  # the value for each pixel's sector, 0..5
        value = options[5]
        for index in range(4, -1, -1):
            value = tf.where(sector <= index, options[index], value)
        return value

    # Per sector (r, g, b) from (p2, p1, falling, rising); hue 0 is red at p2.
    r = pick([p2, falling, p1, p1, rising, p2])
    g = pick([rising, p2, p2, falling, p1, p1])
    b = pick([p1, p1, rising, p2, p2, falling])
    rgb = tf.stack([r, g, b], -1)
    grey = tf.stack([l, l, l], -1)
    rgb = tf.where(tf.equal(s, 0.0)[..., None], grey, rgb)
    return tf.clip_by_value(tf.round(rgb * 255.0), 0.0, 255.0)
