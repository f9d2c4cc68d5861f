"""The main job on built-in sample data: generate an image folder, decode it with tfgpuaug
inside a tf.data pipeline (batched, in parallel), and write a contact sheet.

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
_TILE = flags.DEFINE_integer("tile", 128, "Contact sheet tile size in pixels.")


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
    ds = tf.data.Dataset.from_tensor_slices(files).map(tf.io.read_file).batch(_BATCH.value)
    ds = ds.map(tga.decode_image, num_parallel_calls=tf.data.AUTOTUNE).prefetch(2)
    start = time.perf_counter()
    decoded = [img.to_tensor() for batch in ds for img in batch]
    seconds = time.perf_counter() - start
    sheet = contact_sheet(decoded[:32], _TILE.value)
    sheet_path = os.path.join(out, "decoded.png")
    tf.io.write_file(sheet_path, tf.io.encode_png(sheet))
    pixels = sum(int(img.shape[0]) * int(img.shape[1]) for img in decoded)
    print(f"decoded {len(decoded)} images ({pixels / 1e6:.1f} Mpixel) in {seconds:.2f}s "
          f"with tfgpuaug.decode_image; contact sheet: {sheet_path}")


if __name__ == "__main__":
    app.run(main)
