"""Per-sample random photometric augmentations that Albumentations and torchvision users look
for by name: random gamma, channel shuffle and RGB shift. Each draws its parameters per sample
in the graph (stateless, from `seed`) and runs one stage of the fused augment kernel (the same
`__host__ __device__` math on the CPU and the GPU); samples not drawn get the identity stage.
"""
from __future__ import annotations

from typing import Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug._types import Images, Seed

Range = Tuple[float, float]
# The augmented images, or with return_plan also the kernel stages ([B, 1] op ids, parameters).
Output = Union[tf.Tensor, Tuple[tf.Tensor, tf.Tensor, tf.Tensor]]


def _check_probability(probability: float) -> None:
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {probability}")


def check_gamma_args(gamma: Range, probability: float) -> None:
    if len(gamma) != 2 or not 0.0 < gamma[0] <= gamma[1]:
        raise ValueError(f"gamma must be (min, max) with 0 < min <= max, got {gamma} (Albumentations' "
                         "gamma_limit=(80, 120) is gamma=(0.8, 1.2))")
    _check_probability(probability)


def check_rgb_shift_args(shift: Sequence[Range], probability: float) -> None:
    if len(shift) != 3 or any(len(r) != 2 or not -255.0 <= r[0] <= r[1] <= 255.0 for r in shift):
        raise ValueError(f"shift must be three (min, max) ranges in levels, within [-255, 255], for red, green and "
                         f"blue, got {shift}")
    _check_probability(probability)


def rgb_shift_ranges(shift: Union[float, Sequence]) -> Tuple[Range, Range, Range]:
    """A shift argument as three (min, max) ranges: one number s means (-s, s) for every channel,
    three numbers one symmetric range each, three pairs are taken as they are."""
    if isinstance(shift, (int, float)):
        shift = (shift,) * 3
    shift = tuple(shift)
    if len(shift) != 3:
        raise ValueError(f"shift must be one number, three numbers or three (min, max) ranges, got {shift}")
    return tuple((-float(s), float(s)) if isinstance(s, (int, float)) else (float(s[0]), float(s[1]))
                 for s in shift)


def _one_stage(images, name: str, params: tf.Tensor, apply: tf.Tensor, aux=None, return_plan: bool = False):
    from tfgpuaug.augment.ops import OP_IDS, apply_stages
    op_ids = tf.where(apply, OP_IDS[name], OP_IDS["identity"])[:, None]
    params = tf.where(apply, params, 0.0)
    aux = None if aux is None else tf.where(apply[:, None], aux, 0.0)[:, None, :]
    out = apply_stages(images, op_ids, params[:, None], aux)
    return (out, op_ids, params[:, None]) if return_plan else out


def _draws(images, seed, count: int):
    from tfgpuaug.augment.ops import check_images
    from tfgpuaug.geometry import _seed_tensor
    images = check_images(images)
    seeds = tf.unstack(tf.random.experimental.stateless_split(_seed_tensor(seed), count))
    return images, tf.shape(images)[0], seeds


