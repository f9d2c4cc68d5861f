"""Restart-marker crops: a JPEG with restart markers is decoded, for a window, from a smaller
JPEG of only the intervals covering it (cc/kernels/decode/jpeg_restart.h). The oracle is the
full decode of the same file cropped in numpy: equal bit for bit, on every chroma subsampling,
odd sizes, windows at every edge, every DCT scale and restart intervals that do and do not
divide the MCU rows. `add_jpeg_restart_markers` (the lossless rewrite) is checked against the
full decode of its input, and against libjpeg-turbo's own `jpegtran -restart`.
"""
import io
import os
import shutil
import struct
import subprocess

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tfgpuaug as tga

CJPEG = shutil.which("cjpeg")
JPEGTRAN = shutil.which("jpegtran")
needs_cjpeg = pytest.mark.skipif(CJPEG is None, reason="cjpeg (libjpeg-turbo-progs, scripts/apt_setup.sh) missing")

# cjpeg's -sample for each subsampling: 4:4:4, 4:2:2, 4:2:0, 4:4:0, 4:1:1.
SAMPLINGS = {"444": "1x1", "422": "2x1", "420": "2x2", "440": "1x2", "411": "4x1"}


def _photo(height, width, seed=0):
    """Smooth colour with texture: every block has AC energy and chroma varies, so a wrong
    upsampling neighbour or a misplaced interval shows."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    base = np.stack([128 + 100 * np.sin(xx / 7 + c) * np.cos(yy / 11 - c) for c in range(3)], -1)
    return np.clip(base + rng.normal(0, 18, base.shape), 0, 255).astype(np.uint8)


def _cjpeg(tmp_path, pixels, sampling, restart, progressive=False, gray=False):
    src = tmp_path / "in.ppm"
    Image.fromarray(pixels).convert("L" if gray else "RGB").save(src)
    out = tmp_path / "out.jpg"
    cmd = [CJPEG, "-quality", "90", "-restart", restart, "-outfile", str(out)]
    cmd += ["-grayscale"] if gray else ["-sample", sampling]
    cmd += ["-progressive"] if progressive else []
    subprocess.run(cmd + [str(src)], check=True)
    return out.read_bytes()


def _mcu_width(data):
    """The MCU's width in pixels, from the SOF's sampling factors."""
    sof = next(i for i in range(2, len(data)) if data[i] == 0xFF and data[i + 1] in (0xC0, 0xC1, 0xC2))
    components = data[sof + 9]
    factors = [data[sof + 11 + 3 * c] >> 4 for c in range(components)]
    return 8 if components == 1 else 8 * max(factors)


def _markers(data):
    """(restart interval from DRI or 0, count of RSTn markers, SOF marker)."""
    interval, sof, pos = 0, None, 2
    while pos < len(data):
        marker = data[pos + 1]
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        if marker == 0xDD:
            interval = struct.unpack(">H", data[pos + 4:pos + 6])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            sof = marker
        if marker == 0xDA:
            break
        pos += 2 + length
    scan = data[pos:]
    rst = sum(scan.count(bytes([0xFF, 0xD0 + k])) for k in range(8))
    return interval, rst, sof


def _decode(data, window=None, denom=1, channels=3):
    kw = {} if window is None else {"crop_window": tf.constant(window, tf.int32)}
    return tga.decode_image(tf.constant(data), channels, dct_denom=denom, **kw).numpy()


def _windows(h, w):
    """Windows touching every edge and corner, one-pixel ones, and interior ones."""
    out = [(0, 0, h, w), (0, 0, 1, 1), (h - 1, w - 1, 1, 1), (0, w - 1, h, 1), (h - 1, 0, 1, w),
           (h // 3, w // 3, h // 3, w // 3), (h // 2, 0, h - h // 2, w // 2), (0, w // 2, h // 2, w - w // 2),
           (h - h // 4, w - w // 4, h // 4, w // 4), (1, 1, h - 2, w - 2)]
    # Edges on MCU bounds (8, 16 and 32 pixels), where a missing margin would show.
    for step in (8, 16, 32):
        if h > 2 * step and w >= 3 * step:
            out += [(step, step, step, step), (step, 2 * step, h - step, step), (0, step, step, w - step)]
    rng = np.random.default_rng(h * 1000 + w)
    for _ in range(6):
        y, x = int(rng.integers(0, h)), int(rng.integers(0, w))
        out.append((y, x, int(rng.integers(1, h - y + 1)), int(rng.integers(1, w - x + 1))))
    return out


def _check_windows(data, denom=1, channels=3):
    full = _decode(data, denom=denom, channels=channels)
    h, w = full.shape[:2]
    for y, x, wh, ww in _windows(h, w):
        got = _decode(data, (y, x, wh, ww), denom, channels)
        np.testing.assert_array_equal(got, full[y:y + wh, x:x + ww], err_msg=f"window {(y, x, wh, ww)} at 1/{denom}")


@needs_cjpeg
@pytest.mark.parametrize("sampling", sorted(SAMPLINGS))
@pytest.mark.parametrize("restart", ["1B", "2B", "3B", "7B", "1"])
def test_window_equals_full_decode_crop(tmp_path, sampling, restart):
    # 197 x 380: no side a whole number of MCUs; 24 MCUs per row at 16 pixels (48 at 8, 12 at
    # 32), so 2B and 3B cut columns, 7B (and 3B at 4:1:1) falls back to whole-row bands.
    data = _cjpeg(tmp_path, _photo(197, 380), SAMPLINGS[sampling], restart)
    assert _markers(data)[1] > 0
    for denom in (1, 2, 8):
        _check_windows(data, denom)


@needs_cjpeg
@pytest.mark.parametrize("shape", [(8, 8), (17, 9), (33, 250), (250, 33), (64, 64)])
def test_small_and_thin_images(tmp_path, shape):
    for sampling in ("1x1", "2x2", "4x1"):
        _check_windows(_cjpeg(tmp_path, _photo(*shape, seed=3), sampling, "1B"), 1)


@needs_cjpeg
def test_gray_and_one_channel_output(tmp_path):
    data = _cjpeg(tmp_path, _photo(123, 211), None, "2B", gray=True)
    _check_windows(data, 1, channels=1)
    _check_windows(data, 4, channels=3)
    colour = _cjpeg(tmp_path, _photo(123, 211), "2x2", "1B")
    _check_windows(colour, 2, channels=1)
    _check_windows(colour, 1, channels=4)


def _first_interval_cut(data):
    """`data` with the first restart interval's entropy bytes cut to one: a decode that reads
    it fails (the interval ends before its MCUs do)."""
    sos = data.index(b"\xff\xda")
    start = sos + 2 + struct.unpack(">H", data[sos + 2:sos + 4])[0]
    end = data.index(b"\xff\xd0", start)
    return data[:start + 1] + data[end:]


@needs_cjpeg
def test_restart_crop_reads_only_the_crops_intervals(tmp_path, monkeypatch):
    """Proof the smaller stream is what gets decoded: damage in the first interval fails a
    full decode, and (with the restart crop turned off) any window's decode, but not a window
    far from it, whose pixels equal the undamaged file's."""
    good = _cjpeg(tmp_path, _photo(160, 320), "2x2", "1B")
    bad = _first_interval_cut(good)
    window = (96, 200, 64, 120)
    np.testing.assert_array_equal(_decode(bad, window), _decode(good)[96:, 200:])
    with pytest.raises(tf.errors.InvalidArgumentError):
        _decode(bad)
    monkeypatch.setenv("TFGPUAUG_JPEG_RESTART_CROP", "0")
    with pytest.raises(tf.errors.InvalidArgumentError):
        _decode(bad, window)


