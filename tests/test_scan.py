"""`python -m tfgpuaug.scan`: every kind of file a scraped dataset holds, found and named."""
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

import fixtures
from tfgpuaug import scan


def webp_bytes() -> bytes:
    buf = io.BytesIO()
    Image.fromarray(fixtures.photo(20, 24)).save(buf, "WEBP", quality=80)
    return buf.getvalue()


def bmp_bytes() -> bytes:
    buf = io.BytesIO()
    Image.fromarray(fixtures.photo(10, 12)).save(buf, "BMP")
    return buf.getvalue()


def gif_bytes() -> bytes:
    buf = io.BytesIO()
    Image.fromarray(fixtures.photo(10, 12)).save(buf, "GIF")
    return buf.getvalue()


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    root = tmp_path_factory.mktemp("scan")
    os.makedirs(root / "cats" / "nested")
    os.makedirs(root / "dogs")
    good = fixtures.jpeg_bytes(fixtures.photo(300, 400))
    files = {
        "cats/ok.jpg": good,
        "cats/nested/ok2.JPEG": fixtures.jpeg_bytes(fixtures.photo(40, 30)),
        "cats/cmyk.jpg": fixtures.jpeg_bytes(fixtures.photo(50, 60), mode="CMYK"),
        "cats/gray.jpg": fixtures.jpeg_bytes(fixtures.photo(50, 60, channels=1)),
        "cats/rotated.jpg": fixtures.jpeg_bytes(fixtures.photo(50, 60), exif=fixtures.exif_with_orientation(6)),
        "cats/progressive.jpg": fixtures.jpeg_bytes(fixtures.photo(50, 60), progressive=True),
        "dogs/alpha.png": fixtures.png_bytes(fixtures.photo(20, 20, channels=4)),
        "dogs/deep.png": fixtures.png_bytes(fixtures.photo(20, 20).astype(np.uint16) * 257, bit_depth=16),
        "dogs/really_png.jpg": fixtures.png_bytes(fixtures.photo(20, 20)),
        "dogs/photo.webp": webp_bytes(),
        "dogs/truncated.jpg": good[: len(good) // 2],
        "dogs/animated.jpg": gif_bytes(),
        "dogs/bitmap.jpg": bmp_bytes(),
        "dogs/layers.jpg": b"8BPS" + bytes(40),
        "dogs/empty.png": b"",
        "dogs/notes.txt": b"not scanned: no image extension",
    }
    for name, data in files.items():
        (root / name).write_bytes(data)
    return str(root)


def test_report_finds_every_kind(dataset):
    paths = scan.list_files(dataset)
    assert len(paths) == 15 and not any(p.endswith(".txt") for p in paths)
    report = scan.scan(paths, batch_size=5)  # batches split the files unevenly on purpose
    failed = {os.path.basename(f["path"]): f["reason"] for f in report.failed}
    assert set(failed) == {"truncated.jpg", "layers.jpg", "empty.png"}
    assert "Photoshop" in failed["layers.jpg"] and "JPEG" in failed["truncated.jpg"]
    assert [os.path.basename(m["path"]) for m in report.extension_mismatch] == [
        "animated.jpg", "bitmap.jpg", "really_png.jpg"]
    names = {kind: sorted(os.path.basename(p) for p in paths) for kind, paths in report.notable.items()}
    assert names["cmyk"] == ["cmyk.jpg"]
    assert names["grayscale"] == ["gray.jpg"]
    assert names["alpha"] == ["alpha.png"]
    assert names["16-bit"] == ["deep.png"]
    assert names["exif_rotated"] == ["rotated.jpg"]
    assert names["progressive"] == ["progressive.jpg"]
    assert report.formats == {"jpeg": 6, "png": 3, "webp": 1, "gif": 1, "bmp": 1}
    # shorter sides: 300 (ok), 30, 50 x4, 20 x4, 10 (the GIF and the BMP)
    assert report.shorter_side == {"0-63": 11, "256-511": 1}
    assert report.largest["height"] == 300 and report.largest["width"] == 400
    assert "largest: 400 wide x 300 high" in scan.format_report(report)


def test_cli_json_and_exit_code(dataset):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(scan.__file__))))
    run = subprocess.run([sys.executable, "-m", "tfgpuaug.scan", dataset, "--json"], capture_output=True,
                         text=True, env=env, timeout=300)
    assert run.returncode == 1, run.stderr[-2000:]  # files failed
    report = json.loads(run.stdout)
    assert report["files"] == 15 and len(report["failed"]) == 3
    clean = subprocess.run([sys.executable, "-m", "tfgpuaug.scan", os.path.join(dataset, "cats", "*.jpg")],
                           capture_output=True, text=True, env=env, timeout=300)
    assert clean.returncode == 0, clean.stderr[-2000:]
    assert clean.stdout.startswith("5 files: 5 jpeg, 0 failed")
    assert "exif_rotated (1):" in clean.stdout and "shorter side (pixels):" in clean.stdout


def test_full_scale_finds_the_same(dataset):
    paths = scan.list_files(dataset)
    fast, full = scan.scan(paths), scan.scan(paths, full_scale=True)
    assert [f["path"] for f in fast.failed] == [f["path"] for f in full.failed]
