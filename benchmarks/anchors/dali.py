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


def makers(inp: Inputs) -> Dict[str, Dict[str, Maker]]:
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

    name = "DALI CPU (TF plugin)"
    return {"train": {name: lambda seed: _dataset(train(False, seed=seed), inp)},
            "eval": {name: lambda seed: _dataset(evaluation(seed=seed), inp)},
            "randaugment": {name: lambda seed: _dataset(train(True, seed=seed), inp)}}