@needs_cjpeg
def test_files_the_restart_crop_does_not_serve_keep_todays_path(tmp_path, monkeypatch):
    """Progressive files, files without markers and files whose markers are out of order
    decode as before: same pixels with the restart crop on and off, same errors."""
    pixels = _photo(150, 170)
    progressive = _cjpeg(tmp_path, pixels, "2x2", "1B", progressive=True)
    plain = _cjpeg(tmp_path, pixels, "2x2", "0")
    assert _markers(plain)[:2] == (0, 0)
    marked = _cjpeg(tmp_path, pixels, "2x2", "1B")
    swapped = marked.replace(b"\xff\xd1", b"\xff\xd2", 1)  # RST numbering broken: not served
    window = (70, 90, 60, 50)
    for data in (progressive, plain):
        on = _decode(data, window)
        monkeypatch.setenv("TFGPUAUG_JPEG_RESTART_CROP", "0")
        np.testing.assert_array_equal(on, _decode(data, window))
        monkeypatch.delenv("TFGPUAUG_JPEG_RESTART_CROP")
    errors = []
    for flag in ("1", "0"):
        monkeypatch.setenv("TFGPUAUG_JPEG_RESTART_CROP", flag)
        try:
            errors.append(_decode(swapped, window).shape)
        except tf.errors.InvalidArgumentError as e:
            errors.append(e.message)
    assert errors[0] == errors[1]


def _sample_jpegs(count):
    folder = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "imagenet-sample")
    files = sorted(os.listdir(folder))[:count] if os.path.isdir(folder) else []
    out = [open(os.path.join(folder, f), "rb").read() for f in files]
    for i in range(len(out), count):  # made here when ../shared is absent
        buf = io.BytesIO()
        Image.fromarray(_photo(211 + 37 * i, 317 - 23 * i, seed=i)).save(buf, "JPEG", quality=85)
        out.append(buf.getvalue())
    return out


