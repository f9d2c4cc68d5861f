"""Each augmentation alone, with explicit per-sample parameters in natural units, PIL's
conventions (positive degrees rotate counter-clockwise; shear and translate as
`Image.transform` with an AFFINE matrix; geometric fill 128). Parameters are scalars or
`[B]` tensors. All run the batched augment kernel with one stage."""
from __future__ import annotations


import tensorflow as tf

from tfgpuaug import _checks, _loader


def _op_ids() -> dict:
    """name -> id, read from the op library (cc/kernels/augment/augment.h's table), not copied."""
    with tf.init_scope():  # eager even when imported inside a graph or tf.function
        names = _loader.ops().tf_gpu_aug_augment_op_names().numpy()
    return {name.decode(): i for i, name in enumerate(names)}


OP_IDS = _op_ids()
INTERPOLATIONS = ("nearest", "bilinear")


def check_images(images) -> tf.Tensor:
    images = tf.convert_to_tensor(images)
    if images.dtype != tf.uint8:
        raise TypeError(
            f"augmentations take uint8 images (0..255), got {images.dtype.name}: cast first, "
            "tf.cast(tf.clip_by_value(tf.round(x), 0, 255), tf.uint8) for 0..255 floats, "
            "tf.image.convert_image_dtype(x, tf.uint8, saturate=True) for [0, 1]; in a Keras model, declare "
            "the input keras.Input(shape, dtype=\"uint8\") (Keras casts float inputs otherwise)")
    _checks.static_rank("images", images, (4,))
    if images.shape[-1] is not None and images.shape[-1] not in (1, 3, 4):
        raise ValueError(f"images need 1, 3 or 4 channels, got {images.shape[-1]}")
    return images


def apply_stages(images, op_ids, magnitudes, aux=None, fill_value: float = 128.0,
                 interpolation: str = "bilinear") -> tf.Tensor:
    """The batched kernel: `op_ids` and `magnitudes` `[B, K]`, `aux` `[B, K, 2]` uniforms."""
    images = check_images(images)
    _checks.one_of("interpolation", interpolation, INTERPOLATIONS)
    op_ids = tf.cast(op_ids, tf.int32)
    magnitudes = tf.cast(magnitudes, tf.float32)
    if aux is None:
        aux = tf.zeros(tf.concat([tf.shape(op_ids), [2]], 0), tf.float32)
    return _loader.ops().tf_gpu_aug_augment(images, op_ids, magnitudes, tf.cast(aux, tf.float32),
                                            fill_value=float(fill_value), interpolation=interpolation)


def _single(name: str, images, param=0.0, aux=None, fill_value=128.0, interpolation="bilinear"):
    images = check_images(images)
    n = tf.shape(images)[0]
    param = tf.broadcast_to(tf.cast(param, tf.float32), [n])
    ids = tf.fill([n, 1], OP_IDS[name])
    aux = None if aux is None else tf.reshape(tf.cast(aux, tf.float32), [n, 1, 2])
    return apply_stages(images, ids, param[:, None], aux, fill_value, interpolation)


def identity(images):
    return _single("identity", images)


def auto_contrast(images):
    """ImageOps.autocontrast: stretch each channel's [min, max] to [0, 255]."""
    return _single("auto_contrast", images)


def equalize(images):
    """ImageOps.equalize, per channel."""
    return _single("equalize", images)


def invert(images):
    return _single("invert", images)


def grayscale(images):
    """Luma (PIL convert('L')) replicated to every colour channel."""
    return _single("grayscale", images)


def rotate(images, degrees, fill_value=128.0, interpolation="bilinear"):
    """Image.rotate: counter-clockwise about the centre, same size, corners filled."""
    return _single("rotate", images, degrees, None, fill_value, interpolation)


def shear_x(images, factor, fill_value=128.0, interpolation="bilinear"):
    """Image.transform AFFINE (1, factor, 0, 0, 1, 0)."""
    return _single("shear_x", images, factor, None, fill_value, interpolation)


def shear_y(images, factor, fill_value=128.0, interpolation="bilinear"):
    """Image.transform AFFINE (1, 0, 0, factor, 1, 0)."""
    return _single("shear_y", images, factor, None, fill_value, interpolation)


def translate_x(images, pixels, fill_value=128.0, interpolation="bilinear"):
    """Image.transform AFFINE (1, 0, pixels, 0, 1, 0): content moves left for positive pixels."""
    return _single("translate_x", images, pixels, None, fill_value, interpolation)


def translate_y(images, pixels, fill_value=128.0, interpolation="bilinear"):
    return _single("translate_y", images, pixels, None, fill_value, interpolation)


def brightness(images, factor):
    """ImageEnhance.Brightness."""
    return _single("brightness", images, factor)


def color(images, factor):
    """ImageEnhance.Color (saturation by blending with the luma image)."""
    return _single("color", images, factor)


def contrast(images, factor):
    """ImageEnhance.Contrast (blend with the mean luma)."""
    return _single("contrast", images, factor)