def random_gamma(images: Images, gamma: Range = (0.8, 1.2), probability: float = 0.5, seed: Seed = None,
                 return_plan: bool = False) -> Output:
    """`255 * (v / 255) ** g` per sample, `g` uniform in `gamma`, with probability
    `probability` (Albumentations' RandomGamma; its table truncates, this one rounds).

    Args:
      images: uint8 `[B, H, W, C]`, 1, 3 or 4 channels (every channel, alpha too, as Albumentations).
      gamma: (min, max) exponent.
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    check_gamma_args(tuple(gamma), probability)
    images, n, (s_value, s_apply) = _draws(images, seed, 2)
    g = tf.random.stateless_uniform([n], s_value, gamma[0], gamma[1])
    return _one_stage(images, "gamma", g, tf.random.stateless_uniform([n], s_apply) < probability,
                      return_plan=return_plan)


def channel_shuffle(images: Images, probability: float = 0.5, seed: Seed = None,
                    return_plan: bool = False) -> Output:
    """The RGB channels of a sample in one of their six orders, uniformly (the identity order
    included, as Albumentations' ChannelShuffle), with probability `probability`.

    Args:
      images: uint8 `[B, H, W, C]`; gray images and alpha are left alone.
      probability: probability that a sample is shuffled.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    _check_probability(probability)
    images, n, (s_value, s_apply) = _draws(images, seed, 2)
    order = tf.cast(tf.random.stateless_uniform([n], s_value, 0, 6, dtype=tf.int32), tf.float32)
    return _one_stage(images, "channel_shuffle", order, tf.random.stateless_uniform([n], s_apply) < probability,
                      return_plan=return_plan)


def rgb_shift(images: Images, shift: Union[float, Sequence] = 20.0, probability: float = 0.5, seed: Seed = None,
              return_plan: bool = False) -> Output:
    """Add a shift per colour channel, uniform in its range and rounded to whole levels,
    saturating, with probability `probability` (Albumentations' RGBShift with
    r/g/b_shift_limit in levels).

    Args:
      images: uint8 `[B, H, W, C]`; gray images and alpha are left alone.
      shift: one number s (every channel in [-s, s]), three numbers, or three (min, max) ranges,
        in levels, for red, green and blue.
      probability: probability that a sample is shifted.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    ranges = rgb_shift_ranges(shift)
    check_rgb_shift_args(ranges, probability)
    return three_shift_stage(images, "rgb_shift", ranges, probability, seed, return_plan)


def three_shift_stage(images, name: str, ranges: Sequence[Range], probability: float, seed: Seed,
                      return_plan: bool) -> Output:
    """One stage of op `name` whose three per-sample values are uniform in `ranges`: the first
    is the stage's parameter, the other two its aux numbers (rgb_shift, hsv_shift)."""
    images, n, (s_value, s_apply) = _draws(images, seed, 2)
    low = tf.constant([r[0] for r in ranges], tf.float32)
    high = tf.constant([r[1] for r in ranges], tf.float32)
    shifts = low + (high - low) * tf.random.stateless_uniform([n, 3], s_value)
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    return _one_stage(images, name, shifts[:, 0], apply, aux=shifts[:, 1:], return_plan=return_plan)


def check_range(name: str, values: Range, low: float, high: float = float("inf")) -> Range:
    """`values` as a (min, max) pair of floats within [low, high], or a ValueError naming `name`."""
    if len(values) != 2 or not low <= values[0] <= values[1] <= high:
        raise ValueError(f"{name} must be (min, max) with {low} <= min <= max <= {high}, got {values}")
    return float(values[0]), float(values[1])


def to_gray(images: Images, probability: float = 0.5, seed: Seed = None, return_plan: bool = False) -> Output:
    """A sample's RGB replaced by its luma (PIL's convert("L") weights) in every colour channel,
    with probability `probability` (Albumentations' ToGray, torchvision's RandomGrayscale).

    Args:
      images: uint8 `[B, H, W, C]`; gray images and alpha are left alone.
      probability: probability that a sample turns gray.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    return parameterless_stage(images, "grayscale", probability, seed, return_plan)


def parameterless_stage(images, name: str, probability: float, seed: Seed, return_plan: bool) -> Output:
    """One stage of op `name`, which takes no parameter, in samples drawn with `probability`."""
    _check_probability(probability)
    images, n, (s_apply,) = _draws(images, seed, 1)
    return _one_stage(images, name, tf.zeros([n]), tf.random.stateless_uniform([n], s_apply) < probability,
                      return_plan=return_plan)


def random_gaussian_blur(images: Images, sigma: Range = (0.1, 2.0), probability: float = 0.5, seed: Seed = None,
                         return_plan: bool = False) -> Output:
    """Gaussian blur with a per-sample sigma uniform in `sigma` pixels (radius ceil(3 sigma),
    at most 16; reflect-101 borders), with probability `probability` (torchvision's
    GaussianBlur sigma range; Albumentations' GaussianBlur sigma_limit).

    Args:
      images: uint8 `[B, H, W, C]`, every channel blurred.
      sigma: (min, max) standard deviation in pixels, min > 0.
      probability: probability that a sample is blurred.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    check_range("sigma", tuple(sigma), 1e-3)
    _check_probability(probability)
    images, n, (s_value, s_apply) = _draws(images, seed, 2)
    s = tf.random.stateless_uniform([n], s_value, sigma[0], sigma[1])
    return _one_stage(images, "gaussian_blur", s, tf.random.stateless_uniform([n], s_apply) < probability,
                      return_plan=return_plan)


def random_gaussian_noise(images: Images, std: Range = (5.0, 25.0), probability: float = 0.5, seed: Seed = None,
                          return_plan: bool = False) -> Output:
    """Add N(0, s^2) noise per pixel and channel, `s` uniform in `std` levels per sample,
    saturating, with probability `probability` (Albumentations' GaussNoise, std in levels;
    torchvision's GaussianNoise on uint8). The noise stream of a sample comes from the seed.

    Args:
      images: uint8 `[B, H, W, C]`, every channel.
      std: (min, max) standard deviation in levels (0..255).
      probability: probability that a sample gets noise.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    check_range("std", tuple(std), 0.0, 255.0)
    _check_probability(probability)
    images, n, (s_value, s_apply, s_stream) = _draws(images, seed, 3)
    s = tf.random.stateless_uniform([n], s_value, std[0], std[1])
    return _one_stage(images, "gaussian_noise", s, tf.random.stateless_uniform([n], s_apply) < probability,
                      aux=tf.random.stateless_uniform([n, 2], s_stream), return_plan=return_plan)


def check_iso_noise_args(color_shift: Range, intensity: Range, probability: float) -> None:
    check_range("color_shift", tuple(color_shift), 0.0, 1.0)
    check_range("intensity", tuple(intensity), 0.0, 10.0)
    _check_probability(probability)


def random_iso_noise(images: Images, color_shift: Range = (0.01, 0.05), intensity: Range = (0.1, 0.5),
                     probability: float = 0.5, seed: Seed = None, return_plan: bool = False) -> Output:
    """Albumentations' ISONoise per sample (camera sensor noise): in OpenCV's float HLS, each
    pixel's hue moves by N(0, color_shift * intensity) degrees and its lightness L by
    Poisson(std(L) * intensity) * intensity * (1 - L), std(L) the image's lightness deviation;
    back to RGB, rounded. `color_shift` and `intensity` are uniform in their ranges per sample;
    applied with probability `probability`. The noise stream of a sample comes from the seed.

    Args:
      images: uint8 `[B, H, W, C]` with C 3 (RGB) or 4 (RGBA: alpha kept).
      color_shift: (min, max) within [0, 1].
      intensity: (min, max) within [0, 10].
      probability: probability that a sample gets noise.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    check_iso_noise_args(color_shift, intensity, probability)
    images, n, (s_value, s_apply, s_stream) = _draws(images, seed, 3)
    if images.shape[-1] is not None and images.shape[-1] not in (3, 4):
        raise ValueError(f"ISONoise takes RGB or RGBA images, got {images.shape[-1]} channels")
    u = tf.random.stateless_uniform([n, 2], s_value)
    amount = intensity[0] + (intensity[1] - intensity[0]) * u[:, 0]
    shift = color_shift[0] + (color_shift[1] - color_shift[0]) * u[:, 1]
    aux = tf.stack([tf.random.stateless_uniform([n], s_stream), shift], axis=1)
    return _one_stage(images, "iso_noise", amount, tf.random.stateless_uniform([n], s_apply) < probability,
                      aux=aux, return_plan=return_plan)


def clahe_clip_range(clip_limit: Union[float, Range]) -> Range:
    """Albumentations' rule: one number c is the range (1, c)."""
    if isinstance(clip_limit, (int, float)):
        return (1.0, float(clip_limit))
    return tuple(float(v) for v in clip_limit)


def check_clahe_args(clip_limit: Range, tile_grid_size: Tuple[int, int], probability: float) -> None:
    check_range("clip_limit", tuple(clip_limit), 0.0, 256.0)
    if (len(tile_grid_size) != 2 or any(isinstance(t, bool) or not isinstance(t, int) for t in tile_grid_size)
            or not all(1 <= t <= 16 for t in tile_grid_size)):
        raise ValueError(f"tile_grid_size must be two integers in 1 .. 16 (tiles across the width, then down the "
                         f"height), got {tile_grid_size}")
    _check_probability(probability)


def random_clahe(images: Images, clip_limit: Union[float, Range] = 4.0, tile_grid_size: Tuple[int, int] = (8, 8),
                 probability: float = 0.5, seed: Seed = None, return_plan: bool = False) -> Output:
    """Albumentations' CLAHE per sample: contrast-limited adaptive histogram equalisation as
    OpenCV's cv::CLAHE computes it, on the L of OpenCV's 8-bit L*a*b* for RGB(A) images (converted
    back with OpenCV's integer steps; alpha kept) and on the channel itself for gray ones. The
    clip limit is uniform in `clip_limit` per sample; applied with probability `probability`.

    Args:
      images: uint8 `[B, H, W, C]`, C 1 (gray), 3 (RGB) or 4 (RGBA).
      clip_limit: (min, max) within [0, 256] (a limit <= 0 does not clip); one number c means
        (1, c), as Albumentations.
      tile_grid_size: (tiles across the width, tiles down the height), each 1 .. 16. This is how
        OpenCV reads the pair Albumentations passes it (its docstring says (rows, columns); the
        two agree for square grids such as the default).
      probability: probability that a sample is equalised.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    clip_limit = clahe_clip_range(clip_limit)
    check_clahe_args(clip_limit, tuple(tile_grid_size), probability)
    images, n, (s_value, s_apply) = _draws(images, seed, 2)
    limit = tf.random.stateless_uniform([n], s_value, clip_limit[0], clip_limit[1]) if clip_limit[0] < clip_limit[1] \
        else tf.fill([n], clip_limit[0])
    from tfgpuaug.augment.ops import clahe_grid_aux
    return _one_stage(images, "clahe", limit, tf.random.stateless_uniform([n], s_apply) < probability,
                      aux=clahe_grid_aux(tile_grid_size, n), return_plan=return_plan)


def random_sharpen(images: Images, alpha: Range = (0.2, 0.5), lightness: Range = (0.5, 1.0),
                   probability: float = 0.5, seed: Seed = None, return_plan: bool = False) -> Output:
    """Albumentations' Sharpen per sample: alpha and lightness uniform in their ranges, with
    probability `probability` (3x3 kernel, reflect-101 border, every channel).

    Args:
      images: uint8 `[B, H, W, C]`.
      alpha: (min, max) blend of the sharpened image, within [0, 1].
      lightness: (min, max) centre weight added to 8, within [0.5, 1.5].
      probability: probability that a sample is sharpened.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    return _relief(images, "sharpen", alpha, lightness, "lightness", 0.5, probability, seed, return_plan)


def random_emboss(images: Images, alpha: Range = (0.2, 0.5), strength: Range = (0.2, 0.7),
                  probability: float = 0.5, seed: Seed = None, return_plan: bool = False) -> Output:
    """Albumentations' Emboss per sample: alpha and strength uniform in their ranges, with
    probability `probability` (3x3 relief kernel, reflect-101 border, every channel).

    Args:
      images: uint8 `[B, H, W, C]`.
      alpha: (min, max) blend of the embossed image, within [0, 1].
      strength: (min, max) relief strength, within [0.2, 1.2].
      probability: probability that a sample is embossed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    return _relief(images, "emboss", alpha, strength, "strength", 0.2, probability, seed, return_plan)


def _relief(images, name, alpha, amount, amount_name, base, probability, seed, return_plan):
    check_range("alpha", tuple(alpha), 0.0, 1.0)
    check_range(amount_name, tuple(amount), base, base + 1.0)
    _check_probability(probability)
    images, n, (s_alpha, s_amount, s_apply) = _draws(images, seed, 3)
    a = tf.random.stateless_uniform([n], s_alpha, alpha[0], alpha[1])
    m = tf.random.stateless_uniform([n], s_amount, amount[0], amount[1]) - base
    return _one_stage(images, name, a, tf.random.stateless_uniform([n], s_apply) < probability,
                      aux=tf.stack([m, tf.zeros([n])], axis=1), return_plan=return_plan)


def check_odd_sizes(size: Tuple[int, int], high: int) -> Tuple[int, int]:
    """`size` as (min, max) odd window sides within [3, high], or a ValueError."""
    size = tuple(int(s) for s in size)
    if len(size) != 2 or not 3 <= size[0] <= size[1] <= high or size[0] % 2 == 0 or size[1] % 2 == 0:
        raise ValueError(f"size must be (min, max) odd window sides with 3 <= min <= max <= {high}, got {size}")
    return size


def _odd_side_stage(images, name: str, size: Tuple[int, int], probability: float, seed: Seed,
                    return_plan: bool) -> Output:
    """One stage of op `name` whose parameter is an odd window side drawn uniformly from `size`."""
    _check_probability(probability)
    images, n, (s_value, s_apply) = _draws(images, seed, 2)
    half = tf.random.stateless_uniform([n], s_value, size[0] // 2, size[1] // 2 + 1, dtype=tf.int32)
    return _one_stage(images, name, tf.cast(2 * half + 1, tf.float32),
                      tf.random.stateless_uniform([n], s_apply) < probability, return_plan=return_plan)


def random_median_blur(images: Images, size: Tuple[int, int] = (3, 7), probability: float = 0.5,
                       seed: Seed = None, return_plan: bool = False) -> Output:
    """Median blur per sample, the window side drawn uniformly from the odd sizes in `size`
    (Albumentations' MedianBlur blur_limit; OpenCV's medianBlur, border replicated), with
    probability `probability`.

    Args:
      images: uint8 `[B, H, W, C]`, every channel.
      size: (min, max) odd window sides within [3, 7].
      probability: probability that a sample is blurred.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    return _odd_side_stage(images, "median_blur", check_odd_sizes(size, 7), probability, seed, return_plan)


def random_blur(images: Images, size: Tuple[int, int] = (3, 7), probability: float = 0.5, seed: Seed = None,
                return_plan: bool = False) -> Output:
    """Box blur per sample: the mean of each pixel's side x side window, rounded to the nearest
    level (an odd side never gives a tie), reflect-101 border, as OpenCV's blur, which
    Albumentations' Blur calls; the side drawn uniformly from the odd sizes in `size`, with
    probability `probability`.

    Args:
      images: uint8 `[B, H, W, C]`, every channel.
      size: (min, max) odd window sides within [3, 15] (Albumentations' `blur_limit`).
      probability: probability that a sample is blurred.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    return _odd_side_stage(images, "box_blur", check_odd_sizes(size, 15), probability, seed, return_plan)


def random_motion_blur(images: Images, length: Tuple[int, int] = (3, 7), angle: Range = (0.0, 360.0),
                       probability: float = 0.5, seed: Seed = None, return_plan: bool = False) -> Output:
    """Motion blur per sample: the mean along a line of `length` pixels (uniform integer in the
    range) at an angle uniform in `angle` degrees, with probability `probability`. Albumentations'
    MotionBlur rasterizes a random line into its kernel; this one rounds the line's offsets to
    whole pixels (reflect-101 border), so the two differ in detail, not in kind.

    Args:
      images: uint8 `[B, H, W, C]`, every channel.
      length: (min, max) line length in pixels, within [3, 31].
      angle: (min, max) degrees, counter-clockwise from the x axis.
      probability: probability that a sample is blurred.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    length = tuple(int(v) for v in length)
    check_range("length", length, 3, 31)
    if len(angle) != 2 or not angle[0] <= angle[1]:
        raise ValueError(f"angle must be (min, max) degrees with min <= max, got {angle}")
    _check_probability(probability)
    images, n, (s_length, s_angle, s_apply) = _draws(images, seed, 3)
    lengths = tf.random.stateless_uniform([n], s_length, length[0], length[1] + 1, dtype=tf.int32)
    degrees = tf.random.stateless_uniform([n], s_angle, angle[0], angle[1])
    turn = tf.math.floormod(degrees, 360.0) / 360.0
    return _one_stage(images, "motion_blur", tf.cast(lengths, tf.float32),
                      tf.random.stateless_uniform([n], s_apply) < probability,
                      aux=tf.stack([1.0 - turn, tf.zeros([n])], axis=1), return_plan=return_plan)


# AlexNet's PCA of ImageNet's RGB pixels (Krizhevsky et al. 2012; as in fb.resnet.torch and TF
# Model Garden): eigenvalues on the 0..1 scale, eigenvectors as columns.
IMAGENET_EIGENVALUES = (0.2175, 0.0188, 0.0045)
IMAGENET_EIGENVECTORS = ((-0.5675, 0.7192, 0.4009), (-0.5808, -0.0045, -0.8140), (-0.5836, -0.6948, 0.4203))


def pca_lighting(images: Images, std: float = 0.1, probability: float = 1.0, seed: Seed = None,
                 return_plan: bool = False) -> Output:
    """AlexNet's lighting noise: add `eigenvectors @ (alpha * eigenvalues) * 255` to a sample's
    RGB, `alpha ~ N(0, std^2)` per sample and component, with ImageNet's PCA, rounded to whole
    levels and saturated (one rgb_shift stage), with probability `probability`. Albumentations'
    FancyPCA uses each image's own PCA instead.

    Args:
      images: uint8 `[B, H, W, C]`; gray images and alpha are left alone.
      std: standard deviation of the components' weights (0.1 in AlexNet).
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    if not std >= 0.0:
        raise ValueError(f"std must be >= 0, got {std}")
    _check_probability(probability)
    images, n, (s_alpha, s_apply) = _draws(images, seed, 2)
    alpha = tf.random.stateless_normal([n, 3], s_alpha, stddev=std)
    vectors = tf.constant(IMAGENET_EIGENVECTORS, tf.float32)
    shifts = 255.0 * tf.linalg.matvec(vectors, alpha * tf.constant(IMAGENET_EIGENVALUES, tf.float32))
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    return _one_stage(images, "rgb_shift", shifts[:, 0], apply, aux=shifts[:, 1:], return_plan=return_plan)


def random_downscale(images: Images, scale: Range = (0.25, 0.25), probability: float = 0.5, seed: Seed = None,
                     return_plan: bool = False) -> Output:
    """Albumentations' Downscale per sample: down by a scale uniform in `scale` and back up,
    nearest both ways (its default pair, OpenCV's resize), with probability `probability`.

    Args:
      images: uint8 `[B, H, W, C]`, every channel.
      scale: (min, max) within (0, 1).
      probability: probability that a sample is downscaled.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
      return_plan: also return the kernel stages (`[B, 1]` op ids and parameters).
    """
    scale = tuple(float(s) for s in scale)
    if len(scale) != 2 or not 0.0 < scale[0] <= scale[1] < 1.0:
        raise ValueError(f"scale must be (min, max) with 0 < min <= max < 1, got {scale}")
    _check_probability(probability)
    images, n, (s_value, s_apply) = _draws(images, seed, 2)
    s = tf.random.stateless_uniform([n], s_value, scale[0], scale[1])
    return _one_stage(images, "downscale", s, tf.random.stateless_uniform([n], s_apply) < probability,
                      return_plan=return_plan)
