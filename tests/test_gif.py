"""GIF through giflib (issue #21): the first frame, palette to RGB, the transparent index to
alpha 0, interlaced or not, against PIL (exact), windows, the fused crops, and bad input.
Runs under ASan in scripts/sanitizer_tests.sh."""
import io

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image, ImageSequence

import fixtures
import tfgpuaug as tga


def gif(img: Image.Image, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "GIF", **kw)
    return buf.getvalue()


PALETTED = Image.fromarray(fixtures.photo(37, 45, 3, seed=1)).quantize(64)
FILES = {
    "interlaced": gif(PALETTED, interlace=True),
    "progressive_off": gif(PALETTED, interlace=False),
    "transparent": gif(PALETTED, transparency=5),
    "gray": gif(Image.fromarray(fixtures.photo(20, 31, 1, seed=2)[..., 0])),
    "tiny": gif(Image.fromarray(fixtures.photo(1, 2, 3, seed=3)).quantize(4)),
}


@pytest.mark.parametrize("name", sorted(FILES))
@pytest.mark.parametrize("channels", [1, 3, 4])
def test_decode_equals_pil(name, channels):
    got = tga.decode_image(FILES[name], channels=channels).numpy()
    np.testing.assert_array_equal(got, fixtures.pil_decode(FILES[name], channels))


def test_header_reports_transparency_as_alpha():
    shapes = tga.image_shape([FILES["interlaced"], FILES["transparent"]]).numpy().tolist()
    assert shapes == [[37, 45, 3], [37, 45, 4]]


def test_animation_gives_its_first_frame():
    frames = [Image.fromarray(fixtures.photo(24, 30, 3, seed=s)).quantize(32) for s in (4, 5, 6)]
    data = gif(frames[0], save_all=True, append_images=frames[1:], duration=40)
    assert Image.open(io.BytesIO(data)).n_frames == 3
    np.testing.assert_array_equal(tga.decode_image(data).numpy(), np.asarray(frames[0].convert("RGB")))


def test_windows_and_reduced_sizes():
    data = FILES["interlaced"]
    full = tga.decode_image(data).numpy()
    for y, x, h, w in [(0, 0, 5, 7), (3, 11, 20, 9), (36, 44, 1, 1)]:
        np.testing.assert_array_equal(tga.decode_image(data, crop_window=[y, x, h, w]).numpy(),
                                      full[y:y + h, x:x + w])
    half = tga.decode_image(data, dct_denom=2).numpy()
    assert half.shape == (19, 23, 3)
    np.testing.assert_allclose(half[0, 0], full[:2, :2].reshape(-1, 3).mean(0), atol=0.51)


def test_fused_crops_read_gif_like_decoded_images():
    blobs = tf.constant([FILES["interlaced"], FILES["transparent"]])
    decoded = tga.decode_image(blobs)
    np.testing.assert_array_equal(tga.resize_center_crop(blobs, 30, 24).numpy(),
                                  tga.resize_center_crop(decoded, 30, 24).numpy())


