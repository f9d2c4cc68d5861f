"""Each pixel-level stage (and the map-based distortions) in a tf.data pipeline, as users run
each library, side by side in one run (issue 36's comparison): tfgpuaug's stage on batches of
64 in a map; Albumentations' transform per image through `tf.numpy_function` in a parallel map
before batching (how a TF user calls it); Keras 3's layer on batches where Keras has one. The same decoded 224x224
sample images feed every pipeline (cached in memory), every transform always applies, and the
"none" row is the same pipeline with no stage (its floor).

    python benchmarks/bench_albumentations_pipelines.py [--data DIR] [--rounds 3] [--json out.json]

Needs `albumentations` (a benchmark-only dependency: pip install albumentations); Keras rows
come with TensorFlow's Keras 3.
"""
from __future__ import annotations

import json
import os
import platform

import keras
import numpy as np
import tensorflow as tf
from absl import app, flags

import anchors  # benchmarks/anchors (this script's folder is on sys.path)
import tfgpuaug as tga
from tfgpuaug.bench import timing


class _WithData:
    """An Albumentations transform called with extra data (2.0's per-call metadata)."""

    def __init__(self, transform, **data):
        self.transform, self.data = transform, data

    def __call__(self, image):
        return self.transform(image=image, **self.data)


# HistogramMatching's reference: 224x224 RGB ramps
_RAMP = np.arange(224, dtype=np.float32)
REFERENCE = np.stack([np.add.outer(_RAMP, _RAMP) / 2, np.tile(_RAMP, (224, 1)),
                      255 - np.tile(_RAMP[:, None], (1, 224))], -1).clip(0, 255).astype(np.uint8)

_DATA = flags.DEFINE_string("data", None, "Image folder (default: shared ImageNet sample).")
_COUNT = flags.DEFINE_integer("count", 256, "Images decoded and resized once.")
_ROUNDS = flags.DEFINE_integer("rounds", 3, "Timed rounds (median reported).")
_BATCH = flags.DEFINE_integer("batch_size", 64, "Batch size.")
_OPS = flags.DEFINE_list("ops", None, "Only these rows (default: all).")
_JSON = flags.DEFINE_string("json", None, "Write results to this JSON file.")

AUTOTUNE = tf.data.AUTOTUNE
AUG = tga.augment


