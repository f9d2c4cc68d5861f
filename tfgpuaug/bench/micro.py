"""Per-op microbenchmarks in bytes moved per second (bytes read + bytes written by the
op's contract, not by its implementation), next to this machine's measured memory
bandwidth, so each figure says how far an op is from streaming its data once."""
from __future__ import annotations

import statistics
import time
from typing import Callable, Dict, List

import numpy as np
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug.augment import ops as aug_ops


def memory_bandwidth_gbs(megabytes: int = 256, rounds: int = 5) -> float:
    """Single-thread copy bandwidth (read + write bytes per second, GB/s) of numpy."""
    src = np.ones(megabytes << 20, np.uint8)
    dst = np.empty_like(src)
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        np.copyto(dst, src)
        best = min(best, time.perf_counter() - start)
    return 2 * src.nbytes / best / 1e9


def _seconds(fn: Callable[[], tf.Tensor], rounds: int, iters: int) -> float:
    fn()  # trace and warm up
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(iters):
            out = fn()
        _ = out.shape  # eager results are ready when returned; keep the last alive until here
        times.append((time.perf_counter() - start) / iters)
    return statistics.median(times)


def run(blobs: List[bytes], batch: int, rounds: int = 3, iters: int = 5) -> List[Dict]:
    """[{op, implementation, bytes, seconds, gb_per_s, images_per_s}] for each microbenchmark."""
    jpegs = tf.constant([b for b in blobs if b[:2] == b"\xff\xd8"][:batch])
    n = int(jpegs.shape[0])
    decoded = tga.decode_image(jpegs)
    decoded_bytes = int(tf.size(decoded.flat_values))
    big = tga.resize(decoded, 384)  # a dense batch to resample
    small = tga.resize(decoded, 224)
    mean, std = tf.constant(tga.IMAGENET_MEAN), tf.constant(tga.IMAGENET_STD)
    in_big, in_small = int(tf.size(big)), int(tf.size(small))
    float_out = 4 * in_small

    cases = [
        ("decode", "tfgpuaug.decode_image", lambda: tga.decode_image(jpegs).flat_values,
         int(tf.reduce_sum(tf.strings.length(jpegs))) + decoded_bytes),
        ("decode", "tf.io.decode_jpeg (map_fn)",
         lambda: tf.map_fn(lambda x: tf.shape(tf.io.decode_jpeg(x, channels=3)), jpegs,
                           fn_output_signature=tf.int32, parallel_iterations=16),
         int(tf.reduce_sum(tf.strings.length(jpegs))) + decoded_bytes),
        ("resize 384->224 antialias", "tfgpuaug.resize", lambda: tga.resize(big, 224, antialias=True),
         in_big + in_small),
        ("resize 384->224 antialias", "tf.image.resize",
         lambda: tf.image.resize(big, [224, 224], antialias=True), in_big + 4 * in_small),
        ("crop_mirror_normalize uint8->float32", "tfgpuaug.crop_mirror_normalize",
         lambda: tga.crop_mirror_normalize(small, tga.IMAGENET_MEAN, tga.IMAGENET_STD, mirror=0.5, seed=1),
         in_small + float_out),
        ("crop_mirror_normalize uint8->float32", "tf (cast, flip, subtract, divide)",
         lambda: (tf.image.flip_left_right(tf.cast(small, tf.float32)) - mean) / std,
         in_small + float_out),
    ]
    params = {"rotate": 15.0, "shear_x": 0.2, "shear_y": 0.2, "translate_x": 30.0,
              "translate_y": 30.0, "brightness": 1.3, "color": 1.3, "contrast": 1.3,
              "sharpness": 1.3, "posterize": 4.0, "solarize": 128.0, "solarize_add": 40.0,
              "cutout": 40.0, "hue": 0.1, "saturation": 1.3, "gaussian_noise": 10.0,
              "gaussian_blur": 1.0, "gamma": 1.5, "channel_shuffle": 3.0, "rgb_shift": 20.0, "sharpen": 0.5,
              "emboss": 0.5, "median_blur": 5.0, "motion_blur": 7.0, "downscale": 0.25,
              "hsv_shift": 7.0, "tone_curve": 0.2, "iso_noise": 0.5}
    for name, op_id in aug_ops.OP_IDS.items():
        ids = tf.fill([n, 1], op_id)
        mags = tf.fill([n, 1], params.get(name, 0.0))
        cases.append((f"augment {name}", "tfgpuaug.augment (one stage)",
                      lambda ids=ids, mags=mags: aug_ops.apply_stages(small, ids, mags), 2 * in_small))

    cases += keras_cases(small, 2 * in_small)

    results = []
    for op, impl, fn, nbytes in cases:
        seconds = _seconds(tf.function(fn), rounds, iters)
        results.append(dict(op=op, implementation=impl, bytes=nbytes, seconds=seconds,
                            gb_per_s=nbytes / seconds / 1e9, images_per_s=n / seconds))
    for op, impl, fn in albumentations_cases(small.numpy()):
        seconds = _python_seconds(fn, rounds, iters)
        results.append(dict(op=op, implementation=impl, bytes=2 * in_small, seconds=seconds,
                            gb_per_s=2 * in_small / seconds / 1e9, images_per_s=n / seconds))
    return results


