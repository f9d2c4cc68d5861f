"""The JPEGs shipped in tests/data (synthetic scenes with blur, texture and sensor noise, made
with PIL: 4:2:0, 4:4:4 progressive, 4:2:2, grayscale; and the 4:2:0 one through `jpegtran -restart
1B`, lossless, with a restart marker after every MCU), so a clean clone decodes photo-like
images without ../shared: INTEGER_ACCURATE equals PIL bit for bit, INTEGER_FAST equals
tf.io.decode_jpeg's default bit for bit, and FLOAT (no independent oracle here) stays within
4 levels and 0.1 mean of the accurate IDCT while differing from it (measured: max 1-3, mean
0.012-0.054). Pinned to /cpu:0: nvJPEG's pixels differ.

Mutants checked against: decoding with the other DCT method (exact comparisons fail on every
file) and ignoring `channels=1` on the grayscale file's RGB request (shape check fails)."""
import glob
import io
import os

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tfgpuaug as tga

FILES = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "data", "*.jpg")))


def test_fixtures_are_there():
    assert len(FILES) == 5


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_decode_methods_against_pil_and_tf(path):
    blob = open(path, "rb").read()
    pil = np.asarray(Image.open(io.BytesIO(blob)).convert("RGB"))
    with tf.device("/cpu:0"):
        accurate = tga.decode_image(blob).numpy()
        fast = tga.decode_image(blob, dct_method="INTEGER_FAST").numpy()
        flt = tga.decode_image(blob, dct_method="FLOAT").numpy()
        tf_fast = tf.io.decode_jpeg(blob, channels=3).numpy()
        gray = tga.decode_image(blob, channels=1).numpy()
    np.testing.assert_array_equal(accurate, pil)
    np.testing.assert_array_equal(fast, tf_fast)
    float_diff = np.abs(flt.astype(int) - accurate.astype(int))
    assert float_diff.max() <= 4 and float_diff.mean() <= 0.1 and float_diff.max() > 0
    assert (fast != accurate).any()  # the two integer IDCTs differ on these photos
    assert gray.shape == pil.shape[:2] + (1,)
