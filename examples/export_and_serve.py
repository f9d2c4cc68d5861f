"""Train briefly with in-model tfgpuaug preprocessing, export a SavedModel that takes JPEG
bytes, reload it in a fresh Python process and classify a JPEG.

    python examples/export_and_serve.py --out /tmp/tfgpuaug-export
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import keras
from absl import app, flags

import tfgpuaug as tga
from tfgpuaug import samples

_OUT = flags.DEFINE_string("out", os.path.join(tempfile.gettempdir(), "tfgpuaug-export"), "Export directory.")
_EPOCHS = flags.DEFINE_integer("epochs", 3, "Epochs.")

SERVE = """
import sys, tensorflow as tf
import tfgpuaug  # registers the ops the SavedModel uses
model = tf.saved_model.load(sys.argv[1])
logits = model.serve(tf.constant([tf.io.read_file(sys.argv[2]).numpy()]))
print("served", sys.argv[2], "-> class", int(tf.argmax(logits[0])), "logits", logits.numpy().round(3).tolist())
"""


def main(argv):
    del argv
    root = os.path.join(_OUT.value, "images")
    samples.make_sample_images(root, per_class=16)
    folder = tga.data.image_folder(root, shuffle=True, seed=0)
    classes = folder.class_names
    ds = folder.batch(16)
    inp = keras.Input(shape=(), dtype="string", name="jpeg")
    x = tga.keras.RandomResizedCrop(64, scale=(0.35, 1.0), seed=0)(inp)   # centre crop at inference
    x = tga.keras.RandAugment(num_ops=2, magnitude=5, seed=1)(x)           # training only
    x = tga.keras.CropMirrorNormalize(mirror=0.5, seed=2)(x)
    x = keras.layers.Conv2D(16, 3, strides=2, activation="relu")(x)
    x = keras.layers.GlobalAveragePooling2D()(x)
    model = keras.Model(inp, keras.layers.Dense(len(classes))(x))
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(ds, epochs=_EPOCHS.value, verbose=2)
    path = os.path.join(_OUT.value, "saved_model")
    model.export(path)
    jpeg = os.path.join(root, classes[0], sorted(os.listdir(os.path.join(root, classes[0])))[0])
    print(subprocess.run([sys.executable, "-c", SERVE, path, jpeg], capture_output=True, text=True,
                         check=True).stdout.strip())


if __name__ == "__main__":
    app.run(main)
