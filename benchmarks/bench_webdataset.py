"""WebDataset shards against the same images as files, side by side in one run: the sample
images written once as 8 tar shards (jpg + cls), then (1) reading alone and (2) the train
pipeline (RandomResizedCrop 224, flip, normalize, batch 64 through gpu_augment), each from
files (`tga.data.file_list`) and from shards (`tga.data.webdataset`).

    python benchmarks/bench_webdataset.py [--data DIR] [--rounds 3] [--json out.json]
"""
from __future__ import annotations

import io
import json
import os
import platform
import tarfile
import tempfile

import tensorflow as tf
from absl import app, flags

import anchors  # benchmarks/anchors (this script's folder is on sys.path)
import tfgpuaug as tga
from tfgpuaug.bench import timing

_DATA = flags.DEFINE_string("data", None, "Image folder (default: shared ImageNet sample).")
_ROUNDS = flags.DEFINE_integer("rounds", 3, "Timed rounds (median reported).")
_BATCH = flags.DEFINE_integer("batch_size", 64, "Batch size.")
_SHARDS = flags.DEFINE_integer("shards", 8, "Tar shards to write.")
_JSON = flags.DEFINE_string("json", None, "Write results to this JSON file.")


def write_shards(files: list, folder: str, count: int) -> str:
    for s in range(count):
        with tarfile.open(os.path.join(folder, f"train-{s:03d}.tar"), "w") as tar:
            for i in range(s, len(files), count):
                for ext, payload in (("jpg", open(files[i], "rb").read()), ("cls", str(i % 10).encode())):
                    info = tarfile.TarInfo(f"{i:06d}.{ext}")
                    info.size = len(payload)
                    tar.addfile(info, io.BytesIO(payload))
    return os.path.join(folder, f"train-{{000..{count - 1:03d}}}.tar")


def main(argv):
    del argv
    _, files = timing.load_images(_DATA.value or anchors.sample_data_dir(), jpeg_only=True)
    b = _BATCH.value
    folder = tempfile.mkdtemp(prefix="tfgpuaug-wds-")
    pattern = write_shards(files, folder, _SHARDS.value)
    labels = [i % 10 for i in range(len(files))]
    transforms = [tga.RandomResizedCrop(224), tga.RandomFlip(), tga.CropMirrorNormalize(dtype=tf.float32)]

    def from_files(seed):
        return tga.data.file_list(files, labels, shuffle=True, seed=seed)

    def from_shards(seed):
        ds = tga.data.webdataset(pattern, {"image": "jpg", "label": "cls"}, shuffle=True, seed=seed)
        return ds.map(lambda x: (x["image"], tf.strings.to_number(x["label"], tf.int64)))

    def read_only(source):
        return lambda seed: source(seed).repeat().batch(b).map(lambda x, y: tf.strings.length(x))

    def train(source):
        return lambda seed: source(seed).repeat().batch(b).apply(tga.gpu_augment(transforms, seed=seed))

    makers = {"read: files": read_only(from_files), "read: shards": read_only(from_shards),
              "train: files": train(from_files), "train: shards": train(from_shards)}
    print(f"{len(files)} images as files and as {_SHARDS.value} shards in {folder}; batch {b}; "
          f"{os.cpu_count()} cores; median of {_ROUNDS.value} interleaved rounds")
    rates = timing.interleaved_images_per_second(makers, max(len(files), 10 * b), _ROUNDS.value, b)
    results = [dict(pipeline=k, images_per_s=round(v, 1)) for k, v in rates.items()]
    for r in results:
        print(f"{r['pipeline']:15s} {r['images_per_s']:9.1f} img/s")
    for kind in ("read", "train"):
        print(f"{kind}: shards / files = {rates[f'{kind}: shards'] / rates[f'{kind}: files']:.2f}x")
    if _JSON.value:
        with open(_JSON.value, "w") as f:
            json.dump(dict(machine=platform.platform(), cores=os.cpu_count(), images=len(files),
                           results=results), f, indent=1)


if __name__ == "__main__":
    app.run(main)
