"""Albumentations' ChromaticAberration: the red and blue channels each resampled through its own
radial lens distortion (OpenCV's undistortion map with coefficients k1, k2 drawn per sample),
green kept, by the project's RemapRadial kernel (a map per channel, computed per pixel, not
read) with OpenCV's replicated border."""
from __future__ import annotations

from typing import Optional, Tuple, Union

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability, _draws
from tfgpuaug.distortions import INTERPOLATIONS, remap_radial
from tfgpuaug.transforms import TransformOutput, _PerSample

Limit = Union[float, Tuple[float, float]]
MODES = ("green_purple", "red_blue", "random")


def _symmetric(name: str, limit: Limit) -> Tuple[float, float]:
    pair = (-abs(float(limit)), abs(float(limit))) if isinstance(limit, (int, float)) else tuple(map(float, limit))
    if len(pair) != 2 or not pair[0] <= pair[1]:
        raise ValueError(f"{name} must be a number x (meaning (-x, x)) or (min, max) with min <= max, got {limit}")
    return pair


def check_chromatic_aberration_args(primary_distortion_limit: Limit, secondary_distortion_limit: Limit, mode: str,
                                    interpolation: str, probability: float):
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"interpolation must be one of {INTERPOLATIONS}, got {interpolation!r}")
    _check_probability(probability)
    return (_symmetric("primary_distortion_limit", primary_distortion_limit),
            _symmetric("secondary_distortion_limit", secondary_distortion_limit))


def _matched(a: tf.Tensor, b: tf.Tensor, same: bool) -> tf.Tensor:
    """b with a's sign (same) or the opposite one, as Albumentations' _match_sign and
    _unmatch_sign (zeros left as they are)."""
    flip = ((a < 0) & (b > 0)) | ((a > 0) & (b < 0)) if same else ((a < 0) & (b < 0)) | ((a > 0) & (b > 0))
    return tf.where(flip, -b, b)


def chromatic_aberration(images: Images, primary_distortion_limit: Limit = (-0.02, 0.02),
                         secondary_distortion_limit: Limit = (-0.05, 0.05), mode: str = "green_purple",
                         interpolation: str = "bilinear", probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' ChromaticAberration per sample, with probability `probability`: red and
    blue resampled through OpenCV's undistortion maps with coefficients (k1, k2) each, k1 uniform
    in `primary_distortion_limit` and k2 in `secondary_distortion_limit` with k1's sign; for
    "green_purple" blue's take red's signs, for "red_blue" the opposite ones, "random" leaves
    them; green (and alpha) kept; the border replicated. Samples left alone take zero
    coefficients (the identity map: bytes unchanged).

    Args:
      images: uint8 `[B, H, W, C]`, RGB or RGBA.
      primary_distortion_limit: (min, max) of k1, or x for (-x, x).
      secondary_distortion_limit: (min, max) of k2, or x for (-x, x).
      mode: "green_purple", "red_blue" or "random".
      interpolation: "bilinear" or "nearest" (cv2.remap's).
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    primary, secondary = check_chromatic_aberration_args(primary_distortion_limit, secondary_distortion_limit, mode,
                                                         interpolation, probability)
    images, n, seeds = _draws(images, seed, 5)
    if images.shape[-1] not in (3, 4):
        raise ValueError(f"chromatic_aberration needs RGB or RGBA images (3 or 4 channels), got {images.shape[-1]}")
    red1, blue1 = (tf.random.stateless_uniform([n], s, primary[0], primary[1]) for s in seeds[:2])
    red2, blue2 = (tf.random.stateless_uniform([n], s, secondary[0], secondary[1]) for s in seeds[2:4])
    red2, blue2 = _matched(red1, red2, True), _matched(blue1, blue2, True)
    if mode != "random":
        blue1 = _matched(red1, blue1, mode == "green_purple")
        blue2 = _matched(red2, blue2, mode == "green_purple")
    applied = tf.random.stateless_uniform([n], seeds[4]) < probability
    red1, red2, blue1, blue2 = (tf.where(applied, k, 0.0) for k in (red1, red2, blue1, blue2))
    # one RemapRadial call with a map per channel (computed in the kernel: no [B, H, W, 2] map in
    # memory); green and alpha take (0, 0), the identity, which keeps their bytes
    zero = tf.zeros_like(red1)
    per_channel = [[red1, red2], [zero, zero], [blue1, blue2]] + [[zero, zero]] * (images.shape[-1] - 3)
    coefficients = tf.stack([tf.stack(pair, 1) for pair in per_channel], 1)
    return remap_radial(images, coefficients, interpolation, "replicate")


class ChromaticAberration(_PerSample):
    """Albumentations' ChromaticAberration: with probability `probability` per sample, the red
    and blue channels each bent by its own radial lens distortion (OpenCV's undistortion maps,
    coefficients drawn per sample with Albumentations' sign rules for `mode`), green and alpha
    kept, resampled by the RemapRadial kernel with the border replicated. Images are RGB or RGBA.
    Annotations pass through (the green channel, which carries most of the luminance, does
    not move); inference leaves images alone.

    Args:
      primary_distortion_limit: (min, max) of the r^2 coefficient, or x for (-x, x).
      secondary_distortion_limit: (min, max) of the r^4 coefficient, or x for (-x, x).
      mode: "green_purple", "red_blue" or "random".
      interpolation: "bilinear" or "nearest".
      probability: per-sample probability of the effect.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    moves_targets = False

    def __init__(self, primary_distortion_limit: Limit = (-0.02, 0.02),
                 secondary_distortion_limit: Limit = (-0.05, 0.05), mode: str = "green_purple",
                 interpolation: str = "bilinear", probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.primary_distortion_limit, self.secondary_distortion_limit = check_chromatic_aberration_args(
            primary_distortion_limit, secondary_distortion_limit, mode, interpolation, probability)
        self.mode, self.interpolation = mode, interpolation

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return chromatic_aberration(images, self.primary_distortion_limit, self.secondary_distortion_limit, self.mode,
                                    self.interpolation, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(primary_distortion_limit=self.primary_distortion_limit,
                    secondary_distortion_limit=self.secondary_distortion_limit, mode=self.mode,
                    interpolation=self.interpolation, probability=self.probability, seed=self.seed)
