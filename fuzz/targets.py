"""The fuzz target over tfgpuaug's Python ops, without atheris: fuzz/fuzz_ops.py drives
it under atheris, and tests/test_fuzz.py replays the seed corpus and fuzz/regressions/
through it."""
from __future__ import annotations

import tensorflow as tf

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
                             dct_denom=(1, 2, 4, 8)[knobs[1] >> 6], max_pixels=MAX_PIXELS)
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


