"""The main job on built-in sample data: generate an image folder, run the training
pipeline (random-resized-crop, RandAugment, flip + normalize) through `gpu_augment`, and
write a grid: each row an original (centre crop) and its augmented versions.

    python -m tfgpuaug.demo --out /tmp/tfgpuaug-demo
"""
from __future__ import annotations

import os
import time

import tensorflow as tf
from absl import app, flags, logging

import tfgpuaug as tga
from tfgpuaug import preview, samples

_OUT = flags.DEFINE_string("out", "/tmp/tfgpuaug-demo", "Output directory.")
_DATA = flags.DEFINE_string("data", None, "Image folder to use instead of generated samples.")
_BATCH = flags.DEFINE_integer("batch_size", 16, "Images per batch.")
_TILE = flags.DEFINE_integer("tile", 128, "Output and grid tile size in pixels.")
_ROWS = flags.DEFINE_integer("rows", 6, "Images shown in the grid.")
_VERSIONS = flags.DEFINE_integer("versions", 5, "Augmented versions (pipeline runs) per image.")


def main(argv):
    del argv
    out = _OUT.value
    os.makedirs(out, exist_ok=True)
    data = _DATA.value or os.path.join(out, "images")
    if _DATA.value is None:
        paths = samples.make_sample_images(data)
        logging.info("wrote %d sample images to %s", len(paths), data)
    files = preview.list_images(data, 10**9)
    blobs = tf.data.Dataset.from_tensor_slices(files).map(tf.io.read_file).batch(_BATCH.value)
    mean, std = tf.constant(tga.IMAGENET_MEAN), tf.constant(tga.IMAGENET_STD)
    # Rows spread over the whole folder, so every class shows.
    shown_rows = list(range(0, len(files), max(1, len(files) // _ROWS.value)))[:_ROWS.value]
    versions, count, seconds = [], 0, 0.0
    for run in range(_VERSIONS.value):  # each run of the pipeline is one augmented version
        train = tga.gpu_augment([tga.RandomResizedCrop(_TILE.value, scale=(0.3, 1.0)),
                                 tga.RandAugment(num_ops=2, magnitude=9),
                                 tga.CropMirrorNormalize(mirror=0.5)], seed=run)
        start = time.perf_counter()
        augmented = tf.concat(list(blobs.apply(train)), axis=0)
        seconds += time.perf_counter() - start
        count += int(augmented.shape[0])
        # Undo the normalisation for display.
        shown = tf.cast(tf.clip_by_value(tf.gather(augmented, shown_rows) * std + mean, 0, 255), tf.uint8)
        versions.append(shown)
    contents = tf.stack([tf.io.read_file(files[i]) for i in shown_rows])
    originals = preview.load_tiles(contents, _TILE.value)
    grid_path = os.path.join(out, "augmented.png")
    preview.write_png(grid_path, preview.grid(originals, versions))
    print(f"{count} images ({len(files)} files x {_VERSIONS.value} runs) through random_resized_crop + "
          f"rand_augment + crop_mirror_normalize in {seconds:.2f}s (incl. graph tracing); grid (original, then "
          f"{_VERSIONS.value} augmented versions per row): {grid_path}")


if __name__ == "__main__":
    app.run(main)
