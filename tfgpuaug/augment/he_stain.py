"""Albumentations' HEStain (histology stain jitter) per sample, all four methods: each pixel's
optical density -log(max(v / 255, 1e-6)) split into hematoxylin and eosin concentrations by the
stain matrix's regularised least squares, the tissue's concentrations scaled and shifted, and the
image rebuilt as exp(-concentrations @ matrix). One HeStain kernel op (CPU and GPU) does it per
pixel in float64, as Albumentations solves and rebuilds (the rounding of 255 exp(-x) read off a
table of its thresholds, so no transcendental runs per pixel).

"macenko" fits the matrix to each image by Macenko et al.'s method (2009) as its authors and
the common implementations state it: the optical densities above 0.05 in some channel, their
covariance's two leading eigenvectors (each signed so its red component is not negative), each
density's angle in that plane, the angles' 1st and 99th percentiles (numpy's linear rule) taken
back to two stain vectors, made non-negative and unit, hematoxylin the one with more red.
Albumentations 2.0.8 projects onto the columns of cv2.eigen's eigenvector rows instead (not the
eigenvectors), so its matrix depends on cv2.eigen's signs and misses the stains an image was
made with (by 0.1-0.3 per entry on synthetic H&E images, where this method recovers them within
0.03): its result is not reproduced here.

"vahadane" is Albumentations' own fit of that name (a plain non-negative matrix factorisation, not
Vahadane et al.'s sparse dictionary learning): every pixel's optical densities factored by 100
rounds of multiplicative updates from Ruifrok's rows, by the StainNmf kernel op (CPU and GPU,
float64 where Albumentations' is float32, the concentrations kept in float32 between rounds as
numpy keeps them: its rows within 1e-5 on H&E-like images), the two rows told apart
by its angle-and-colour score."""
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
METHODS = ("preset", "random_preset", "macenko", "vahadane")
ANGULAR_PERCENTILE = 99.0  # Macenko's robust extremes (Albumentations' value)


@functools.lru_cache(maxsize=None)
def stain_tables() -> Tuple[np.ndarray, np.ndarray]:
    """The presets' matrices S `[8, 2, 3]` (float32, as Albumentations casts them) and the
    projections P `[8, 2, 3]` with concentrations = P @ density: (S S^T + 1e-6 I)^-1 S, solved in
    float64 from the float32 S S^T as Albumentations does (float64)."""
    s = np.array([STAIN_MATRICES[name] for name in PRESETS], np.float32)
    correlation = (s @ s.transpose(0, 2, 1)).astype(np.float64) + 1e-6 * np.eye(2)
    return s, np.linalg.solve(correlation, s.astype(np.float64))


@functools.lru_cache(maxsize=None)
def rebuild_tables() -> Tuple[np.ndarray, np.ndarray]:
    """The HeStain op's rounding tables: thresholds `[255]` ln(255 / (v - 0.5)), v = 1..255 (the
    exponent below which rint(255 exp(-x)) reaches v), and cells `[3226]` uint8, how many
    thresholds are at or above each 1/512 of an exponent (kHeCells of cc/kernels/augment/he_stain.h)."""
    thresholds = np.log(255.0 / (np.arange(1, 256) - 0.5))
    cells = (thresholds[np.newaxis, :] >= (np.arange(3226) / 512.0)[:, np.newaxis]).sum(axis=1)
    return thresholds, cells.astype(np.uint8)


def check_he_stain_args(method: str, preset: Optional[str], intensity_scale_range, intensity_shift_range,
                        probability: float) -> Tuple[Optional[str], Tuple[float, float], Tuple[float, float]]:
    """The checked (preset, scale range, shift range): method "preset" without a preset means
    "standard", as Albumentations."""
    if method not in METHODS:
        raise ValueError(f"HEStain: method must be one of {METHODS}, got {method!r}")
    if method == "preset":
        preset = "standard" if preset is None else preset
        if preset not in STAIN_MATRICES:
            raise ValueError(f"HEStain: preset must be one of {PRESETS}, got {preset!r}")
    elif preset is not None:
        raise ValueError(f"HEStain: preset is for method='preset'; {method!r} does not take one")
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
                  augment_background: bool = False, apply: Optional[tf.Tensor] = None) -> tf.Tensor:
    """HEStain of every sample with its own parameters: `preset_index` `[B]` int32 into PRESETS,
    `scale` and `shift` `[B, 2]` float32 (hematoxylin, eosin), `apply` `[B]` bool (None: all).
    uint8 RGB `[B, H, W, 3]` in and out."""
    matrices, projections = stain_tables()
    return he_stain_with_matrices(images, tf.gather(tf.constant(matrices), preset_index),
                                  tf.gather(tf.constant(projections), preset_index), scale, shift, augment_background,
                                  apply)


def _checked_rgb(images: Images) -> tf.Tensor:
    images = tf.convert_to_tensor(images)
    if images.dtype != tf.uint8 or images.shape.rank != 4 or images.shape[-1] != 3:
        raise ValueError(f"HEStain needs uint8 RGB images [B, H, W, 3] (stain separation is defined on RGB), "
                         f"got {images.dtype.name} {images.shape}")
    return images


