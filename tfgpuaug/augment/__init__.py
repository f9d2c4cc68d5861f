"""Batched per-sample augmentation: single ops, one registry, the auto-augment policies,
conditional execution and label-mixing augmentations."""
from tfgpuaug import _autograph
from tfgpuaug.augment import ops
from tfgpuaug.augment.additive_noise import additive_noise
from tfgpuaug.augment.augmix import augmix
from tfgpuaug.augment.color_curves import random_hsv_shift, random_tone_curve
from tfgpuaug.augment.color_jitter import color_jitter, random_photometric_distort
from tfgpuaug.augment.conditional import random_apply, random_choice, random_order
from tfgpuaug.augment.dropouts import channel_dropout, pixel_dropout, salt_and_pepper, to_sepia
from tfgpuaug.augment.mix import cutmix, mixup
from tfgpuaug.augment.planckian_jitter import planckian_jitter
from tfgpuaug.augment.he_stain import he_stain
from tfgpuaug.augment.illumination import illumination
from tfgpuaug.augment.plasma import plasma_brightness_contrast, plasma_shadow
from tfgpuaug.augment.multiplicative_noise import multiplicative_noise
from tfgpuaug.augment.photometric import (channel_shuffle, pca_lighting, random_blur, random_clahe, random_downscale,
                                          random_emboss,
                                          random_gamma,
                                          random_gaussian_blur, random_gaussian_noise, random_iso_noise,
                                          random_median_blur,
                                          random_motion_blur, random_sharpen, rgb_shift, to_gray)
from tfgpuaug.augment.policies import auto_augment, rand_augment, trivial_augment
from tfgpuaug.augment.shot_noise import random_shot_noise
from tfgpuaug.augment.unsharp_mask import unsharp_mask
from tfgpuaug.augment.kernel_blurs import advanced_blur, defocus, filter2d, ringing_overshoot
from tfgpuaug.augment.glass_blur import glass_blur
from tfgpuaug.augment.superpixels import superpixels
from tfgpuaug.augment.zoom_blur import zoom_blur
from tfgpuaug.augment.linear_transformation import linear_transformation
from tfgpuaug.augment.histogram_matching import histogram_matching
from tfgpuaug.augment.fda import fda
from tfgpuaug.augment.pixel_tables import channel_histograms, hls_lightness, level_tables
from tfgpuaug.augment.raster import line_raster, span_raster
from tfgpuaug.augment.lens_spatter import spatter
from tfgpuaug.augment.sun_flare import random_sun_flare
from tfgpuaug.augment.weather import random_fog, random_gravel, random_rain, random_shadow, random_snow
from tfgpuaug.augment.pixel_distribution import pixel_distribution_adaptation
from tfgpuaug.augment.grid_mask import grid_mask
from tfgpuaug.augment.jpeg_quality import jpeg_quality
from tfgpuaug.augment.random_erasing import random_erasing
from tfgpuaug.augment.random_affine import random_affine
from tfgpuaug.augment.random_perspective import random_perspective
from tfgpuaug.augment.registry import (AUTO_AUGMENT, EXTENDED_OPS, PIXEL_LEVEL_OPS, RAND_AUGMENT_OPS, STANDARD,
                                       TRIVIAL_AUGMENT_OPS, WIDE, Augmentation)

__all__ = [
    "AUTO_AUGMENT", "Augmentation", "EXTENDED_OPS", "PIXEL_LEVEL_OPS", "RAND_AUGMENT_OPS", "STANDARD",
    "TRIVIAL_AUGMENT_OPS", "WIDE",
    "additive_noise", "augmix", "auto_augment", "channel_dropout", "channel_shuffle", "color_jitter", "cutmix",
    "grid_mask", "illumination",
    "he_stain", "jpeg_quality", "mixup", "multiplicative_noise", "ops", "planckian_jitter",
    "plasma_brightness_contrast",
    "plasma_shadow",
    "rand_augment",
    "pca_lighting", "pixel_dropout", "random_apply", "random_blur", "random_choice", "random_clahe", "random_downscale",
    "random_emboss",
    "random_erasing",
    "random_gamma",
    "random_gaussian_blur", "random_gaussian_noise", "random_hsv_shift", "random_iso_noise",
    "random_median_blur", "random_motion_blur", "random_order", "random_shot_noise",
    "random_affine", "random_perspective",
    "random_photometric_distort", "random_sharpen", "random_tone_curve", "rgb_shift", "salt_and_pepper", "to_gray",
    "to_sepia", "trivial_augment", "unsharp_mask", "advanced_blur", "defocus", "filter2d", "ringing_overshoot",
    "glass_blur",
    "zoom_blur", "superpixels",
    "linear_transformation", "histogram_matching", "fda",
    "pixel_distribution_adaptation", "random_shadow", "random_rain", "random_snow", "random_gravel", "random_fog",
    "random_sun_flare",
    "spatter",
    "level_tables", "hls_lightness", "span_raster", "line_raster", "channel_histograms",
]

# Public functions run without AutoGraph inside a user's converted code (_autograph.py).
_autograph.leave_functions_unconverted(globals())
