"""`python -m tfgpuaug.prepare`: WebDataset shards of restart-marked JPEGs from an image folder,
a file list or TFRecords; read back with `data.webdataset`, every image decodes to its
original's pixels; resumable; damaged files named or skipped."""
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tfgpuaug as tga
from tfgpuaug import prepare


def _jpeg(seed, size=(120, 170), **kw):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:size[0], 0:size[1]]
    pixels = np.stack([(xx * (seed + 1) + yy * c * 3) % 256 for c in range(3)], -1).astype(np.uint8)
    pixels = np.clip(pixels + rng.integers(0, 30, pixels.shape), 0, 255).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, "JPEG", quality=88, **kw)
    return buf.getvalue()


@pytest.fixture
def folder(tmp_path):
    """Two classes: baseline JPEGs of two subsamplings, a progressive one and a PNG."""
    root = tmp_path / "src"
    files = {"cat/a.jpg": _jpeg(1), "cat/b.jpg": _jpeg(2, (65, 301), subsampling=0),
             "dog/c.jpg": _jpeg(3, progressive=True), "dog/d.png": None, "dog/e.jpg": _jpeg(5, (200, 97))}
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if data is None:
            Image.fromarray(np.full((20, 30, 3), 77, np.uint8)).save(path)
        else:
            path.write_bytes(data)
    return root


def _read_back(dest):
    ds = tga.data.webdataset(os.path.join(dest, "shard-*.tar"), fields={"image": "jpg;png", "label": "cls"},
                             cycle_length=1)  # one shard after another: the prepared order
    return [(x["__key__"].numpy().decode(), x["image"].numpy(), int(x["label"].numpy())) for x in ds]


def _decode(data):
    return tga.decode_image(data).numpy()


def test_folder_to_shards_keeps_pixels_and_labels(folder, tmp_path):
    dest = str(tmp_path / "out")
    manifest = prepare.prepare(str(folder), dest, shard_size=2, progress=False)
    assert manifest["samples"] == 5 and manifest["shards"] == [f"shard-{i:06d}.tar" for i in range(3)]
    assert manifest["classes"] == ["cat", "dog"]
    assert json.load(open(os.path.join(dest, prepare.MANIFEST)))["bytes_out"] == manifest["bytes_out"]
    originals = sorted(str(p.relative_to(folder)) for p in folder.rglob("*.*"))
    samples = _read_back(dest)
    assert [k for k, _, _ in samples] == [f"{i:09d}" for i in range(5)]
    for (key, data, label), name in zip(samples, originals):
        source = (folder / name).read_bytes()
        assert label == (0 if name.startswith("cat") else 1)
        np.testing.assert_array_equal(_decode(data), _decode(source))
        if name.endswith(".png"):
            assert data == source  # other formats are copied
        else:
            assert b"\xff\xdd" in data and b"\xff\xd0" in data  # DRI and restart markers
            assert b"\xff\xc2" not in data  # the progressive file became sequential


def test_resume_keeps_finished_shards(folder, tmp_path):
    dest = tmp_path / "out"
    prepare.prepare(str(folder), str(dest), shard_size=2, progress=False)
    first = (dest / "shard-000000.tar").read_bytes()
    stamp = os.path.getmtime(dest / "shard-000000.tar")
    (dest / "shard-000002.tar").unlink()  # as if the run had stopped in the last shard
    (dest / prepare.MANIFEST).unlink()
    again = prepare.prepare(str(folder), str(dest), shard_size=2, progress=False)
    assert os.path.getmtime(dest / "shard-000000.tar") == stamp
    assert (dest / "shard-000000.tar").read_bytes() == first
    assert again["samples"] == 5 and len(_read_back(str(dest))) == 5
    fresh = prepare.prepare(str(folder), str(tmp_path / "fresh"), shard_size=2, progress=False)
    assert {k: again[k] for k in ("samples", "bytes_in", "bytes_out")} == \
        {k: fresh[k] for k in ("samples", "bytes_in", "bytes_out")}


def test_damaged_image_is_named_or_skipped(folder, tmp_path):
    good = (folder / "cat" / "a.jpg").read_bytes()
    (folder / "cat" / "broken.jpg").write_bytes(good[:len(good) // 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"broken\.jpg.*invalid JPEG"):
        prepare.prepare(str(folder), str(tmp_path / "a"), progress=False)
    manifest = prepare.prepare(str(folder), str(tmp_path / "b"), on_error="skip", progress=False)
    assert manifest["samples"] == 5 and len(manifest["skipped"]) == 1 and "broken.jpg" in manifest["skipped"][0]
    assert len(_read_back(str(tmp_path / "b"))) == 5


def test_file_list_and_tfrecords(folder, tmp_path):
    listing = tmp_path / "files.txt"
    listing.write_text(f"{folder}/cat/a.jpg 7\nsrc/dog/e.jpg 3\n\n")  # absolute, and relative to the list
    prepare.prepare(str(listing), str(tmp_path / "l"), progress=False)
    got = _read_back(str(tmp_path / "l"))
    assert [label for _, _, label in got] == [7, 3]
    np.testing.assert_array_equal(_decode(got[1][1]), _decode((folder / "dog" / "e.jpg").read_bytes()))

    record = str(tmp_path / "train.tfrecord")
    with tf.io.TFRecordWriter(record) as w:
        for label, name in ((4, "cat/b.jpg"), (9, "dog/c.jpg")):
            feature = {"image/encoded": tf.train.Feature(bytes_list=tf.train.BytesList(
                value=[(folder / name).read_bytes()])),
                "image/class/label": tf.train.Feature(int64_list=tf.train.Int64List(value=[label]))}
            w.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
    manifest = prepare.prepare(record, str(tmp_path / "r"), progress=False)
    got = _read_back(str(tmp_path / "r"))
    assert manifest["samples"] == 2 and [label for _, _, label in got] == [4, 9]
    np.testing.assert_array_equal(_decode(got[1][1]), _decode((folder / "dog" / "c.jpg").read_bytes()))


def test_bad_arguments(folder, tmp_path):
    with pytest.raises(ValueError, match="is not a folder"):
        prepare.prepare(str(tmp_path / "missing"), str(tmp_path / "x"), progress=False)
    with pytest.raises(ValueError, match="on_error"):
        prepare.prepare(str(folder), str(tmp_path / "x"), on_error="ignore", progress=False)
    with pytest.raises(ValueError, match="positive"):
        prepare.prepare(str(folder), str(tmp_path / "x"), shard_size=0, progress=False)


def test_command_line(folder, tmp_path):
    dest = tmp_path / "cli"
    run = subprocess.run([sys.executable, "-m", "tfgpuaug.prepare", str(folder), str(dest), "--shard_size=10"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "5 images in 1 shards" in run.stdout and "prepare: 5/5 images" in run.stderr
    assert len(_read_back(str(dest))) == 5
