"""The augmentation preview: grid layout, the legend, the PNG CLI and the TensorBoard summary."""
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

from tfgpuaug import preview

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def contents():
    rng = np.random.default_rng(3)
    imgs = [rng.integers(0, 256, (h, w, 3), dtype=np.uint8) for h, w in ((50, 70), (64, 40), (33, 33))]
    return tf.constant([tf.io.encode_png(i).numpy() for i in imgs]), imgs


def test_grid_rows_are_original_then_versions(contents):
    blobs, _ = contents
    invert = preview.make_policy("rand_augment", num_ops=1, augmentations=["invert"])
    image, legend = preview.render(blobs, invert, versions=2, size=24)
    tiles = image.numpy().reshape(3, 24, 3, 24, 3)
    originals = preview.load_tiles(blobs, 24).numpy()
    for i in range(3):
        np.testing.assert_array_equal(tiles[i, :, 0], originals[i])
        for k in (1, 2):  # invert is exact: 255 - x
            np.testing.assert_array_equal(tiles[i, :, k], 255 - originals[i])
    assert legend == [["invert", "invert"]] * 3


def test_legend_names_ops_and_parameters(contents):
    blobs, _ = contents
    rotate = preview.make_policy("rand_augment", num_ops=2, magnitude=9, augmentations=["rotate"])
    _, legend = preview.render(blobs, rotate, versions=3, size=16)
    for row in legend:
        for text in row:
            ops = text.split()
            assert len(ops) == 2 and all(o in ("rotate(9.00)", "rotate(-9.00)") for o in ops), text


def test_unknown_policy_and_bad_sizes(contents):
    with pytest.raises(ValueError, match="unknown policy"):
        preview.make_policy("mixmatch")
    with pytest.raises(ValueError, match="versions >= 1"):
        preview.render(contents[0], preview.make_policy("none"), versions=0)


def test_cli_writes_png_legend_and_summary(tmp_path):
    out = tmp_path / "grid.png"
    cmd = [sys.executable, "-m", "tfgpuaug.preview", "--policy=trivial_augment", "--images=4",
           "--versions=3", "--size=32", f"-o={out}", f"--logdir={tmp_path / 'tb'}"]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    grid = np.asarray(Image.open(out))
    assert grid.shape == (4 * 32, 4 * 32, 3) and grid.std() > 10
    legend = (tmp_path / "grid.txt").read_text().splitlines()
    assert sum(line.startswith("  version ") for line in legend) == 4 * 3
    # The summary holds the same grid in TensorBoard's image format (width, height, PNG).
    [events] = tf.io.gfile.glob(str(tmp_path / "tb" / "events.*"))
    values = [v for raw in tf.data.TFRecordDataset(events)
              for v in tf.compat.v1.Event.FromString(raw.numpy()).summary.value]
    [value] = values
    assert value.metadata.plugin_data.plugin_name == "images"
    width, height, png = tf.make_ndarray(value.tensor)
    assert (int(width), int(height)) == (128, 128)
    np.testing.assert_array_equal(tf.io.decode_png(png).numpy(), grid)
