"""Albumentations' weather effects in the graph, per sample: RandomShadow, RandomRain,
RandomSnow ("bleach"), RandomGravel and RandomFog. Albumentations draws each one with OpenCV
(fillPoly, polylines, circle, addWeighted) one shape at a time; here every sample's shapes are
drawn at once as coverage counts (tfgpuaug/augment/raster.py) and the effect is one elementwise
pass, with Albumentations' integer rules for where shapes go and its arithmetic for what they
do (truncations included). Pixels an effect does not touch keep their bytes."""
from __future__ import annotations

from typing import Optional, Sequence, Tuple

import tensorflow as tf

from tfgpuaug._types import Images, Seed
from tfgpuaug.augment import raster
from tfgpuaug.augment.opencv_gaussian import kernel_8bit_of_side
from tfgpuaug.augment.pixel_tables import hls_lightness, level_tables
from tfgpuaug.augment.photometric import _check_probability, _draws, check_range

Box = Tuple[float, float, float, float]
RAIN_TYPES = ("default", "drizzle", "heavy", "torrential")
SNOW_METHODS = ("bleach",)


def _randint(seed: tf.Tensor, shape, low: tf.Tensor, high: tf.Tensor) -> tf.Tensor:
    """int32 uniform in [low, high] (both included, broadcast to `shape`; high < low gives low)."""
    low, high = tf.cast(low, tf.int32), tf.cast(high, tf.int32)
    count = tf.cast(tf.maximum(high - low + 1, 1), tf.float32)
    draw = tf.minimum(tf.floor(tf.random.stateless_uniform(shape, seed) * count), count - 1.0)
    return low + tf.cast(draw, tf.int32)


def _uniform(seed: tf.Tensor, shape, low: float, high: float) -> tf.Tensor:
    return tf.random.stateless_uniform(shape, seed, low, high) if high > low else tf.fill(shape, low)


def _int_of(value) -> tf.Tensor:
    """Python's int() of a non-negative float64 tensor, as int32."""
    return tf.cast(tf.floor(value), tf.int32)


def _roi_pixels(roi: Box, height: tf.Tensor, width: tf.Tensor) -> Tuple[tf.Tensor, ...]:
    """Albumentations' int(fraction x side) corners (x_min, y_min, x_max, y_max)."""
    w, h = tf.cast(width, tf.float64), tf.cast(height, tf.float64)
    return _int_of(roi[0] * w), _int_of(roi[1] * h), _int_of(roi[2] * w), _int_of(roi[3] * h)


def _check_roi(name: str, roi: Sequence[float], who: str, strict: bool) -> Box:
    roi = tuple(float(v) for v in roi)
    ordered = (lambda a, b: a < b) if strict else (lambda a, b: a <= b)
    if len(roi) != 4 or not (0.0 <= roi[0] and ordered(roi[0], roi[2]) and roi[2] <= 1.0 and 0.0 <= roi[1]
                             and ordered(roi[1], roi[3]) and roi[3] <= 1.0):
        raise ValueError(f"{who}: {name} must be (x_min, y_min, x_max, y_max) fractions of the image with "
                         f"0 <= min {'<' if strict else '<='} max <= 1, got {roi!r}")
    return roi


def _rgb_only(images: tf.Tensor, who: str) -> None:
    if images.shape[-1] is not None and images.shape[-1] != 3:
        raise ValueError(f"{who} takes RGB images (3 channels), got {images.shape[-1]}: it works in OpenCV's HLS "
                         "colour space, as Albumentations does")


def _weather_draws(images: Images, seed: Seed, count: int, who: str, rgb: bool = True) -> tuple:
    """The checked batch, its size n, `count` stateless seeds, its height and width."""
    images, n, seeds = _draws(images, seed, count)
    if rgb:
        _rgb_only(images, who)
    return images, n, seeds, tf.shape(images)[1], tf.shape(images)[2]


# --- RandomShadow -------------------------------------------------------------------------------