def stages(A):
    """op -> (tfgpuaug's batched stage fn(x, seed), Albumentations' transform, Keras layer or None),
    with the same fixed parameters where both libraries take them."""
    L = keras.layers
    import cv2
    return {
        "sharpen": (lambda x, s: AUG.random_sharpen(x, (0.5, 0.5), (1.0, 1.0), 1.0, s),
                    A.Sharpen(alpha=(0.5, 0.5), lightness=(1.0, 1.0), p=1.0), None),
        "emboss": (lambda x, s: AUG.random_emboss(x, (0.5, 0.5), (0.7, 0.7), 1.0, s),
                   A.Emboss(alpha=(0.5, 0.5), strength=(0.7, 0.7), p=1.0), None),
        "blur 5": (lambda x, s: AUG.random_blur(x, (5, 5), 1.0, s), A.Blur(blur_limit=(5, 5), p=1.0), None),
        "median_blur 5": (lambda x, s: AUG.random_median_blur(x, (5, 5), 1.0, s), A.MedianBlur((5, 5), p=1.0), None),
        "median_blur 7": (lambda x, s: AUG.random_median_blur(x, (7, 7), 1.0, s), A.MedianBlur((7, 7), p=1.0), None),
        "motion_blur 7": (lambda x, s: AUG.random_motion_blur(x, (7, 7), probability=1.0, seed=s),
                          A.MotionBlur((7, 7), p=1.0), None),
        "gaussian_blur": (lambda x, s: AUG.random_gaussian_blur(x, (1.0, 1.0), 1.0, s),
                          A.GaussianBlur(blur_limit=(7, 7), sigma_limit=(1.0, 1.0), p=1.0),
                          L.RandomGaussianBlur(factor=1.0, kernel_size=7, sigma=1.0)),
        "downscale 0.25": (lambda x, s: AUG.random_downscale(x, (0.25, 0.25), 1.0, s),
                           A.Downscale(scale_range=(0.25, 0.25), p=1.0), None),
        "gamma 1.5": (lambda x, s: AUG.random_gamma(x, (1.5, 1.5), 1.0, s), A.RandomGamma((150, 150), p=1.0), None),
        "channel_shuffle": (lambda x, s: AUG.channel_shuffle(x, 1.0, s), A.ChannelShuffle(p=1.0), None),
        "rgb_shift 20": (lambda x, s: AUG.rgb_shift(x, 20.0, 1.0, s),
                         A.RGBShift((-20, 20), (-20, 20), (-20, 20), p=1.0), None),
        "gauss_noise 10": (lambda x, s: AUG.random_gaussian_noise(x, (10.0, 10.0), 1.0, s),
                           A.GaussNoise(std_range=(10 / 255, 10 / 255), p=1.0), None),
        "to_gray": (lambda x, s: AUG.to_gray(x, 1.0, s), A.ToGray(p=1.0), L.RandomGrayscale(factor=1.0)),
        "hue_saturation_value": (lambda x, s: AUG.random_hsv_shift(x, 20.0, 30.0, 20.0, 1.0, s),
                                 A.HueSaturationValue(20, 30, 20, p=1.0), None),
        "tone_curve": (lambda x, s: AUG.random_tone_curve(x, 0.1, 1.0, s), A.RandomToneCurve(scale=0.1, p=1.0), None),
        "iso_noise": (lambda x, s: AUG.random_iso_noise(x, (0.01, 0.05), (0.1, 0.5), 1.0, s), A.ISONoise(p=1.0),
                      None),
        "clahe": (lambda x, s: AUG.random_clahe(x, 4.0, (8, 8), 1.0, s), A.CLAHE(p=1.0), None),
        # stages of the fused kernel too (ids 34-43)
        "shot_noise": (lambda x, s: tga.ShotNoise(probability=1.0)(x, seed=s), A.ShotNoise(p=1.0), None),
        "to_sepia": (lambda x, s: tga.ToSepia(probability=1.0)(x, seed=s), A.ToSepia(p=1.0), None),
        "pixel_dropout": (lambda x, s: tga.PixelDropout(probability=1.0)(x, seed=s), A.PixelDropout(p=1.0), None),
        "channel_dropout": (lambda x, s: tga.ChannelDropout(probability=1.0)(x, seed=s), A.ChannelDropout(p=1.0),
                            None),
        "salt_and_pepper": (lambda x, s: tga.SaltAndPepper(probability=1.0)(x, seed=s), A.SaltAndPepper(p=1.0),
                            None),
        "d4": (lambda x, s: tga.D4(probability=1.0)(x, seed=s), A.D4(p=1.0), None),
        "multiplicative_noise": (lambda x, s: tga.MultiplicativeNoise(probability=1.0)(x, seed=s),
                                 A.MultiplicativeNoise(p=1.0), None),
        "multiplicative_noise per_channel": (
            lambda x, s: tga.MultiplicativeNoise(per_channel=True, probability=1.0)(x, seed=s),
            A.MultiplicativeNoise(per_channel=True, p=1.0), None),
        "multiplicative_noise elementwise": (
            lambda x, s: tga.MultiplicativeNoise(per_channel=True, elementwise=True, probability=1.0)(x, seed=s),
            A.MultiplicativeNoise(per_channel=True, elementwise=True, p=1.0), None),
        "additive_noise": (lambda x, s: tga.AdditiveNoise(probability=1.0)(x, seed=s), A.AdditiveNoise(p=1.0), None),
        "additive_noise gaussian per_pixel": (
            lambda x, s: tga.AdditiveNoise("gaussian", "per_pixel", probability=1.0)(x, seed=s),
            A.AdditiveNoise(noise_type="gaussian", spatial_mode="per_pixel", p=1.0), None),
        "additive_noise uniform per_pixel": (
            lambda x, s: tga.AdditiveNoise("uniform", "per_pixel", probability=1.0)(x, seed=s),
            A.AdditiveNoise(noise_type="uniform", spatial_mode="per_pixel", p=1.0), None),
        "additive_noise laplace shared": (
            lambda x, s: tga.AdditiveNoise("laplace", "shared", probability=1.0)(x, seed=s),
            A.AdditiveNoise(noise_type="laplace", spatial_mode="shared", p=1.0), None),
        "he_stain": (lambda x, s: tga.HEStain(probability=1.0)(x, seed=s), A.HEStain(p=1.0), None),
        "he_stain macenko": (lambda x, s: tga.HEStain("macenko", probability=1.0)(x, seed=s),
                             A.HEStain(method="macenko", p=1.0), None),
        "he_stain vahadane": (lambda x, s: tga.HEStain("vahadane", probability=1.0)(x, seed=s),
                              A.HEStain(method="vahadane", p=1.0), None),
        "planckian_jitter": (lambda x, s: tga.PlanckianJitter(probability=1.0)(x, seed=s), A.PlanckianJitter(p=1.0),
                             None),
        "illumination": (lambda x, s: tga.Illumination(probability=1.0)(x, seed=s), A.Illumination(p=1.0), None),
        "illumination corner": (lambda x, s: tga.Illumination("corner", probability=1.0)(x, seed=s),
                                A.Illumination(mode="corner", p=1.0), None),
        "illumination gaussian": (lambda x, s: tga.Illumination("gaussian", probability=1.0)(x, seed=s),
                                  A.Illumination(mode="gaussian", p=1.0), None),
        # kernel ops of their own (not stages of the fused kernel)
        "unsharp_mask": (lambda x, s: tga.UnsharpMask(probability=1.0)(x, seed=s), A.UnsharpMask(p=1.0), None),
        "advanced_blur": (lambda x, s: tga.AdvancedBlur(probability=1.0)(x, seed=s), A.AdvancedBlur(p=1.0), None),
        "defocus": (lambda x, s: tga.Defocus(probability=1.0)(x, seed=s), A.Defocus(p=1.0), None),
        "ringing_overshoot": (lambda x, s: tga.RingingOvershoot(probability=1.0)(x, seed=s),
                              A.RingingOvershoot(p=1.0), None),
        "glass_blur": (lambda x, s: tga.GlassBlur(probability=1.0)(x, seed=s), A.GlassBlur(p=1.0), None),
        "zoom_blur": (lambda x, s: tga.ZoomBlur(probability=1.0)(x, seed=s), A.ZoomBlur(p=1.0), None),
        "superpixels": (lambda x, s: tga.Superpixels(probability=1.0)(x, seed=s), A.Superpixels(p=1.0), None),
        # one reference of the images' size (a smooth colour ramp) for both libraries
        "histogram_matching": (lambda x, s: tga.HistogramMatching(REFERENCE[None], probability=1.0)(x, seed=s),
                               _WithData(A.HistogramMatching(p=1.0), hm_metadata=[REFERENCE]), None),
        "fda": (lambda x, s: tga.FDA(REFERENCE[None], probability=1.0)(x, seed=s),
                _WithData(A.FDA(p=1.0), fda_metadata=[REFERENCE]), None),
        # Albumentations 2.0.8's output here is the image times (1 - weight) (docs/augmentations.md)
        "pixel_distribution_adaptation": (
            lambda x, s: tga.PixelDistributionAdaptation(REFERENCE[None], probability=1.0)(x, seed=s),
            _WithData(A.PixelDistributionAdaptation(p=1.0), pda_metadata=[REFERENCE]), None),
        # weather effects: shapes painted by the SpanRaster op, one table pass (fog: plus the Filter2D op)
        "random_shadow": (lambda x, s: tga.RandomShadow(probability=1.0)(x, seed=s), A.RandomShadow(p=1.0), None),
        "random_rain": (lambda x, s: tga.RandomRain(probability=1.0)(x, seed=s), A.RandomRain(p=1.0), None),
        "random_snow": (lambda x, s: tga.RandomSnow(probability=1.0)(x, seed=s), A.RandomSnow(p=1.0), None),
        "random_gravel": (lambda x, s: tga.RandomGravel(probability=1.0)(x, seed=s), A.RandomGravel(p=1.0), None),
        "random_fog": (lambda x, s: tga.RandomFog(probability=1.0)(x, seed=s), A.RandomFog(p=1.0), None),
        "random_sun_flare": (lambda x, s: tga.RandomSunFlare(probability=1.0)(x, seed=s), A.RandomSunFlare(p=1.0),
                             None),
        "random_sun_flare physics": (
            lambda x, s: tga.RandomSunFlare(method="physics_based", probability=1.0)(x, seed=s),
            A.RandomSunFlare(method="physics_based", p=1.0), None),
        "spatter_mud": (lambda x, s: tga.Spatter(mode="mud", probability=1.0)(x, seed=s), A.Spatter(mode="mud", p=1.0),
                        None),
        "spatter_rain": (lambda x, s: tga.Spatter(probability=1.0)(x, seed=s), A.Spatter(p=1.0), None),
        # TF-op transforms (not stages of the fused kernel)
        "plasma_brightness_contrast": (lambda x, s: tga.PlasmaBrightnessContrast(probability=1.0)(x, seed=s),
                                       A.PlasmaBrightnessContrast(p=1.0), None),
        "plasma_shadow": (lambda x, s: tga.PlasmaShadow(probability=1.0)(x, seed=s), A.PlasmaShadow(p=1.0), None),
        "chromatic_aberration": (lambda x, s: tga.ChromaticAberration(probability=1.0)(x, seed=s),
                                 A.ChromaticAberration(p=1.0), None),
        "additive_noise beta per_pixel": (
            lambda x, s: tga.AdditiveNoise("beta", "per_pixel", probability=1.0)(x, seed=s),
            A.AdditiveNoise(noise_type="beta", spatial_mode="per_pixel", p=1.0), None),
        "morphological": (lambda x, s: tga.Morphological((2, 3), probability=1.0)(x, seed=s),
                          A.Morphological(scale=(2, 3), p=1.0), None),
        "pad 16 + random_crop": (lambda x, s: tga.RandomCrop(224, padding=16)(x, seed=s),
                                 A.Compose([A.Pad(16), A.RandomCrop(224, 224)]), None),
        "pad 16 reflect + random_crop": (lambda x, s: tga.RandomCrop(224, 16, padding_mode="reflect")(x, seed=s),
                                         A.Compose([A.Pad(16, border_mode=cv2.BORDER_REFLECT_101),
                                                    A.RandomCrop(224, 224)]), None),
        # spatial: a map per sample and one remap (images only here)
        "xy_masking": (lambda x, s: tga.XYMasking((1, 3), (1, 3), (10, 20), (10, 20), probability=1.0)(x, seed=s),
                       A.XYMasking(num_masks_x=(1, 3), num_masks_y=(1, 3), mask_x_length=(10, 20),
                                   mask_y_length=(10, 20), p=1.0), None),
        "safe_rotate": (lambda x, s: tga.SafeRotate(probability=1.0)(x, seed=s), A.SafeRotate(p=1.0), None),
        "grid_shuffle": (lambda x, s: tga.RandomGridShuffle(probability=1.0)(x, seed=s), A.RandomGridShuffle(p=1.0),
                         None),
        "crop_and_pad": (lambda x, s: tga.CropAndPad(percent=(-0.1, 0.1), border_mode="reflect_101")(x, seed=s),
                         A.CropAndPad(percent=(-0.1, 0.1), border_mode=cv2.BORDER_REFLECT_101, p=1.0), None),
        "affine reflect_101": (lambda x, s: tga.RandomAffine(30, scale=(0.9, 1.1),
                                                             border_mode="reflect_101")(x, seed=s),
                               A.Affine(rotate=(-30, 30), scale=(0.9, 1.1), border_mode=cv2.BORDER_REFLECT_101,
                                        p=1.0), None),
        "elastic 1/50": (lambda x, s: tga.ElasticTransform(probability=1.0)(x, seed=s),
                            A.ElasticTransform(p=1.0), None),
        "elastic 120/6": (lambda x, s: tga.ElasticTransform(120.0, 6.0, probability=1.0)(x, seed=s),
                             A.ElasticTransform(alpha=120.0, sigma=6.0, p=1.0), None),
        "grid_elastic_deform": (lambda x, s: tga.GridElasticDeform((4, 4), 10)(x, seed=s),
                                A.GridElasticDeform(num_grid_xy=(4, 4), magnitude=10, p=1.0), None),
        "grid_elastic_deform 8x8/5": (lambda x, s: tga.GridElasticDeform((8, 8), 5)(x, seed=s),
                                      A.GridElasticDeform(num_grid_xy=(8, 8), magnitude=5, p=1.0), None),
        "grid_distortion": (lambda x, s: tga.GridDistortion(probability=1.0)(x, seed=s),
                            A.GridDistortion(p=1.0), None),
        "optical_distortion": (lambda x, s: tga.OpticalDistortion(0.3, probability=1.0)(x, seed=s),
                               A.OpticalDistortion(distort_limit=0.3, p=1.0), None),
        "piecewise_affine": (lambda x, s: tga.PiecewiseAffine(probability=1.0)(x, seed=s),
                             A.PiecewiseAffine(p=1.0), None),
        "thin_plate_spline": (lambda x, s: tga.ThinPlateSpline(probability=1.0)(x, seed=s),
                              A.ThinPlateSpline(p=1.0), None),
    }


