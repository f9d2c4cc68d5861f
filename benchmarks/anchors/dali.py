"""NVIDIA DALI's CPU pipelines through its TensorFlow plugin (`DALIDataset`), the same
three pipelines as `tfgpuaug/bench/pipelines.py`. Only imported when DALI is installed:
`pip install nvidia-dali-cuda120 nvidia-dali-tf-plugin-cuda120` (the plugin builds
against the installed TensorFlow). DALI gets the same encoded bytes from memory as the other
pipelines (`DALIDatasetWithInputs` over a tf.data dataset of the blobs; its file reader would
add file reads the others do not do) and uses as many threads as the machine has cores."""
from __future__ import annotations

import os
from typing import Dict

import tensorflow as tf
from nvidia import dali
from nvidia.dali import fn, types
from nvidia.dali.auto_aug import rand_augment as dali_rand_augment
from nvidia.dali.plugin import tf as dali_tf

from tfgpuaug.bench import pipelines
from tfgpuaug.bench.pipelines import Inputs, Maker

_MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
_STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]


def _dataset(pipe: "dali.Pipeline", inp: Inputs) -> tf.data.Dataset:
    with tf.device("/cpu:0"):
        blobs = inp.images().map(lambda b: tf.io.decode_raw(b, tf.uint8))  # bytes as uint8 [n]
        return dali_tf.experimental.DALIDatasetWithInputs(
            pipeline=pipe, input_datasets={"jpegs": blobs}, batch_size=inp.batch, device_id=None,
            output_shapes=((inp.batch, inp.size, inp.size, 3),),
            output_dtypes=(tf.float32,)).map(lambda x: x)


def _normalize(images, mirror):
    return fn.crop_mirror_normalize(images, dtype=types.FLOAT, output_layout="HWC", mean=_MEAN,
                                    std=_STD, mirror=mirror)


NAME = "DALI CPU (TF plugin)"


def _classification(inp: Inputs):
    threads = os.cpu_count() or 1
    opts = dict(batch_size=inp.batch, num_threads=threads, device_id=None,
                prefetch_queue_depth=2)

    @dali.pipeline_def(**opts, enable_conditionals=True)
    def train(with_randaugment: bool):
        jpegs = fn.external_source(name="jpegs", dtype=types.UINT8)
        images = fn.decoders.image_random_crop(jpegs, device="cpu", output_type=types.RGB)
        images = fn.resize(images, resize_x=inp.size, resize_y=inp.size)
        if with_randaugment:
            images = dali_rand_augment.rand_augment(images, n=2, m=9)
        return _normalize(images, fn.random.coin_flip())

    @dali.pipeline_def(**opts)
    def evaluation():
        jpegs = fn.external_source(name="jpegs", dtype=types.UINT8)
        images = fn.decoders.image(jpegs, device="cpu", output_type=types.RGB)
        images = fn.resize(images, resize_shorter=256)
        images = fn.crop(images, crop=(inp.size, inp.size))
        return _normalize(images, 0)

    return train, evaluation


def detection(inp: Inputs) -> Dict[str, Maker]:
    """decoders.image, flip + bb_flip, resize_longer to 640 x U(0.8, 1.25), a random 640x640
    crop_mirror_normalize with out_of_bounds_policy="pad"; boxes scaled, shifted and clipped with
    DALI's arithmetic and padded to 100 (DALI has no per-box filter: empty boxes stay)."""
    det = pipelines.DetectionInputs(inp)
    size = float(det.size)

    @dali.pipeline_def(batch_size=det.batch, num_threads=os.cpu_count() or 1, device_id=None,
                       prefetch_queue_depth=2)
    def pipe():
        jpegs = fn.external_source(name="jpegs", dtype=types.UINT8)
        boxes = fn.external_source(name="boxes", dtype=types.FLOAT)  # [n, 4] relative ltrb
        labels = fn.external_source(name="labels", dtype=types.INT32)
        images = fn.decoders.image(jpegs, device="cpu", output_type=types.RGB)
        flip = fn.random.coin_flip()
        images = fn.flip(images, horizontal=flip)
        boxes = fn.bb_flip(boxes, ltrb=True, horizontal=flip)
        shape = images.shape(dtype=types.FLOAT)
        target = size * fn.random.uniform(range=(0.8, 1.25))
        scale = target / dali.math.max(shape[0], shape[1])
        images = fn.resize(images, resize_longer=target)
        pos_x, pos_y = fn.random.uniform(range=(0.0, 1.0)), fn.random.uniform(range=(0.0, 1.0))
        images = fn.crop_mirror_normalize(images, crop=(det.size, det.size), crop_pos_x=pos_x, crop_pos_y=pos_y,
                                          out_of_bounds_policy="pad", dtype=types.FLOAT, output_layout="HWC",
                                          mean=_MEAN, std=_STD)
        sw, sh = shape[1] * scale, shape[0] * scale
        ax, ay = pos_x * (sw - size), pos_y * (sh - size)
        clamp = lambda v: dali.math.clamp(v, 0.0, size)  # noqa: E731
        boxes = fn.stack(clamp(boxes[:, 0] * sw - ax), clamp(boxes[:, 1] * sh - ay),
                         clamp(boxes[:, 2] * sw - ax), clamp(boxes[:, 3] * sh - ay), axis=1)
        boxes = fn.pad(boxes, axes=(0,), shape=(pipelines.MAX_BOXES,), fill_value=-1.0)
        labels = fn.pad(labels, axes=(0,), shape=(pipelines.MAX_BOXES,), fill_value=-1)
        return images, boxes, labels

    def maker(seed):
        with tf.device("/cpu:0"):
            ds = det.per_image(rel=True)
            ltrb = ds.map(lambda x, b, c: tf.stack([b[:, 1], b[:, 0], b[:, 3], b[:, 2]], axis=1))
            return dali_tf.experimental.DALIDatasetWithInputs(
                pipeline=pipe(seed=seed),
                input_datasets={"jpegs": ds.map(lambda x, b, c: tf.io.decode_raw(x, tf.uint8)),
                                "boxes": ltrb, "labels": ds.map(lambda x, b, c: c)},
                batch_size=det.batch, device_id=None,
                output_shapes=((det.batch, det.size, det.size, 3), (det.batch, pipelines.MAX_BOXES, 4),
                               (det.batch, pipelines.MAX_BOXES)),
                output_dtypes=(tf.float32, tf.float32, tf.int32)).map(lambda *x: x)
    return {NAME: maker}


SUITES = {
    "train": lambda inp: {NAME: lambda seed: _dataset(_classification(inp)[0](False, seed=seed), inp)},
    "eval": lambda inp: {NAME: lambda seed: _dataset(_classification(inp)[1](seed=seed), inp)},
    "randaugment": lambda inp: {NAME: lambda seed: _dataset(_classification(inp)[0](True, seed=seed), inp)},
    "detection": detection,
    "large": lambda inp: (lambda large: {NAME: lambda seed: _dataset(_classification(large)[0](False, seed=seed),
                                                                     large)})(pipelines.large_inputs(inp)),
}