def sharpness(images, factor):
    """ImageEnhance.Sharpness (blend with ImageFilter.SMOOTH; borders unchanged)."""
    return _single("sharpness", images, factor)


def posterize(images, bits):
    """ImageOps.posterize: keep the `bits` high bits."""
    return _single("posterize", images, bits)


def solarize(images, threshold):
    """ImageOps.solarize: invert pixels >= threshold."""
    return _single("solarize", images, threshold)


def solarize_add(images, addition):
    """Add `addition` to pixels below 128, saturating (AutoAugment's SolarizeAdd)."""
    return _single("solarize_add", images, addition)


def cutout(images, size, centers=None, fill_value=128.0, seed=None):
    """Fill a `size` x `size` square per sample, centred at `centers` ([B, 2] fractions of
    (height, width)) or at uniform random centres drawn from `seed`."""
    images = check_images(images)
    n = tf.shape(images)[0]
    if centers is None:
        if seed is None:
            raise ValueError("cutout needs centers or a seed")
        from tfgpuaug.geometry import _seed_tensor
        centers = tf.random.stateless_uniform([n, 2], _seed_tensor(seed))
    return _single("cutout", images, size, centers, fill_value)


def hue(images, delta):
    """tf.image.adjust_hue: rotate hue by `delta` turns (in [-1, 1])."""
    return _single("hue", images, delta)


def saturation(images, factor):
    """tf.image.adjust_saturation: scale HSV saturation."""
    return _single("saturation", images, factor)


def iso_noise(images, intensity, color_shift, seed=None):
    """Albumentations' ISONoise with fixed numbers (scalars or `[B]`): in OpenCV's float HLS the
    hue plus N(0, color_shift * intensity) degrees, the lightness plus Poisson(std(L) *
    intensity) * intensity * (1 - L); RGB(A) images, the noise stream from `seed`."""
    images = check_images(images)
    n = tf.shape(images)[0]
    if seed is None:
        raise ValueError("iso_noise needs a seed")
    from tfgpuaug.geometry import _seed_tensor
    stream = tf.random.stateless_uniform([n], _seed_tensor(seed))
    shift = tf.broadcast_to(tf.cast(color_shift, tf.float32), [n])
    return _single("iso_noise", images, intensity, tf.stack([stream, shift], axis=1))


def clahe_grid_aux(tile_grid_size, n):
    """clahe's aux numbers for each of `n` samples: the tiles across, then down."""
    return tf.tile(tf.constant([[float(tile_grid_size[0]), float(tile_grid_size[1])]]), [n, 1])


def tone_curve_channels(n, channels):
    """tone_curve's second aux number for `channels` stages of `n` samples: stage k changes
    channel k, named k + 1 (0 would change every channel)."""
    return tf.broadcast_to(tf.range(1, channels + 1, dtype=tf.float32)[None], [n, channels])


def clahe(images, clip_limit, tile_grid_size=(8, 8)):
    """OpenCV's CLAHE (cv2.createCLAHE(clip_limit, tile_grid_size).apply) with a fixed clip limit
    (a scalar or `[B]`): on the L of OpenCV's 8-bit L*a*b* for RGB(A), the channel itself for
    gray. `tile_grid_size` is (tiles across, tiles down), each 1 .. 16, OpenCV's order."""
    from tfgpuaug.augment.photometric import check_clahe_args
    check_clahe_args((0.0, 0.0), tuple(tile_grid_size), 0.0)
    images = check_images(images)
    n = tf.shape(images)[0]
    return _single("clahe", images, clip_limit, clahe_grid_aux(tile_grid_size, n))


def gaussian_blur(images, sigma):
    """Gaussian blur with standard deviation `sigma` pixels (radius ceil(3 sigma), at most
    16; reflect-101 borders, as OpenCV's default and numpy's "reflect"); sigma <= 0 keeps
    the image."""
    return _single("gaussian_blur", images, sigma)


def gaussian_noise(images, stddev, seed=None):
    """Add N(0, stddev^2) noise per pixel (levels), saturating; the stream comes from `seed`."""
    images = check_images(images)
    n = tf.shape(images)[0]
    if seed is None:
        raise ValueError("gaussian_noise needs a seed")
    from tfgpuaug.geometry import _seed_tensor
    aux = tf.random.stateless_uniform([n, 2], _seed_tensor(seed))
    return _single("gaussian_noise", images, stddev, aux)


def gamma(images, gamma):
    """255 * (v / 255) ** gamma per channel, rounded (a lookup table); gamma <= 0 keeps the
    image. Albumentations' RandomGamma truncates the same values instead of rounding, so it is
    at most one level lower."""
    return _single("gamma", images, gamma)


def channel_shuffle(images, permutation):
    """Reorder the RGB channels: `permutation` (scalar or `[B]` integers, mod 6) picks one of
    the six orders, lexicographically (0: RGB, 1: RBG, 2: GRB, 3: GBR, 4: BRG, 5: BGR); output
    channel k is input channel order[k]. Gray images and alpha are kept."""
    return _single("channel_shuffle", images, permutation)


