"""Atheris fuzz harness over tfgpuaug's Python ops: every input must decode or raise
InvalidArgumentError (anything else, or a crash, is a finding).

Inputs use the seed corpus's format (fuzz/make_corpus.py): 4 knob bytes choosing the op
and its options, then the encoded image.

    python fuzz/make_corpus.py /tmp/corpus
    python fuzz/fuzz_ops.py -runs=2000 /tmp/corpus          # short (CI)
    python fuzz/fuzz_ops.py -max_total_time=3600 /tmp/corpus  # long, on demand
New interesting inputs are added to the corpus folder; a failing input is written to
crash-<hash> in the working directory: add it to fuzz/regressions/ (tests replay them).
"""
from __future__ import annotations

import os
import sys

import atheris

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402 - imported first, so it is not instrumented

with atheris.instrument_imports(include=["tfgpuaug"]):
    import tfgpuaug as tga

MAX_PIXELS = 1 << 22  # keeps every run small; larger headers must be refused cleanly


def run_one(data: bytes) -> None:
    """Runs the op the knobs choose on the encoded image; raises only what a user would
    not expect (InvalidArgumentError is the expected outcome for bad data)."""
    if len(data) < 4:
        return
    knobs, blob = data[:4], tf.constant([data[4:]])
    channels = (1, 3, 4, 3)[knobs[0] & 3]
    op = (knobs[0] >> 2) % 5
    try:
        if op == 0:
            tga.decode_image(blob, channels, apply_exif_orientation=bool(knobs[1] & 1),
                             scale=(1, 2, 4, 8)[knobs[1] >> 6], max_pixels=MAX_PIXELS)
        elif op == 1:
            tga.image_shape(blob, apply_exif_orientation=bool(knobs[1] & 1))
        elif op == 2:
            window = tf.constant([[knobs[1] % 8, knobs[2] % 8, 1 + knobs[3] % 16, 1 + knobs[1] % 16]])
            tga.decode_image(blob, channels, crop_window=window, max_pixels=MAX_PIXELS)
        elif op == 3:
            tga.random_resized_crop(blob, 1 + knobs[2] % 40, seed=(knobs[1], knobs[3]),
                                    channels=channels, max_pixels=MAX_PIXELS)
        else:
            tga.resize_center_crop(blob, 16 + knobs[2] % 16, 8 + knobs[3] % 8,
                                   mean=tga.IMAGENET_MEAN[:1] * channels if channels != 3 else tga.IMAGENET_MEAN,
                                   std=tga.IMAGENET_STD[:1] * channels if channels != 3 else tga.IMAGENET_STD,
                                   channels=channels, max_pixels=MAX_PIXELS)
    except tf.errors.InvalidArgumentError:
        pass


def main() -> None:
    atheris.Setup(sys.argv, run_one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