def main(argv):
    del argv
    import albumentations as A
    import cv2
    blobs, files = timing.load_images(_DATA.value or anchors.sample_data_dir(), jpeg_only=True)
    blobs = tf.constant(blobs[:_COUNT.value])
    images = tf.stack([tga.resize_center_crop(tga.decode_image(b), 224, 224) for b in blobs])
    b = _BATCH.value

    def source():
        return tf.data.Dataset.from_tensor_slices(images).cache().repeat()

    def finish(ds):
        return ds.map(lambda x: tf.reduce_sum(tf.cast(x[:, 0, 0], tf.int32))).prefetch(AUTOTUNE)

    def batched(fn):
        return lambda seed: finish(source().batch(b, drop_remainder=True).map(
            lambda x: fn(x, tf.constant([seed, 7], tf.int64)), num_parallel_calls=AUTOTUNE))

    def albumentations(transform):
        def call(img: np.ndarray) -> np.ndarray:
            return transform(image=img)["image"]

        def one(x):
            y = tf.numpy_function(call, [x], tf.uint8)
            return tf.ensure_shape(y, x.shape)
        return lambda seed: finish(source().map(one, num_parallel_calls=AUTOTUNE).batch(b, drop_remainder=True))

    def keras_layer(layer):
        return batched(lambda x, s: layer(tf.cast(x, tf.float32), training=True))

    makers = {"none: tfgpuaug": batched(lambda x, s: x)}
    unknown = set(_OPS.value or ()) - set(stages(A)) - {"none"}
    if unknown:
        raise SystemExit(f"unknown --ops {sorted(unknown)}; known: {sorted(stages(A))}")
    for op, (ours, theirs, layer) in stages(A).items():
        if _OPS.value and op not in _OPS.value:
            continue
        makers[f"{op}: tfgpuaug"] = batched(ours)
        makers[f"{op}: albumentations"] = albumentations(theirs)
        if layer is not None:
            makers[f"{op}: keras"] = keras_layer(layer)
    print(f"{images.shape[0]} images of 224x224 from {os.path.dirname(files[0])}; batch {b}; "
          f"{os.cpu_count()} cores; albumentations {A.__version__} (OpenCV {cv2.__version__}); median of "
          f"{_ROUNDS.value} interleaved rounds")
    rates = timing.interleaved_images_per_second(makers, max(int(images.shape[0]), 10 * b), _ROUNDS.value, b)
    results = timing.ratio_rows(rates, 40)
    if _JSON.value:
        with open(_JSON.value, "w") as f:
            json.dump(dict(machine=platform.platform(), cores=os.cpu_count(), images=int(images.shape[0]),
                           albumentations=A.__version__, opencv=cv2.__version__, keras=keras.__version__,
                           results=results), f, indent=1)


if __name__ == "__main__":
    app.run(main)