def check_shadow_args(shadow_roi, num_shadows_limit, shadow_dimension, shadow_intensity_range, probability):
    who = "RandomShadow"
    roi = _check_roi("shadow_roi", shadow_roi, who, strict=False)
    limit = tuple(num_shadows_limit)
    if len(limit) != 2 or not all(isinstance(v, int) for v in limit) or not 1 <= limit[0] <= limit[1] <= 64:
        raise ValueError(f"{who}: num_shadows_limit must be (min, max) whole numbers with 1 <= min <= max <= 64, "
                         f"got {num_shadows_limit!r}")
    if not isinstance(shadow_dimension, int) or not 3 <= shadow_dimension <= 64:
        raise ValueError(f"{who}: shadow_dimension (vertices per shadow polygon) must be a whole number in "
                         f"[3, 64], got {shadow_dimension!r}")
    intensity = check_range(f"{who}: shadow_intensity_range", tuple(shadow_intensity_range), 0.0, 1.0)
    _check_probability(probability)
    return roi, limit, shadow_dimension, intensity


def random_shadow(images: Images, shadow_roi: Sequence[float] = (0.0, 0.5, 1.0, 1.0),
                  num_shadows_limit: Tuple[int, int] = (1, 2), shadow_dimension: int = 5,
                  shadow_intensity_range: Tuple[float, float] = (0.5, 0.5), probability: float = 0.5,
                  seed: Seed = None) -> tf.Tensor:
    """Albumentations' RandomShadow: with probability `probability` per sample, a whole number of
    shadows in `num_shadows_limit`, each a polygon of `shadow_dimension` vertices with integer
    coordinates uniform in `shadow_roi` (pixels int(fraction x side), the upper end excluded),
    filled as cv2.fillPoly fills it (even-odd, outline included), darkening every channel under
    it to floor(v (1 - a)), `a` uniform in `shadow_intensity_range`; shadows apply in turn, as
    Albumentations truncates after each.

    Args:
      images: uint8 `[B, H, W, C]`, any channel count.
      shadow_roi: (x_min, y_min, x_max, y_max) fractions where vertices fall.
      num_shadows_limit: (min, max) shadows per sample, both included.
      shadow_dimension: vertices per polygon (3 .. 64).
      shadow_intensity_range: (min, max) darkening a within [0, 1].
      probability: per-sample probability.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    roi, limit, sides, intensity = check_shadow_args(shadow_roi, num_shadows_limit, shadow_dimension,
                                                     shadow_intensity_range, probability)
    images, n, seeds, height, width = _weather_draws(images, seed, 5, "RandomShadow", rgb=False)
    x_min, y_min, x_max, y_max = _roi_pixels(roi, height, width)
    count = _randint(seeds[0], [n], limit[0], limit[1])
    shape = [n, limit[1], sides]
    vertices = tf.stack([_randint(seeds[1], shape, x_min, x_max - 1), _randint(seeds[2], shape, y_min, y_max - 1)], -1)
    darkness = 1.0 - _uniform(seeds[3], [n, limit[1]], *intensity)
    apply = tf.random.stateless_uniform([n], seeds[4]) < probability
    return shadowed(images, vertices, tf.where(apply, count, 0), darkness)


def _identity_row() -> tf.Tensor:
    return tf.range(256, dtype=tf.float32)


def shadowed(images: tf.Tensor, vertices: tf.Tensor, count: tf.Tensor, darkness: tf.Tensor) -> tf.Tensor:
    """The first `count[b]` of the polygons `vertices` `[B, S, V, 2]` (int32 x, y) darken in
    turn what they cover to floor(v darkness), darkness `[B, S]`: one LevelTables pass a
    polygon, its rows the polygon's cover codes (raster.polygon_codes)."""
    height, width = tf.shape(images)[1], tf.shape(images)[2]
    # [S, B, H, W]: codes[s] is then a slice of the first axis, which TensorFlow takes without a
    # copy (of [B, S, H, W] it copied B H W int32s a shadow)
    codes = raster.polygon_codes(tf.cast(tf.transpose(vertices, [1, 0, 2, 3]), tf.float32), height, width)
    sides = vertices.shape[2]
    covered = tf.constant([code % 2 == 1 or code > sides for code in range(2 * sides + 2)])[None, :, None]
    out = images
    for s in range(vertices.shape[1]):
        dark = tf.floor(_identity_row()[None, :] * darkness[:, s, None])
        dark = tf.where((s < count)[:, None], dark, _identity_row()[None, :])[:, None, :]  # [B, 1, 256]
        tables = tf.where(covered, dark, _identity_row()[None, None, :])  # [B, codes, 256]
        out = level_tables(out, tf.cast(tables, tf.uint8)[:, :, None, :], codes[s])
    return out