def stain_projections(matrices: tf.Tensor) -> tf.Tensor:
    """`[B, 2, 3]` P with concentrations = P @ density for stain matrices S `[B, 2, 3]` float32:
    (S S^T + 1e-6 I)^-1 S in float64 from the float32 S S^T (as `stain_tables`), float64."""
    correlation = tf.cast(tf.linalg.matmul(matrices, matrices, transpose_b=True), tf.float64)
    correlation += 1e-6 * tf.eye(2, dtype=tf.float64)
    return tf.linalg.solve(correlation, tf.cast(matrices, tf.float64))


def _order_statistics(keys: tf.Tensor, valid: tf.Tensor, count: tf.Tensor, q: float
                      ) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor]:
    """For np.percentile(values, q)'s linear rule over the valid entries of each row of `keys`
    `[B, N]` (`count` `[B]` of them, at least 1; the values ordered as the keys): the indices of
    the two order statistics around its position and the fraction between them. They come from a
    top-k of the nearer end (k about (1 - q / 100) N, not a sort of N)."""
    position = q / 100.0 * tf.cast(count - 1, tf.float64)
    low = tf.cast(tf.floor(position), tf.int32)
    high = tf.minimum(low + 1, count - 1)
    fraction = position - tf.cast(low, tf.float64)
    lowest = tf.constant(-np.inf, keys.dtype)
    if q <= 50.0:  # ranks from the bottom: the smallest k of the valid keys
        k, at_low, at_high, signed = high + 1, low, high, -keys
    else:  # from the top: rank r ascending is rank count - 1 - r descending
        k, at_low, at_high, signed = count - low, count - 1 - low, count - 1 - high, keys
    # At least 1 (an empty batch), at most the row (a count of 1 standing in for none).
    k = tf.minimum(tf.maximum(tf.reduce_max(k), 1), tf.shape(keys)[1])
    ranked = tf.math.top_k(tf.where(valid, signed, lowest), k=k).indices
    pick = tf.gather(ranked, tf.stack([at_low, at_high], axis=1), batch_dims=1)  # [B, 2]
    return pick[:, 0], pick[:, 1], fraction


def _percentile(values: tf.Tensor, valid: tf.Tensor, count: tf.Tensor, q: float,
                keys: Optional[tf.Tensor] = None) -> tf.Tensor:
    """np.percentile(values[b][valid[b]], q) (linear rule) per row of `values` `[B, N]`; `keys`
    (default: the values) order them."""
    low, high, fraction = _order_statistics(values if keys is None else keys, valid, count, q)
    a = tf.gather(values, low[:, tf.newaxis], batch_dims=1)[:, 0]
    b = tf.gather(values, high[:, tf.newaxis], batch_dims=1)[:, 0]
    return a + (b - a) * tf.cast(fraction, values.dtype)


def macenko_stain_matrices(images: Images, angular_percentile: float = ANGULAR_PERCENTILE
                           ) -> Tuple[tf.Tensor, tf.Tensor]:
    """Macenko et al.'s stain matrix of each image (see the module's docstring): `[B, 2, 3]`
    float32 (rows hematoxylin, eosin; columns R, G, B; unit rows) and `[B]` bool, whether the image
    had the two tissue pixels a fit needs (the matrix is then the "macenko" preset). The TissuePlane
    kernel op finds the tissue (a density above 0.05 in some channel), the covariance's leading
    eigenvectors (float64, Jacobi rotations) and each tissue pixel's coordinates in their plane
    with a key that orders them as the angle; the percentiles' two order statistics per end are
    found by a top-k over the keys, and only they go through atan2."""
    from tfgpuaug import _loader
    images = _checked_rgb(images)
    plane, coordinates, keys, tissue, count = _loader.ops().tf_gpu_aug_tissue_plane(
        images, tf.constant(nmf_densities()))
    # One background column more: a row to select from in images of no pixels.
    coordinates = tf.pad(coordinates, [[0, 0], [0, 1], [0, 0]])
    tissue = tf.pad(tissue, [[0, 0], [0, 1]])
    keys = tf.pad(keys, [[0, 0], [0, 1]])
    fitted = count >= 2
    safe_count = tf.maximum(count, 1)
    ends = []
    for q in (100.0 - angular_percentile, angular_percentile):
        low, high, fraction = _order_statistics(keys, tissue, safe_count, q)
        at = [tf.gather(coordinates, i[:, tf.newaxis], batch_dims=1)[:, 0] for i in (low, high)]  # [B, 2]
        a, b = (tf.math.atan2(c[:, 1], c[:, 0]) for c in at)
        ends.append(a + (b - a) * fraction)
    stains = tf.abs(tf.stack([tf.einsum("bij,bj->bi", plane, tf.stack([tf.cos(a), tf.sin(a)], -1)) for a in ends],
                             axis=1))                                                # [B, 2, 3]
    stains /= tf.maximum(tf.norm(stains, axis=-1, keepdims=True), 1e-12)
    stains = tf.where((stains[:, 0, 0] > stains[:, 1, 0])[:, tf.newaxis, tf.newaxis], stains, stains[:, ::-1])
    reference = tf.constant(STAIN_MATRICES["macenko"], tf.float64)
    stains = tf.where(fitted[:, tf.newaxis, tf.newaxis], stains, reference[tf.newaxis])
    return tf.cast(stains, tf.float32), fitted


