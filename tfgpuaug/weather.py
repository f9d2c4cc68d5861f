"""Albumentations' weather effects as transforms (`tfgpuaug.augment.random_shadow`,
`random_rain`, `random_snow`, `random_gravel`, `random_fog`, `random_sun_flare`, `spatter`): shapes drawn per
sample in the graph, the effect applied in one pass. Annotations pass through; inference leaves images alone."""
from __future__ import annotations

from typing import Optional, Sequence, Tuple, Union

import tensorflow as tf

from tfgpuaug import targets as tg
from tfgpuaug.augment import weather as wx
from tfgpuaug.augment.lens_spatter import check_spatter_args, spatter
from tfgpuaug.augment.sun_flare import check_sun_flare_args, random_sun_flare
from tfgpuaug.transforms import TransformOutput, _PerSample


class RandomShadow(_PerSample):
    """Albumentations' RandomShadow: with probability `probability` per sample, between
    `num_shadows_limit` polygons of `shadow_dimension` random vertices inside `shadow_roi`,
    filled as cv2.fillPoly fills them, each darkening what it covers to floor(v (1 - a)), `a`
    uniform in `shadow_intensity_range`, in turn.

    Args:
      shadow_roi: (x_min, y_min, x_max, y_max) fractions of the image where vertices fall.
      num_shadows_limit: (min, max) shadows per sample, both included.
      shadow_dimension: vertices per polygon, 3 .. 64.
      shadow_intensity_range: (min, max) darkening within [0, 1].
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.RandomShadow(probability=0.3)]))
    """

    moves_targets = False

    def __init__(self, shadow_roi: Sequence[float] = (0.0, 0.5, 1.0, 1.0), num_shadows_limit: Tuple[int, int] = (1, 2),
                 shadow_dimension: int = 5, shadow_intensity_range: Tuple[float, float] = (0.5, 0.5),
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        (self.shadow_roi, self.num_shadows_limit, self.shadow_dimension,
         self.shadow_intensity_range) = wx.check_shadow_args(shadow_roi, num_shadows_limit, shadow_dimension,
                                                             shadow_intensity_range, probability)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return wx.random_shadow(images, self.shadow_roi, self.num_shadows_limit, self.shadow_dimension,
                                self.shadow_intensity_range, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(shadow_roi=self.shadow_roi, num_shadows_limit=self.num_shadows_limit,
                    shadow_dimension=self.shadow_dimension, shadow_intensity_range=self.shadow_intensity_range,
                    probability=self.probability, seed=self.seed)


class RandomRain(_PerSample):
    """Albumentations' RandomRain: with probability `probability` per sample, straight drops
    (how many by `rain_type`) of `drop_length` pixels leaning by a slant drawn in `slant_range`
    (pixels along x), `drop_width` wide in `drop_color`; the rain layer box-blurred over
    `blur_value`, added with saturation, the image dimmed by `brightness_coefficient`.

    Args:
      slant_range: (min, max) pixels the drop's lower end moves along x, within [-20, 20].
      drop_length: drop length in pixels; None: height // 8.
      drop_width: drop width in pixels.
      drop_color: (R, G, B) of the drops.
      blur_value: side of the rain layer's box blur (1: none).
      brightness_coefficient: the image's brightness under rain, in (0, 1].
      rain_type: "default" (height // 3 drops), "drizzle" (// 4), "heavy" (height), "torrential" (2 height).
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    moves_targets = False

    def __init__(self, slant_range: Tuple[float, float] = (-10.0, 10.0), drop_length: Optional[int] = None,
                 drop_width: int = 1, drop_color: Tuple[int, int, int] = (200, 200, 200), blur_value: int = 7,
                 brightness_coefficient: float = 0.7, rain_type: str = "default", probability: float = 0.5,
                 seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.slant_range, self.drop_color = wx.check_rain_args(slant_range, drop_length, drop_width, drop_color,
                                                               blur_value, brightness_coefficient, rain_type,
                                                               probability)
        self.drop_length, self.drop_width, self.blur_value = drop_length, drop_width, blur_value
        self.brightness_coefficient, self.rain_type = float(brightness_coefficient), rain_type

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return wx.random_rain(images, self.slant_range, self.drop_length, self.drop_width, self.drop_color,
                              self.blur_value, self.brightness_coefficient, self.rain_type, self.probability,
                              seed), targets

    def get_config(self) -> dict:
        return dict(slant_range=self.slant_range, drop_length=self.drop_length, drop_width=self.drop_width,
                    drop_color=self.drop_color, blur_value=self.blur_value,
                    brightness_coefficient=self.brightness_coefficient, rain_type=self.rain_type,
                    probability=self.probability, seed=self.seed)


class RandomSnow(_PerSample):
    """Albumentations' RandomSnow ("bleach"): with probability `probability` per sample, pixels
    whose 8-bit HLS lightness is below 127.5 p + 85 (p uniform in `snow_point_range`) get their
    lightness times `brightness_coeff`; other pixels keep their bytes.

    Args:
      snow_point_range: (min, max) snow point within [0, 1]; higher bleaches more.
      brightness_coeff: lightness multiplier of the bleached pixels, > 0.
      method: "bleach" (Albumentations' "texture" is not available yet).
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    moves_targets = False

    def __init__(self, snow_point_range: Tuple[float, float] = (0.1, 0.3), brightness_coeff: float = 2.5,
                 method: str = "bleach", probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.snow_point_range = wx.check_snow_args(snow_point_range, brightness_coeff, method, probability)
        self.brightness_coeff, self.method = float(brightness_coeff), method

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return wx.random_snow(images, self.snow_point_range, self.brightness_coeff, self.method, self.probability,
                              seed), targets

    def get_config(self) -> dict:
        return dict(snow_point_range=self.snow_point_range, brightness_coeff=self.brightness_coeff,
                    method=self.method, probability=self.probability, seed=self.seed)


class RandomGravel(_PerSample):
    """Albumentations' RandomGravel: with probability `probability` per sample,
    `number_of_patches` patches inside `gravel_roi` strewn with small squares whose 8-bit HLS
    lightness is set to a random level.

    Args:
      gravel_roi: (x_min, y_min, x_max, y_max) fractions of the image, min < max.
      number_of_patches: patches per sample, 1 .. 64.
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    moves_targets = False

    def __init__(self, gravel_roi: Sequence[float] = (0.1, 0.4, 0.9, 0.9), number_of_patches: int = 2,
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.gravel_roi = wx.check_gravel_args(gravel_roi, number_of_patches, probability)
        self.number_of_patches = number_of_patches

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return wx.random_gravel(images, self.gravel_roi, self.number_of_patches, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(gravel_roi=self.gravel_roi, number_of_patches=self.number_of_patches,
                    probability=self.probability, seed=self.seed)


class RandomFog(_PerSample):
    """Albumentations' RandomFog: with probability `probability` per sample, fog discs (more
    towards the centre) blended white with alpha `alpha_coef` x intensity, intensity uniform in
    `fog_coef_range`, then a Gaussian blur of side max(3, min(H, W) // 30) made odd.

    Args:
      fog_coef_range: (min, max) fog intensity within [0, 1].
      alpha_coef: transparency of each fog disc, within [0, 1].
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.
    """

    moves_targets = False

    def __init__(self, fog_coef_range: Tuple[float, float] = (0.3, 1.0), alpha_coef: float = 0.08,
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        self.fog_coef_range = wx.check_fog_args(fog_coef_range, alpha_coef, probability)
        self.alpha_coef = float(alpha_coef)

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return wx.random_fog(images, self.fog_coef_range, self.alpha_coef, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(fog_coef_range=self.fog_coef_range, alpha_coef=self.alpha_coef, probability=self.probability,
                    seed=self.seed)


class RandomSunFlare(_PerSample):
    """Albumentations' RandomSunFlare: with probability `probability` per sample, flare circles
    along a line through a sun placed in `flare_roi`. "overlay" (the default): each circle blended
    over the image in turn, then the sun as `src_radius // 10` concentric discs of `src_color`
    growing to `src_radius`, blended with weights that fall as they grow (Albumentations' draws and
    its add_weighted arithmetic; one SunFlare kernel op, CPU and GPU). "physics_based": the sun's
    disc, four 2-pixel lines through it and the circles painted as OpenCV paints them on a flare
    layer, blurred (sigma 15), faded radially, two channels blurred again and screened over the
    image (the SpanRaster and SeparableBlur kernel ops and TensorFlow ops; within one level of
    Albumentations').
    RGB images.

    Args:
      flare_roi: (x_min, y_min, x_max, y_max) fractions of the image where the sun may be, min < max.
      src_radius: the sun's radius in pixels, 2 .. 10249.
      src_color: the sun's RGB colour.
      angle_range: (min, max) direction of the flare line in turns, within [0, 1].
      num_flare_circles_range: (min, max) flare circles, both included, within [1, 64].
      method: "overlay" (Albumentations' default) or "physics_based".
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.RandomSunFlare(src_radius=120)]))
    """

    moves_targets = False

    def __init__(self, flare_roi: Sequence[float] = (0.0, 0.0, 1.0, 0.5), src_radius: int = 400,
                 src_color: Tuple[int, int, int] = (255, 255, 255), angle_range: Tuple[float, float] = (0.0, 1.0),
                 num_flare_circles_range: Tuple[int, int] = (6, 10), method: str = "overlay",
                 probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        (self.flare_roi, self.src_radius, self.src_color, self.angle_range,
         self.num_flare_circles_range) = check_sun_flare_args(flare_roi, src_radius, src_color, angle_range,
                                                              num_flare_circles_range, method, probability)
        self.method = method

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return random_sun_flare(images, self.flare_roi, self.src_radius, self.src_color, self.angle_range,
                                self.num_flare_circles_range, self.method, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(flare_roi=self.flare_roi, src_radius=self.src_radius, src_color=self.src_color,
                    angle_range=self.angle_range, num_flare_circles_range=self.num_flare_circles_range,
                    method=self.method, probability=self.probability, seed=self.seed)


class Spatter(_PerSample):
    """Albumentations' Spatter: with probability `probability` per sample, a liquid layer of
    normal noise blurred by a Gaussian of sigma drawn in `gauss_sigma` and cut at a threshold
    drawn in `cutout_threshold`; "rain" (the default) adds drops drawn from the layer's Canny
    edges and the distance to them in the rain colour, "mud" tints the image under the blurred
    drops by the mud colour, each scaled by an intensity drawn in `intensity` (Albumentations'
    arithmetic; one kernel op a mode, CPU and GPU). RGB images. A number x for a range means
    (0, x), as Albumentations reads it.

    Args:
      mean: (min, max) mean of the liquid's noise, within [0, 1].
      std: (min, max) standard deviation of the liquid's noise, within [0, 1].
      gauss_sigma: (min, max) sigma of the liquid's blur (and of the mud's mask), within [0, 100].
      cutout_threshold: (min, max) level above which the liquid makes drops, within [0, 1].
      intensity: (min, max) strength of the effect, within [0, 1].
      mode: "rain" (Albumentations' default) or "mud".
      color: the effect's RGB levels; None: (238, 238, 175) for rain, (20, 42, 63) for mud.
      probability: per-sample probability.
      seed: seed of the transform's own random draws when it is called without one; None: random.

    Example:
      >>> ds.apply(tga.gpu_augment([tga.RandomResizedCrop(224), tga.Spatter(mode="mud", probability=0.3)]))
    """

    moves_targets = False

    def __init__(self, mean: Union[float, Tuple[float, float]] = (0.65, 0.65),
                 std: Union[float, Tuple[float, float]] = (0.3, 0.3),
                 gauss_sigma: Union[float, Tuple[float, float]] = (2.0, 2.0),
                 cutout_threshold: Union[float, Tuple[float, float]] = (0.68, 0.68),
                 intensity: Union[float, Tuple[float, float]] = (0.6, 0.6), mode: str = "rain",
                 color: Optional[Sequence[int]] = None, probability: float = 0.5, seed: Optional[int] = None):
        super().__init__(probability, seed)
        (self.mean, self.std, self.gauss_sigma, self.cutout_threshold, self.intensity, self.mode,
         colour) = check_spatter_args(mean, std, gauss_sigma, cutout_threshold, intensity, mode, color, probability)
        self.color = None if color is None else colour

    def _apply_dense(self, images: tf.Tensor, targets: Optional[tg.Targets], seed: tf.Tensor) -> TransformOutput:
        return spatter(images, self.mean, self.std, self.gauss_sigma, self.cutout_threshold, self.intensity,
                       self.mode, self.color, self.probability, seed), targets

    def get_config(self) -> dict:
        return dict(mean=self.mean, std=self.std, gauss_sigma=self.gauss_sigma,
                    cutout_threshold=self.cutout_threshold, intensity=self.intensity, mode=self.mode,
                    color=self.color, probability=self.probability, seed=self.seed)