def keras_cases(images: tf.Tensor, nbytes: int) -> List[tuple]:
    """Keras 3's preprocessing layers for the kernel ops they have, as `model.fit` users run
    them (uint8 in, training=True, every sample changed where the layer allows it), under the
    augment op each one matches, for side-by-side rows (issue 36's "5x Keras 3" target)."""
    import keras
    L = keras.layers
    layers = {
        "gaussian_blur": lambda: L.RandomGaussianBlur(factor=1.0, kernel_size=7, sigma=1.0, seed=1),
        "sharpness": lambda: L.RandomSharpness(factor=0.5, seed=1),
        "grayscale": lambda: L.RandomGrayscale(factor=1.0, seed=1),
        "posterize": lambda: L.RandomPosterization(factor=4, seed=1),
        "invert": lambda: L.RandomInvert(factor=1.0, seed=1),
        "color": lambda: L.RandomColorDegeneration(factor=0.3, seed=1),
        "hue": lambda: L.RandomHue(factor=0.1, seed=1),
        "saturation": lambda: L.RandomSaturation(factor=0.3, seed=1),
        "brightness": lambda: L.RandomBrightness(factor=0.3, seed=1),
        "contrast": lambda: L.RandomContrast(factor=0.3, seed=1),
        "rotate": lambda: L.RandomRotation(factor=0.05, fill_mode="constant", seed=1),
        "shear_x": lambda: L.RandomShear(x_factor=0.2, fill_mode="constant", seed=1),
    }
    cases = []
    for name, make in layers.items():
        layer = make()
        cases.append((f"augment {name}", f"keras.layers.{type(layer).__name__}",
                      lambda layer=layer: layer(images, training=True), nbytes))
    return cases


def _python_seconds(fn: Callable[[], object], rounds: int, iters: int) -> float:
    fn()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(iters):
            fn()
        times.append((time.perf_counter() - start) / iters)
    return statistics.median(times)


def albumentations_cases(images: np.ndarray) -> List[tuple]:
    """Albumentations (when installed: a benchmark-only dependency) for the ops it has, always
    applied, image by image over the batch on one thread (its own loop, no tf.data around it:
    its best case), under the augment op each matches. Transforms whose arguments this
    Albumentations does not take are left out."""
    try:
        import albumentations as A
    except ImportError:
        return []
    makers = {
        "gaussian_blur": lambda: A.GaussianBlur(blur_limit=(7, 7), sigma_limit=(1.0, 1.0), p=1.0),
        "sharpen": lambda: A.Sharpen(alpha=(0.5, 0.5), lightness=(1.0, 1.0), p=1.0),
        "emboss": lambda: A.Emboss(alpha=(0.5, 0.5), strength=(0.7, 0.7), p=1.0),
        "median_blur": lambda: A.MedianBlur(blur_limit=(5, 5), p=1.0),
        "motion_blur": lambda: A.MotionBlur(blur_limit=(7, 7), p=1.0),
        "downscale": lambda: A.Downscale(scale_range=(0.25, 0.25), p=1.0),
        "gamma": lambda: A.RandomGamma(gamma_limit=(150, 150), p=1.0),
        "channel_shuffle": lambda: A.ChannelShuffle(p=1.0),
        "rgb_shift": lambda: A.RGBShift(r_shift_limit=(20, 20), g_shift_limit=(0, 0), b_shift_limit=(0, 0), p=1.0),
        "gaussian_noise": lambda: A.GaussNoise(std_range=(10 / 255, 10 / 255), p=1.0),
        "grayscale": lambda: A.ToGray(p=1.0),
        "posterize": lambda: A.Posterize(num_bits=4, p=1.0),
        "invert": lambda: A.InvertImg(p=1.0),
        "equalize": lambda: A.Equalize(p=1.0),
        "hsv_shift": lambda: A.HueSaturationValue((7, 7), (0, 0), (0, 0), p=1.0),
        "tone_curve": lambda: A.RandomToneCurve(scale=0.1, p=1.0),
        "iso_noise": lambda: A.ISONoise(intensity=(0.5, 0.5), p=1.0),
    }
    cases = []
    for name, make in makers.items():
        try:
            transform = make()
        except (TypeError, ValueError):
            continue
        cases.append((f"augment {name}", f"albumentations.{type(transform).__name__}",
                      lambda t=transform: [t(image=img)["image"] for img in images]))
    return cases