def rgb_shift(images, shifts):
    """Add `shifts` (`[3]` or `[B, 3]` levels for red, green, blue, rounded to integers) to the
    colour channels, saturating. Gray images and alpha are kept."""
    images = check_images(images)
    n = tf.shape(images)[0]
    shifts = tf.broadcast_to(tf.cast(shifts, tf.float32), [n, 3])
    return _single("rgb_shift", images, shifts[:, 0], shifts[:, 1:])


def _with_amount(name: str, images, alpha, amount, base: float):
    images = check_images(images)
    n = tf.shape(images)[0]
    amount = tf.broadcast_to(tf.cast(amount, tf.float32), [n])
    return _single(name, images, alpha, tf.stack([amount - base, tf.zeros([n])], axis=1))


def sharpen(images, alpha, lightness=1.0):
    """Albumentations' Sharpen: the 3x3 kernel (1 - alpha) * identity + alpha * (-1 around
    8 + lightness), reflect-101 border, every channel, rounded and saturated. `alpha` in
    [0, 1] and `lightness` in [0.5, 1.5] (scalars or `[B]`), clamped."""
    return _with_amount("sharpen", images, alpha, lightness, 0.5)


def emboss(images, alpha, strength=0.5):
    """Albumentations' Emboss: the 3x3 kernel (1 - alpha) * identity + alpha * the relief
    [[-1-s, -s, 0], [-s, 1, s], [0, s, 1+s]] of strength s, reflect-101 border, every channel.
    `alpha` in [0, 1] and `strength` in [0.2, 1.2] (scalars or `[B]`), clamped."""
    return _with_amount("emboss", images, alpha, strength, 0.2)


def median_blur(images, size):
    """The median of each pixel's `size` x `size` window per channel (odd, 3..7; even sizes
    round down to odd, below 2 keeps the image), border replicated (OpenCV's medianBlur)."""
    return _single("median_blur", images, size)


def motion_blur(images, length, angle):
    """The mean of `length` pixels (3..31, clamped; below 2 keeps the image) along a line
    through each pixel at `angle` degrees counter-clockwise from the x axis (scalars or `[B]`),
    offsets rounded to whole pixels, reflect-101 border."""
    images = check_images(images)
    n = tf.shape(images)[0]
    turn = tf.math.floormod(tf.broadcast_to(tf.cast(angle, tf.float32), [n]), 360.0) / 360.0
    # The kernel's y axis points down: counter-clockwise on screen is a negative y step.
    return _single("motion_blur", images, length, tf.stack([1.0 - turn, tf.zeros([n])], axis=1))


def downscale(images, scale):
    """Albumentations' Downscale with its default nearest / nearest pair (OpenCV's resize):
    down to round(size * scale) pixels a side, half to even, then back up. `scale` in (0, 1)
    (scalar or `[B]`); other values keep the image."""
    return _single("downscale", images, scale)


def hsv_shift(images, hue_shift, sat_shift, val_shift):
    """Albumentations' HueSaturationValue with fixed shifts (scalars or `[B]`): in OpenCV's 8-bit
    HSV, hue + `hue_shift` modulo 180 (OpenCV's units, 2 degrees each; floored), saturation and
    value + their shifts in levels (truncated toward zero, saturating; gray pixels stay gray),
    back to RGB as OpenCV 4. Gray images get the value shift alone; alpha is kept."""
    images = check_images(images)
    n = tf.shape(images)[0]
    sat = tf.broadcast_to(tf.cast(sat_shift, tf.float32), [n])
    val = tf.broadcast_to(tf.cast(val_shift, tf.float32), [n])
    return _single("hsv_shift", images, hue_shift, tf.stack([sat, val], axis=1))


def tone_curve(images, low, high):
    """Albumentations' RandomToneCurve with fixed control points (clamped to [0, 1]): the cubic
    Bezier from (0, 0) to (1, 1) with control heights `low` and `high`, as a lookup table,
    rounded half to even. Scalars or `[B]`: one curve on every channel; `[B, C]` (both): one
    curve per channel (Albumentations' per_channel), one kernel stage per channel."""
    images = check_images(images)
    n = tf.shape(images)[0]
    low, high = tf.cast(low, tf.float32), tf.cast(high, tf.float32)
    if low.shape.rank != 2 and high.shape.rank != 2:
        high = tf.broadcast_to(high, [n])
        return _single("tone_curve", images, low, tf.stack([high, tf.zeros([n])], axis=1))
    channels = tf.shape(images)[3]
    low, high = tf.broadcast_to(low, [n, channels]), tf.broadcast_to(high, [n, channels])
    ids = tf.fill([n, channels], OP_IDS["tone_curve"])
    return apply_stages(images, ids, low, tf.stack([high, tone_curve_channels(n, channels)], axis=2))

