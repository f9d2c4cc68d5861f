"""Train a small CNN on an image folder through a tfgpuaug pipeline and show the loss fall.

    python examples/train_image_folder.py                       # generated 3-class sample data
    python examples/train_image_folder.py --data train/ --epochs 5
"""
from __future__ import annotations

import os
import tempfile

import tensorflow as tf
from absl import app, flags

import tfgpuaug as tga
from tfgpuaug import samples

_DATA = flags.DEFINE_string("data", None, "Image folder with one sub-folder per class.")
_EPOCHS = flags.DEFINE_integer("epochs", 10, "Epochs.")
_BATCH = flags.DEFINE_integer("batch_size", 16, "Batch size.")
_SIZE = flags.DEFINE_integer("size", 64, "Training resolution.")


def main(argv):
    del argv
    root = _DATA.value or os.path.join(tempfile.mkdtemp(), "images")
    if _DATA.value is None:
        samples.make_sample_images(root, per_class=24)
    ds = tga.data.image_folder(root, shuffle=True, seed=0)
    num_classes = len(ds.class_names)
    ds = ds.batch(_BATCH.value).apply(tga.gpu_augment([
        tga.RandomResizedCrop(_SIZE.value, scale=(0.35, 1.0)),
        tga.RandAugment(num_ops=2, magnitude=5),
        tga.CropMirrorNormalize(mirror=0.5),
    ], seed=0))
    model = tf.keras.Sequential([
        tf.keras.Input((_SIZE.value, _SIZE.value, 3)),
        tf.keras.layers.Conv2D(16, 3, strides=2, activation="relu"),
        tf.keras.layers.Conv2D(32, 3, strides=2, activation="relu"),
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(num_classes),
    ])
    model.compile(tf.keras.optimizers.Adam(3e-3),
                  tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    history = model.fit(ds, epochs=_EPOCHS.value, verbose=2)
    losses = history.history["loss"]
    print(f"{num_classes} classes; loss {losses[0]:.3f} -> {losses[-1]:.3f}")


if __name__ == "__main__":
    app.run(main)