@functools.lru_cache(maxsize=None)
def nmf_densities() -> np.ndarray:
    """A byte's optical density as Albumentations' rgb_to_optical_density computes it: numpy's
    float32 -log(max(v / 255, 1e-6)) (the table the kernel ops read)."""
    return -np.log(np.maximum(np.arange(256, dtype=np.float32) / 255, 1e-6))


def vahadane_stain_matrices(images: Images) -> Tuple[tf.Tensor, tf.Tensor]:
    """Albumentations' "vahadane" stain matrix of each image (see the module's docstring):
    `[B, 2, 3]` float32 (rows hematoxylin, eosin; unit rows) and `[B]` bool, whether the fit has
    two rows (an image without density has none: its matrix is then Ruifrok's). The rows are told
    apart as Albumentations' order_stains_combined does, in float32: the angle atan2(g, r)
    (within [0, pi/2]: the rows are not negative) times the blue share, less the red share;
    hematoxylin the higher, the first on a tie."""
    from tfgpuaug import _loader
    images = _checked_rgb(images)
    rows = _loader.ops().tf_gpu_aug_stain_nmf(images, tf.constant(nmf_densities()))
    unit = rows / tf.sqrt(tf.reduce_sum(rows * rows, axis=2, keepdims=True))
    total = tf.reduce_sum(unit, axis=2) + 1e-6
    score = tf.math.atan2(unit[..., 1], unit[..., 0]) * (unit[..., 2] / total) - unit[..., 0] / total  # [B, 2]
    first = score[:, 0] >= score[:, 1]
    ordered = tf.where(first[:, tf.newaxis, tf.newaxis], rows, tf.reverse(rows, axis=[1]))
    fitted = tf.reduce_all(tf.math.is_finite(rows), axis=[1, 2])
    reference = tf.constant(STAIN_MATRICES["ruifrok"], tf.float32)
    return tf.where(fitted[:, tf.newaxis, tf.newaxis], ordered, reference[tf.newaxis]), fitted


def he_stain_with_matrices(images: Images, matrices: tf.Tensor, projections: tf.Tensor, scale: tf.Tensor,
                           shift: tf.Tensor, augment_background: bool = False,
                           apply: Optional[tf.Tensor] = None) -> tf.Tensor:
    """HEStain of every sample with its own stain matrix `matrices` `[B, 2, 3]` float32, its
    `projections` (`stain_projections`, float64), `scale` and `shift` `[B, 2]`; samples whose
    `apply` `[B]` is False (None: all True) are left as they are. The HeStain kernel op: float64
    per pixel as Albumentations rebuilds, its rounding read off tables (`rebuild_tables`)."""
    from tfgpuaug import _loader
    images = _checked_rgb(images)
    if apply is None:
        apply = tf.fill(tf.shape(images)[:1], True)
    thresholds, cells = rebuild_tables()
    return _loader.ops().tf_gpu_aug_he_stain(
        images, tf.constant(nmf_densities()), tf.constant(thresholds), tf.constant(cells),
        tf.cast(projections, tf.float64), tf.cast(matrices, tf.float64), tf.cast(scale, tf.float64),
        tf.cast(shift, tf.float64), apply, augment_background=bool(augment_background))


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
      method: "random_preset" (a reference matrix drawn per sample from PRESETS), "preset", or
        "macenko" (a matrix fitted to each image, `macenko_stain_matrices`; an image with fewer
        than two tissue pixels is left alone) or "vahadane" (Albumentations' NMF fit,
        `vahadane_stain_matrices`; an image without density is left alone).
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
    scale = tf.random.stateless_uniform([n, 2], s_scale, scales[0], scales[1])
    shift = tf.random.stateless_uniform([n, 2], s_shift, shifts[0], shifts[1])
    apply = tf.random.stateless_uniform([n], s_apply) < probability
    if method in ("macenko", "vahadane"):
        fit = macenko_stain_matrices if method == "macenko" else vahadane_stain_matrices
        matrices, fitted = fit(images)
        return he_stain_with_matrices(images, matrices, stain_projections(matrices), scale, shift, augment_background,
                                      apply & fitted)
    if preset is None:
        index = tf.random.stateless_uniform([n], s_preset, 0, len(PRESETS), dtype=tf.int32)
    else:
        index = tf.fill([n], PRESETS.index(preset))
    return he_stain_with(images, index, scale, shift, augment_background, apply)