def test_add_restart_markers_is_lossless_and_crops_match():
    originals = _sample_jpegs(6)
    rewritten = tga.add_jpeg_restart_markers(tf.constant(originals), interval_width=64).numpy()
    for before, after in zip(originals, rewritten):
        interval, rst, sof = _markers(after)
        assert interval >= 1 and rst > 0 and sof in (0xC0, 0xC1)
        full = _decode(before)
        np.testing.assert_array_equal(_decode(after), full)
        h, w = full.shape[:2]
        mcu = _mcu_width(after)
        mcu_cols, wanted = -(-w // mcu), 64 // mcu
        divisors = [n for n in range(1, mcu_cols + 1) if mcu_cols % n == 0]
        below = max(n for n in divisors if n <= wanted)
        above = min([n for n in divisors if n >= wanted] or [mcu_cols])
        assert interval == (below if wanted * wanted <= below * above else above)
        for y, x, wh, ww in _windows(h, w)[:8]:
            np.testing.assert_array_equal(_decode(after, (y, x, wh, ww)), full[y:y + wh, x:x + ww])


def test_random_resized_crop_on_prepared_bytes_equals_the_original():
    """The fused decode-crop-resize (DCT scaling included) gives the same output on the
    rewritten files as on the originals, with the same seed."""
    originals = _sample_jpegs(8)
    rewritten = tga.add_jpeg_restart_markers(tf.constant(originals)).numpy()
    for seed in (1, 2, 3):
        a = tga.random_resized_crop(tf.constant(originals), 64, seed=seed).numpy()
        b = tga.random_resized_crop(tf.constant(list(rewritten)), 64, seed=seed).numpy()
        np.testing.assert_array_equal(a, b)
    small = tga.random_resized_crop(tf.constant(list(rewritten)), 16, scale=(0.9, 1.0), seed=4).numpy()
    np.testing.assert_array_equal(small, tga.random_resized_crop(tf.constant(originals), 16, scale=(0.9, 1.0),
                                                                 seed=4).numpy())


@needs_cjpeg
def test_add_restart_markers_keeps_pixels_of_progressive_and_exif(tmp_path):
    progressive = _cjpeg(tmp_path, _photo(90, 130), "2x1", "0", progressive=True)
    out = tga.add_jpeg_restart_markers(progressive, interval_width=32).numpy()
    assert _markers(out)[2] in (0xC0, 0xC1)
    np.testing.assert_array_equal(_decode(out), _decode(progressive))
    buf = io.BytesIO()
    exif = Image.Exif()
    exif[0x0112] = 6
    Image.fromarray(_photo(40, 64)).save(buf, "JPEG", exif=exif.tobytes())
    kept = tga.add_jpeg_restart_markers(buf.getvalue()).numpy()
    assert b"Exif\x00\x00" in kept
    oriented = tga.decode_image(kept, apply_exif_orientation=True).numpy()
    assert oriented.shape == (64, 40, 3)


@pytest.mark.skipif(JPEGTRAN is None, reason="jpegtran (libjpeg-turbo-progs) missing")
def test_restart_crop_on_jpegtran_output(tmp_path):
    """Files written by libjpeg-turbo's own jpegtran -restart (not by this library)."""
    src = tmp_path / "src.jpg"
    src.write_bytes(_sample_jpegs(1)[0])
    for restart in ("1B", "5B", "2"):
        out = tmp_path / f"r{restart}.jpg"
        subprocess.run([JPEGTRAN, "-restart", restart, "-outfile", str(out), str(src)], check=True)
        data = out.read_bytes()
        assert _markers(data)[1] > 0
        np.testing.assert_array_equal(_decode(data), _decode(src.read_bytes()))
        _check_windows(data, 1)
        _check_windows(data, 4)


def test_add_restart_markers_refuses_bad_input():
    good = _sample_jpegs(1)[0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="invalid JPEG"):
        tga.add_jpeg_restart_markers(good[:len(good) // 3]).numpy()
    with pytest.raises(tf.errors.InvalidArgumentError, match="invalid JPEG"):
        tga.add_jpeg_restart_markers(b"\x89PNG\r\n\x1a\n not a jpeg").numpy()
    with pytest.raises(tf.errors.InvalidArgumentError, match="over the limit"):
        tga.add_jpeg_restart_markers(good, max_pixels=100).numpy()
    with pytest.raises(ValueError, match="interval_width"):
        tga.add_jpeg_restart_markers(good, interval_width=0)
