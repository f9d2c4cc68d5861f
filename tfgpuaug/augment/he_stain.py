"""Albumentations' HEStain (histology stain jitter) per sample, its "preset" and "random_preset"
methods: each pixel's optical density -log(max(v / 255, 1e-6)) split into hematoxylin and eosin
concentrations by the stain matrix's regularised least squares, the tissue's concentrations
scaled and shifted, and the image rebuilt as exp(-concentrations @ matrix). TensorFlow float32
ops (GPU kernels all), where Albumentations solves and rebuilds in float64."""
from __future__ import annotations

import functools
from typing import Optional, Tuple

import numpy as np
import tensorflow as tf

from tfgpuaug._types import Images, Seed
from tfgpuaug.augment.photometric import _check_probability, _draws

# Albumentations 2.0.8's reference stain matrices (rows: hematoxylin, eosin; columns: R, G, B),
# in its order, which its random_preset draws from uniformly.
STAIN_MATRICES = {
    "ruifrok": ((0.644211, 0.716556, 0.266844), (0.092789, 0.954111, 0.283111)),
    "macenko": ((0.5626, 0.7201, 0.4062), (0.2159, 0.8012, 0.5581)),
    "standard": ((0.65, 0.70, 0.29), (0.07, 0.99, 0.11)),
    "high_contrast": ((0.55, 0.88, 0.11), (0.12, 0.86, 0.49)),
    "h_heavy": ((0.75, 0.61, 0.32), (0.04, 0.93, 0.36)),
    "e_heavy": ((0.60, 0.75, 0.28), (0.17, 0.95, 0.25)),
    "dark": ((0.78, 0.55, 0.28), (0.09, 0.97, 0.21)),
    "light": ((0.57, 0.71, 0.38), (0.15, 0.89, 0.42)),
}
PRESETS = tuple(STAIN_MATRICES)
METHODS = ("preset", "random_preset")
FITTED_METHODS = ("vahadane", "macenko")  # Albumentations fits these per image: not here
TISSUE_LUMINOSITY = 0.85  # a pixel is tissue below this luminosity (0 .. 1), as Albumentations


@functools.lru_cache(maxsize=None)
def stain_tables() -> Tuple[np.ndarray, np.ndarray]:
    """The presets' matrices S `[8, 2, 3]` (float32, as Albumentations casts them) and the
    projections P `[8, 2, 3]` with concentrations = P @ density: (S S^T + 1e-6 I)^-1 S, solved in
    float64 from the float32 S S^T as Albumentations does, then float32."""
    s = np.array([STAIN_MATRICES[name] for name in PRESETS], np.float32)
    correlation = (s @ s.transpose(0, 2, 1)).astype(np.float64) + 1e-6 * np.eye(2)
    return s, np.linalg.solve(correlation, s.astype(np.float64)).astype(np.float32)


def check_he_stain_args(method: str, preset: Optional[str], intensity_scale_range, intensity_shift_range,
                        probability: float) -> Tuple[Optional[str], Tuple[float, float], Tuple[float, float]]:
    """The checked (preset, scale range, shift range): method "preset" without a preset means
    "standard", as Albumentations."""
    if method in FITTED_METHODS:
        raise ValueError(f"HEStain: method {method!r} fits a stain matrix to each image (Albumentations' NMF or "
                         f"SVD), which tfgpuaug does not do yet; use 'preset' or 'random_preset'")
    if method not in METHODS:
        raise ValueError(f"HEStain: method must be one of {METHODS}, got {method!r}")
    if method == "preset":
        preset = "standard" if preset is None else preset
        if preset not in STAIN_MATRICES:
            raise ValueError(f"HEStain: preset must be one of {PRESETS}, got {preset!r}")
    elif preset is not None:
        raise ValueError("HEStain: preset is for method='preset'; 'random_preset' draws one per sample")
    ranges = []
    for name, value, low, high in (("intensity_scale_range", intensity_scale_range, 0.0, np.inf),
                                   ("intensity_shift_range", intensity_shift_range, -1.0, 1.0)):
        pair = tuple(float(v) for v in value) if isinstance(value, (tuple, list)) else ()
        if len(pair) != 2 or not low <= pair[0] <= pair[1] <= high:
            raise ValueError(f"HEStain: {name} must be (min, max) within [{low}, {high}], got {value!r}")
        ranges.append(pair)
    _check_probability(probability)
    return preset, ranges[0], ranges[1]


