"""The main job on built-in sample data: generate an image folder, run the training
pipeline (random-resized-crop, RandAugment, flip + normalize) through `gpu_augment`, and
write a contact sheet: each original next to its augmented version.

    python -m tfgpuaug.demo --out /tmp/tfgpuaug-demo
"""
from __future__ import annotations

import os
import time

import tensorflow as tf
from absl import app, flags, logging

import tfgpuaug as tga
from tfgpuaug import samples

_OUT = flags.DEFINE_string("out", "/tmp/tfgpuaug-demo", "Output directory.")
_DATA = flags.DEFINE_string("data", None, "Image folder to use instead of generated samples.")
_BATCH = flags.DEFINE_integer("batch_size", 16, "Images per batch.")
_TILE = flags.DEFINE_integer("tile", 128, "Output and contact-sheet tile size in pixels.")


def contact_sheet(images: list[tf.Tensor], tile: int, columns: int = 8) -> tf.Tensor:
    tiles = [tf.cast(tf.image.resize_with_pad(img, tile, tile), tf.uint8) for img in images]
    while len(tiles) % columns:
        tiles.append(tf.zeros_like(tiles[0]))
    rows = [tf.concat(tiles[i:i + columns], axis=1) for i in range(0, len(tiles), columns)]
    return tf.concat(rows, axis=0)


def main(argv):
    del argv
    out = _OUT.value
    os.makedirs(out, exist_ok=True)
    data = _DATA.value or os.path.join(out, "images")
    if _DATA.value is None:
        paths = samples.make_sample_images(data)
        logging.info("wrote %d sample images to %s", len(paths), data)
    files = sorted(tf.io.gfile.glob(os.path.join(data, "*", "*")))
    blobs = tf.data.Dataset.from_tensor_slices(files).map(tf.io.read_file).batch(_BATCH.value)
    originals = [img.to_tensor() for batch in blobs.map(tga.decode_image) for img in batch]
    train = tga.gpu_augment([tga.RandomResizedCrop(_TILE.value, scale=(0.3, 1.0)),
                             tga.RandAugment(num_ops=2, magnitude=9),
                             tga.CropMirrorNormalize(mirror=0.5)], seed=0)
    start = time.perf_counter()
    augmented = [img for batch in blobs.apply(train) for img in batch]
    seconds = time.perf_counter() - start
    # Undo the normalisation for display.
    mean, std = tf.constant(tga.IMAGENET_MEAN), tf.constant(tga.IMAGENET_STD)
    shown = [tf.cast(tf.clip_by_value(a * std + mean, 0, 255), tf.uint8) for a in augmented]
    pairs = [t for o, a in zip(originals[:16], shown[:16]) for t in (o, a)]
    sheet_path = os.path.join(out, "augmented.png")
    tf.io.write_file(sheet_path, tf.io.encode_png(contact_sheet(pairs, _TILE.value)))
    print(f"{len(augmented)} images through random_resized_crop + rand_augment + "
          f"crop_mirror_normalize in {seconds:.2f}s; originals and augmented side by side: {sheet_path}")


if __name__ == "__main__":
    app.run(main)