# --- RandomRain ---------------------------------------------------------------------------------

def check_rain_args(slant_range, drop_length, drop_width, drop_color, blur_value, brightness_coefficient, rain_type,
                    probability):
    who = "RandomRain"
    slant = check_range(f"{who}: slant_range (pixels the drop's end moves along x)", tuple(slant_range), -20.0, 20.0)
    if drop_length is not None and (not isinstance(drop_length, int) or drop_length < 1):
        raise ValueError(f"{who}: drop_length must be a whole number of pixels >= 1, or None (height // 8), "
                         f"got {drop_length!r}")
    if not isinstance(drop_width, int) or not 1 <= drop_width <= 32:
        raise ValueError(f"{who}: drop_width must be a whole number of pixels in [1, 32], got {drop_width!r}")
    color = tuple(drop_color)
    if len(color) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in color):
        raise ValueError(f"{who}: drop_color must be three whole levels 0..255 (R, G, B), got {drop_color!r}")
    if not isinstance(blur_value, int) or not 1 <= blur_value <= 63:
        raise ValueError(f"{who}: blur_value (box blur side of the rain layer) must be a whole number in [1, 63], "
                         f"got {blur_value!r}")
    if not 0.0 < brightness_coefficient <= 1.0:
        raise ValueError(f"{who}: brightness_coefficient must be in (0, 1], got {brightness_coefficient!r}")
    if rain_type not in RAIN_TYPES:
        raise ValueError(f"{who}: rain_type must be one of {RAIN_TYPES}, got {rain_type!r}")
    _check_probability(probability)
    return slant, color