def he_stain_with(images: Images, preset_index: tf.Tensor, scale: tf.Tensor, shift: tf.Tensor,
                  augment_background: bool = False) -> tf.Tensor:
    """HEStain of every sample with its own parameters: `preset_index` `[B]` int32 into PRESETS,
    `scale` and `shift` `[B, 2]` float32 (hematoxylin, eosin). uint8 RGB `[B, H, W, 3]` in and out."""
    images = tf.convert_to_tensor(images)
    if images.dtype != tf.uint8 or images.shape.rank != 4 or images.shape[-1] != 3:
        raise ValueError(f"HEStain needs uint8 RGB images [B, H, W, 3] (stain separation is defined on RGB), "
                         f"got {images.dtype.name} {images.shape}")
    matrices, projections = stain_tables()
    s = tf.gather(tf.constant(matrices), preset_index)  # [B, 2, 3]
    p = tf.gather(tf.constant(projections), preset_index)
    x = tf.cast(images, tf.float32) / 255.0  # Albumentations' to_float table
    density = -tf.math.log(tf.maximum(x, 1e-6))
    concentrations = tf.einsum("bhwk,bjk->bhwj", density, p)  # [B, H, W, 2]
    adjusted = concentrations * scale[:, None, None, :] + shift[:, None, None, :]
    if not augment_background:
        luminosity = x[..., 0] * 0.299 + x[..., 1] * 0.587 + x[..., 2] * 0.114  # its order, float32
        adjusted = tf.where((luminosity < TISSUE_LUMINOSITY)[..., None], adjusted, concentrations)
    rebuilt = tf.exp(-tf.einsum("bhwj,bjk->bhwk", adjusted, s))
    return tf.cast(tf.clip_by_value(tf.round(rebuilt * 255.0), 0.0, 255.0), tf.uint8)  # np.rint: half to even


def he_stain(images: Images, method: str = "random_preset", preset: Optional[str] = None,
             intensity_scale_range: Tuple[float, float] = (0.7, 1.3),
             intensity_shift_range: Tuple[float, float] = (-0.2, 0.2), augment_background: bool = False,
             probability: float = 0.5, seed: Seed = None) -> tf.Tensor:
    """Albumentations' HEStain per sample, with probability `probability`: hematoxylin and eosin
    concentrations (from the optical density by a stain matrix's regularised least squares) each
    scaled by a factor drawn in `intensity_scale_range` and shifted by one drawn in
    `intensity_shift_range`, in tissue pixels (luminosity below 0.85) unless
    `augment_background`; the image rebuilt from them. Other pixels are rebuilt from their own
    concentrations, as Albumentations does (the density's part outside the stain plane is lost).

    Args:
      images: uint8 `[B, H, W, 3]` RGB.
      method: "random_preset" (a reference matrix drawn per sample from PRESETS) or "preset".
        Albumentations' "vahadane" and "macenko" (a matrix fitted to each image) are refused.
      preset: the matrix for method "preset" (None: "standard"); one of PRESETS.
      intensity_scale_range: (min, max) factor of each stain's concentration, min >= 0.
      intensity_shift_range: (min, max) shift of each stain's concentration, within [-1, 1].
      augment_background: also change pixels brighter than the tissue threshold.
      probability: probability that a sample is changed.
      seed: the stateless seed (an int or a `[2]` tensor); None draws a random one.
    """
    preset, scales, shifts = check_he_stain_args(method, preset, intensity_scale_range, intensity_shift_range,
                                                 probability)
    images, n, (s_preset, s_scale, s_shift, s_apply) = _draws(images, seed, 4)
    if preset is None:
        index = tf.random.stateless_uniform([n], s_preset, 0, len(PRESETS), dtype=tf.int32)
    else:
        index = tf.fill([n], PRESETS.index(preset))
    scale = tf.random.stateless_uniform([n, 2], s_scale, scales[0], scales[1])
    shift = tf.random.stateless_uniform([n, 2], s_shift, shifts[0], shifts[1])
    out = he_stain_with(images, index, scale, shift, augment_background)
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    return tf.where(apply[:, None, None, None], out, images)