def test_bad_gif_raises_invalid_argument_naming_it():
    data = FILES["interlaced"]
    flipped = bytearray(data)
    flipped[13:40] = bytes(27)  # the colour table and descriptor zeroed
    for bad in [data[:6], data[:13], data[:40], data[: len(data) // 2], data[:-3], b"GIF89a" + bytes(20)]:
        with pytest.raises(tf.errors.InvalidArgumentError, match="GIF"):
            tga.decode_image(bad).numpy()
    try:  # a damaged table may still decode; it must never crash
        tga.decode_image(bytes(flipped)).numpy()
    except tf.errors.InvalidArgumentError as e:
        assert "GIF" in e.message


def _animation(frames, **kw) -> bytes:
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=40, **kw)
    return buf.getvalue()


def _pil_frames(data: bytes, mode: str) -> np.ndarray:
    return np.stack([np.asarray(f.convert(mode)) for f in ImageSequence.Iterator(Image.open(io.BytesIO(data)))])


def _partial_frames():
    """Later frames change only a square, so PIL writes them as small rectangles."""
    base = fixtures.photo(26, 31, 3, seed=7)
    frames = [base.copy() for _ in range(4)]
    frames[1][3:9, 4:12] = [250, 10, 10]
    frames[2][10:20, 15:29] = [10, 240, 30]
    frames[3][0:5, 0:31] = [5, 5, 200]
    palette = Image.fromarray(base).quantize(48)
    return [Image.fromarray(f).quantize(palette=palette) for f in frames]


@pytest.mark.parametrize("kw", [dict(), dict(disposal=1), dict(disposal=2), dict(disposal=3),
                                dict(disposal=2, transparency=0), dict(disposal=[0, 2, 3, 1], transparency=5),
                                dict(optimize=False)], ids=str)
def test_every_frame_equals_pil(kw):
    data = _animation(_partial_frames(), **kw)
    reader = Image.open(io.BytesIO(data))
    assert reader.n_frames == 4
    got = tga.decode_animation(data).numpy()
    np.testing.assert_array_equal(got, _pil_frames(data, "RGB"))
    np.testing.assert_array_equal(tga.decode_image(data, expand_animations=True, channels=1).numpy(),
                                  _pil_frames(data, "L")[..., None])
    np.testing.assert_array_equal(got[0], tga.decode_image(data).numpy())  # the first frame as before


def test_animation_of_stills_and_limits():
    still = FILES["interlaced"]
    one = tga.decode_animation(still).numpy()
    assert one.shape == (1, 37, 45, 3)
    np.testing.assert_array_equal(one[0], tga.decode_image(still).numpy())
    jpeg = fixtures.jpeg_bytes(fixtures.photo(9, 11))
    np.testing.assert_array_equal(tga.decode_animation(jpeg).numpy()[0], tga.decode_image(jpeg).numpy())
    data = _animation(_partial_frames())
    with pytest.raises(tf.errors.InvalidArgumentError, match="4 frames of 26x31 exceed max_bytes=9000"):
        tga.decode_animation(data, max_bytes=9000).numpy()
    for cut in (len(data) // 2, len(data) - 20):
        with pytest.raises(tf.errors.InvalidArgumentError, match="GIF"):
            tga.decode_animation(data[:cut]).numpy()
    with pytest.raises(ValueError, match="whole frames"):
        tga.decode_image(data, expand_animations=True, dct_denom=2)
    with pytest.raises(ValueError, match="rank"):
        tga.decode_animation([data, data])


def gif_with_small_first_frame(transparent=None, background=0, colour_table=True) -> bytes:
    """A 7x6 screen whose first frame covers only a 3x2 rectangle at (2, 1), written by hand
    (PIL writes whole-screen first frames). LZW with a clear code before every index keeps the
    code width fixed."""
    import struct
    palette = [(10, 20, 30), (200, 100, 50), (0, 255, 0), (90, 90, 250)]
    out = b"GIF89a" + struct.pack("<HHBBB", 7, 6, 0x80 | 1 if colour_table else 0, background, 0)
    out += b"".join(bytes(c) for c in palette) if colour_table else b""
    if transparent is not None:
        out += b"\x21\xf9\x04" + bytes([1, 0, 0, transparent, 0])
    out += b"\x2c" + struct.pack("<HHHHB", 2, 1, 3, 2, 0)
    code = bytearray()
    acc, nbits = 0, 0
    for symbol in [s for v in [1, 3, 2, 1, 0, 3] for s in (4, v)] + [5]:  # clear, index ... end
        acc |= symbol << nbits
        nbits += 3
        while nbits >= 8:
            code.append(acc & 255)
            acc, nbits = acc >> 8, nbits - 8
    code.append(acc & 255)
    return out + bytes([2, len(code)]) + bytes(code) + b"\0\x3b"


@pytest.mark.parametrize("transparent", [None, 1, 3], ids=["opaque", "t1", "t3"])
@pytest.mark.parametrize("channels", [3, 4])
def test_screen_outside_the_first_frame_is_filled_as_pil(transparent, channels):
    """Issue #38 (~28 levels off PIL before): outside a small first frame PIL shows the
    transparent index (alpha 0) or palette index 0, not transparent black."""
    data = gif_with_small_first_frame(transparent, background=2)
    expected = np.asarray(Image.open(io.BytesIO(data)).convert("RGB" if channels == 3 else "RGBA"))
    assert (expected[0, 0, :3] != 0).any()  # the fill is a real colour: the test can fail
    np.testing.assert_array_equal(tga.decode_image(data, channels=channels).numpy(), expected)


def test_gif_without_a_colour_table_is_grey_as_pil():
    """No global or local colour table: PIL reads the indices as grey levels (it was refused)."""
    data = gif_with_small_first_frame(colour_table=False)
    expected = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
    assert expected.max() == 3  # indices 0..3 as levels: the test can fail
    np.testing.assert_array_equal(tga.decode_image(data).numpy(), expected)