def _drop_count(height: tf.Tensor, rain_type: str) -> tf.Tensor:
    return {"drizzle": height // 4, "heavy": height, "torrential": height * 2, "default": height // 3}[rain_type]


def random_rain(images: Images, slant_range: Tuple[float, float] = (-10.0, 10.0), drop_length: Optional[int] = None,
                drop_width: int = 1, drop_color: Tuple[int, int, int] = (200, 200, 200), blur_value: int = 7,
                brightness_coefficient: float = 0.7, rain_type: str = "default", probability: float = 0.5,
                seed: Seed = None) -> tf.Tensor:
    """Albumentations' RandomRain: with probability `probability` per sample, drops (height // 3
    of them; "drizzle" height // 4, "heavy" height, "torrential" 2 height) start at integer
    (x, y) uniform in [0, W) x [0, H - length) and end at (int(x + slant), y + length), slant
    uniform in `slant_range` (pixels along x, as Albumentations' code uses it, though its docs
    say degrees); each a 4-connected line `drop_width` pixels across in `drop_color`, the layer
    box-blurred over `blur_value` (cv2.blur: reflect-101, rounded), added with saturation, the
    sum times `brightness_coefficient`, rounded.

    Args:
      images: uint8 `[B, H, W, 3]`.
      slant_range: (min, max) pixels the drop's lower end moves along x, within [-20, 20].
      drop_length: drop length in pixels; None: height // 8 (at least 1). Below the height (checked when
        the height is static).
      drop_width: drop width in pixels.
      drop_color: (R, G, B) of the drops.
      blur_value: side of the box blur of the rain layer (1: none).
      brightness_coefficient: the image's brightness under rain, in (0, 1].
      rain_type: "default", "drizzle", "heavy" or "torrential".
      probability: per-sample probability.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    slant, color = check_rain_args(slant_range, drop_length, drop_width, drop_color, blur_value,
                                   brightness_coefficient, rain_type, probability)
    images, n, seeds, height, width = _weather_draws(images, seed, 4, "RandomRain")
    if drop_length is not None and images.shape[1] is not None and drop_length >= images.shape[1]:
        raise ValueError(f"RandomRain: drop_length {drop_length} must be below the image height {images.shape[1]} "
                         "(drops start in rows [0, height - length))")
    # A height known only at run time: a drop longer than the image starts in row 0 and is cut
    # at the bottom (Albumentations raises there); no assert, which would hold the GPU stage.
    length = tf.maximum(1, height // 8) if drop_length is None else tf.constant(drop_length)
    drops = _drop_count(height, rain_type)
    shape = tf.stack([n, drops])
    x0 = _randint(seeds[0], shape, 0, width - 1)
    y0 = _randint(seeds[1], shape, 0, tf.maximum(height - length - 1, 0))
    lean = _uniform(seeds[2], [n], *slant)
    x1 = tf.cast(tf.cast(x0, tf.float32) + lean[:, None], tf.int32)  # int32 cast truncates toward zero, as astype
    apply = tf.random.stateless_uniform([n], seeds[3]) < probability
    return rained(images, x0, y0, x1, y0 + length, drop_width, color, blur_value, brightness_coefficient, apply)


def rain_tables(color, blur_value: int, brightness_coefficient: float, apply: Optional[tf.Tensor] = None) -> tf.Tensor:
    """uint8 `[1, k^2 + 1, 3, 256]` (k the blur side; `[B, ...]` with `apply` `[B]`): row n the
    level of v under n drop pixels of the k x k window, rint(min(v + floor(colour n / k^2 + 1/2),
    255) coefficient) (cv2.blur's fixed-point mean, ties up; cv2.add's saturation; cv2.multiply's
    rounding, in double); every row the identity for samples `apply` leaves alone."""
    area = blur_value * blur_value
    counts = tf.range(area + 1, dtype=tf.float64)[:, None, None]
    layer = tf.floor(tf.constant(color, tf.float64)[None, :, None] * counts * (1.0 / area) + 0.5)
    rows = tf.minimum(tf.range(256, dtype=tf.float64)[None, None, :] + layer, 255.0)
    if brightness_coefficient != 1.0:
        rows = tf.round(rows * brightness_coefficient)
    tables = tf.cast(rows, tf.uint8)[None]
    if apply is None:
        return tables
    identity = tf.cast(tf.range(256), tf.uint8)  # broadcast by the select (uint8 BroadcastTo has no GPU kernel)
    return tf.where(apply[:, None, None, None], tables, identity)


def rained(images: tf.Tensor, x0, y0, x1, y1, drop_width: int, color, blur_value: int,
           brightness_coefficient: float, apply: Optional[tf.Tensor] = None) -> tf.Tensor:
    """Drops from (x0, y0) to (x1, y1) (int32 `[B, D]`) drawn, blurred, added and dimmed as
    RandomRain says, where `apply` `[B]` (None: everywhere) says: the drop pixels in each blur
    window counted, then one LevelTables pass (rain_tables; the samples left alone take identity
    tables, so no pass over the counts picks them out)."""
    height, width = tf.shape(images)[1], tf.shape(images)[2]
    x1, y1 = raster.clip_end_column(x0, y0, x1, y1, width)
    # One LineRaster pass: drop pixels marked once however many drops reach them (max), then the
    # marks counted over each blur window (cv2.blur's window and border).
    rows = raster.line_raster(x0, y0, x1, y1, tf.ones_like(x0), height, width, span_width=drop_width, combine="max",
                              box=blur_value)
    return level_tables(images, rain_tables(color, blur_value, brightness_coefficient, apply), rows)


# --- RandomSnow ---------------------------------------------------------------------------------

def check_snow_args(snow_point_range, brightness_coeff, method, probability):
    who = "RandomSnow"
    point = check_range(f"{who}: snow_point_range", tuple(snow_point_range), 0.0, 1.0)
    if not brightness_coeff > 0.0:
        raise ValueError(f"{who}: brightness_coeff must be > 0, got {brightness_coeff!r}")
    if method not in SNOW_METHODS:
        raise ValueError(f"{who}: method must be 'bleach', got {method!r} (Albumentations' 'texture' method is not "
                         "available here yet: docs/augmentations.md says why)")
    _check_probability(probability)
    return point


def random_snow(images: Images, snow_point_range: Tuple[float, float] = (0.1, 0.3), brightness_coeff: float = 2.5,
                method: str = "bleach", probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' RandomSnow, "bleach" method: with probability `probability` per sample,
    pixels whose OpenCV 8-bit HLS lightness L is below 127.5 p + 85 (p uniform in
    `snow_point_range`) get L = int(min(L x brightness_coeff, 255)), back through OpenCV's 8-bit
    HLS; other pixels keep their bytes (Albumentations sends them through the 8-bit HLS round
    trip too, which moves some by a level or two).

    Args:
      images: uint8 `[B, H, W, 3]`.
      snow_point_range: (min, max) snow point within [0, 1]; higher bleaches more.
      brightness_coeff: lightness multiplier of the bleached pixels, > 0.
      method: "bleach".
      probability: per-sample probability.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    point = check_snow_args(snow_point_range, brightness_coeff, method, probability)
    images, n, seeds, _, _ = _weather_draws(images, seed, 2, "RandomSnow")
    point = _uniform(seeds[0], [n], *point)
    apply = tf.random.stateless_uniform([n], seeds[1]) < probability
    return snowed(images, point, brightness_coeff, apply)


def snowed(images: tf.Tensor, snow_point: tf.Tensor, brightness_coeff: float,
           apply: Optional[tf.Tensor] = None) -> tf.Tensor:
    """RandomSnow's bleach with snow point `[B]` where `apply` `[B]` (None: everywhere) says:
    a lightness table per sample (L < 127.5 p + 85: int(min(L coeff, 255)); else keep the
    pixel), one HlsLightness pass."""
    threshold = snow_point * (255.0 / 2.0) + 255.0 / 3.0
    lightness = _identity_row()[None, :]
    bleach = lightness < threshold[:, None]
    if apply is not None:
        bleach &= apply[:, None]
    tables = tf.where(bleach, tf.floor(tf.minimum(lightness * brightness_coeff, 255.0)), -1.0)
    return hls_lightness(images, tf.cast(tables, tf.int32))


# --- RandomGravel -------------------------------------------------------------------------------

def check_gravel_args(gravel_roi, number_of_patches, probability):
    roi = _check_roi("gravel_roi", gravel_roi, "RandomGravel", strict=True)
    if not isinstance(number_of_patches, int) or not 1 <= number_of_patches <= 64:
        raise ValueError(f"RandomGravel: number_of_patches must be a whole number in [1, 64], "
                         f"got {number_of_patches!r}")
    _check_probability(probability)
    return roi


def random_gravel(images: Images, gravel_roi: Sequence[float] = (0.1, 0.4, 0.9, 0.9), number_of_patches: int = 2,
                  probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' RandomGravel: with probability `probability` per sample, `number_of_patches`
    patches inside `gravel_roi` (side randint(roi // 10, roi // 5), corner randint within the
    ROI, Python's randint: both ends included), each with (w h) // 100 particles: a centre
    randint in the patch, r randint(1, 3), a level randint(0, 255) written into OpenCV's 8-bit
    HLS lightness over rows max(y - r, 0) .. min(y + r, H - 1) and columns likewise (upper ends
    excluded, as Albumentations' slices), later particles over earlier ones; covered pixels back
    through 8-bit HLS, the others keep their bytes.

    Args:
      images: uint8 `[B, H, W, 3]`.
      gravel_roi: (x_min, y_min, x_max, y_max) fractions, min < max.
      number_of_patches: patches per sample.
      probability: per-sample probability.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    roi = check_gravel_args(gravel_roi, number_of_patches, probability)
    images, n, seeds, height, width = _weather_draws(images, seed, 9, "RandomGravel")
    x_min, y_min, x_max, y_max = _roi_pixels(roi, height, width)
    roi_w, roi_h = x_max - x_min, y_max - y_min
    patches = [n, number_of_patches]
    patch_w = _randint(seeds[0], patches, roi_w // 10, roi_w // 5)
    patch_h = _randint(seeds[1], patches, roi_h // 10, roi_h // 5)
    patch_x = _randint(seeds[2], patches, x_min, x_max - patch_w)
    patch_y = _randint(seeds[3], patches, y_min, y_max - patch_h)
    count = patch_w * patch_h // 100
    most = tf.maximum((roi_w // 5) * (roi_h // 5) // 100, 1)
    shape = tf.stack([n, number_of_patches, most])
    x = _randint(seeds[4], shape, patch_x[..., None], (patch_x + patch_w)[..., None])
    y = _randint(seeds[5], shape, patch_y[..., None], (patch_y + patch_h)[..., None])
    r = _randint(seeds[6], shape, 1, 3)
    level = tf.cast(_randint(seeds[7], shape, 0, 255), tf.float32)
    valid = tf.range(most) < count[..., None]
    flat = lambda t: tf.reshape(t, [n, -1])  # noqa: E731  (patch by patch: Albumentations' write order)
    apply = tf.random.stateless_uniform([n], seeds[8]) < probability
    return graveled(images, flat(x), flat(y), flat(r), flat(level), flat(valid) & apply[:, None])


def graveled(images: tf.Tensor, x, y, r, level, valid) -> tf.Tensor:
    """Particles `[B, M]` in write order (int32 centre x, y and half side r, float32 lightness
    level, bool valid) written into OpenCV's 8-bit HLS lightness as RandomGravel says: the last
    writer's level per pixel, one HlsLightness pass."""
    height, width = tf.shape(images)[1], tf.shape(images)[2]
    # Each particle's rows y - r .. y + r - 1 (clipped to [0, H - 1)) as spans of its columns.
    dy = tf.range(-3, 3)
    rows = y[..., None] + dy
    on_row = valid[..., None] & (dy >= -r[..., None]) & (dy < r[..., None]) & (rows >= 0) & (rows < height - 1)
    left = tf.maximum(x - r, 0)[..., None] + 0 * dy
    right = (tf.minimum(x + r, width - 1) - 1)[..., None] + 0 * dy
    # Painted in write order, the last particle's level wins; -1 (no particle) keeps the bytes.
    levels = tf.broadcast_to(tf.cast(level, tf.int32)[..., None], tf.shape(rows))
    spans = raster.flat_spans(tf.where(on_row, rows, -1), left, right + 1, levels)
    written = raster.span_raster(*spans, height, width, combine="last", fill=-1)
    return hls_lightness(images, -tf.ones([1, 256], tf.int32), written)


# --- RandomFog ----------------------------------------------------------------------------------

FOG_ROUNDS = 10  # Albumentations' max_iterations
FOG_TABLE_ROWS = 256  # a level stops moving after fewer repeated blends than this (test_weather checks it)


def check_fog_args(fog_coef_range, alpha_coef, probability):
    coef = check_range("RandomFog: fog_coef_range", tuple(fog_coef_range), 0.0, 1.0)
    if not 0.0 <= alpha_coef <= 1.0:
        raise ValueError(f"RandomFog: alpha_coef must be in [0, 1], got {alpha_coef!r}")
    _check_probability(probability)
    return coef


def fog_blend_tables(alpha: tf.Tensor, rows: int = FOG_TABLE_ROWS) -> tf.Tensor:
    """`[B, rows, 256]` float32: level v after k blends with white, each
    round(255 alpha + v (1 - alpha)) in float32 as cv2.addWeighted, for alpha `[B]`."""
    alpha = tf.cast(alpha, tf.float32)[:, None]
    start = tf.tile(tf.range(256, dtype=tf.float32)[None, :], tf.stack([tf.shape(alpha)[0], 1]))
    steps = tf.scan(lambda v, _: tf.round(255.0 * alpha + v * (1.0 - alpha)), tf.range(rows - 1),
                    initializer=start)
    return tf.transpose(tf.concat([start[None], steps], 0), [1, 0, 2])


def _fog_particles(seeds, n, height, width, intensity):
    """Albumentations' fog particles: centres and radii `[B, P]` and which of them exist."""
    w, h = tf.cast(width, tf.float64), tf.cast(height, tf.float64)
    intensity = tf.cast(intensity, tf.float64)
    size = tf.maximum(tf.floor(tf.floor(w / 3.0) * intensity), 1.0)
    cx, cy = _int_of(w / 2.0 - 0.5), _int_of(h / 2.0 - 0.5)
    region_w, region_h, counts = [w], [h], []
    for _ in range(FOG_ROUNDS):
        active = (region_w[-1] > size) & (region_h[-1] > size)
        particles = tf.floor(region_w[-1] * region_h[-1] / (size * size) * intensity * 10.0)
        counts.append(tf.where(active, tf.cast(particles, tf.int32), 0))
        region_w.append(tf.floor(region_w[-1] * 0.9))
        region_h.append(tf.floor(region_h[-1] * 0.9))
    # A round runs only while every earlier one did (the regions shrink, so the test says it).
    ends = tf.cumsum(tf.stack(counts, 1), axis=1)  # [B, rounds]
    total = ends[:, -1]
    most = tf.maximum(tf.reduce_max(total), 1)
    j = tf.range(most)
    round_of = tf.reduce_sum(tf.cast(j[None, :, None] >= ends[:, None, :], tf.int32), 2)  # [B, P]
    half_w = tf.gather(_int_of(tf.stack(region_w[:FOG_ROUNDS])) // 2, tf.minimum(round_of, FOG_ROUNDS - 1))
    half_h = tf.gather(_int_of(tf.stack(region_h[:FOG_ROUNDS])) // 2, tf.minimum(round_of, FOG_ROUNDS - 1))
    shape = tf.stack([n, most])
    x = _randint(seeds[0], shape, cx - half_w, cx + half_w)
    y = _randint(seeds[1], shape, cy - half_h, cy + half_h)
    largest = tf.maximum(2, _int_of(tf.cast(tf.minimum(height, width), tf.float64) * 0.1 * intensity))
    smallest = tf.maximum(1, largest // 2)
    radius = _randint(seeds[2], shape, smallest[:, None], largest[:, None] - 1)
    return x, y, radius, j[None, :] < total[:, None]


def random_fog(images: Images, fog_coef_range: Tuple[float, float] = (0.3, 1.0), alpha_coef: float = 0.08,
               probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' RandomFog: with probability `probability` per sample, intensity f uniform
    in `fog_coef_range`; its particles (rounds of shrinking centred regions, as many per round as
    Albumentations draws, radii randint in [max(1, m // 2), m), m = max(2, int(0.1 f min(H, W))))
    each blend white over the disc they cover with alpha = alpha_coef f, rounded after each
    blend as cv2.addWeighted; then cv2.GaussianBlur of side max(3, min(H, W) // 30) made odd
    (at most 63). Each pixel's value depends only on how many discs cover it, so the blends are
    one table lookup per pixel.

    Args:
      images: uint8 `[B, H, W, 3]`.
      fog_coef_range: (min, max) fog intensity within [0, 1].
      alpha_coef: transparency of each fog disc, within [0, 1].
      probability: per-sample probability.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    coef = check_fog_args(fog_coef_range, alpha_coef, probability)
    images, n, seeds, height, width = _weather_draws(images, seed, 5, "RandomFog")
    intensity = _uniform(seeds[0], [n], *coef)
    apply = tf.random.stateless_uniform([n], seeds[1]) < probability
    x, y, radius, valid = _fog_particles(seeds[2:], n, height, width, intensity)
    return fogged(images, x, y, radius, valid & apply[:, None], alpha_coef * intensity, apply)


def fogged(images: tf.Tensor, x, y, radius, valid, alpha: tf.Tensor, apply: tf.Tensor) -> tf.Tensor:
    """Fog discs `[B, P]` (int32 centres, radii; bool valid) blended white with alpha `[B]`, then
    cv2.GaussianBlur'd where `apply` `[B]` says: uint8."""
    from tfgpuaug.augment.kernel_blurs import _identity_where_skipped, filter2d
    n, height, width = tf.shape(images)[0], tf.shape(images)[1], tf.shape(images)[2]
    largest = tf.reduce_max(tf.where(valid, radius, 0))
    covers = raster.disc_counts(x, y, radius, valid, largest, height, width)
    tables = tf.cast(fog_blend_tables(alpha), tf.uint8)[:, :, None, :]
    blended = level_tables(images, tables, tf.minimum(covers, FOG_TABLE_ROWS - 1))
    side = tf.maximum(3, tf.minimum(height, width) // 30)
    side = tf.minimum(side + (1 - side % 2), 63)
    kernel = tf.tile(kernel_8bit_of_side(side, 63)[None], tf.stack([n, 1, 1]))
    return filter2d(blended, _identity_where_skipped(kernel, apply), ties_up=True)  # cv2.GaussianBlur's rounding
