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
              "gaussian_blur": 1.0}
    for name, op_id in aug_ops.OP_IDS.items():
        ids = tf.fill([n, 1], op_id)
        mags = tf.fill([n, 1], params.get(name, 0.0))
        cases.append((f"augment {name}", "tfgpuaug.augment (one stage)",
                      lambda ids=ids, mags=mags: aug_ops.apply_stages(small, ids, mags), 2 * in_small))

    results = []
    for op, impl, fn, nbytes in cases:
        seconds = _seconds(tf.function(fn), rounds, iters)
        results.append(dict(op=op, implementation=impl, bytes=nbytes, seconds=seconds,
                            gb_per_s=nbytes / seconds / 1e9, images_per_s=n / seconds))
    return results
