"""WebP through libwebp (issue #21's first format): lossy, lossless, alpha, EXIF-rotated and
animated files against PIL (which decodes with libwebp too: exact), windows, reduced sizes,
the fused crops, and bad input. Runs under ASan in scripts/sanitizer_tests.sh."""
import io

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image, ImageOps

import fixtures
import tfgpuaug as tga


def webp(img: Image.Image, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "WEBP", **kw)
    return buf.getvalue()


RGB = Image.fromarray(fixtures.photo(37, 45, 3, seed=1))
RGBA = Image.fromarray(fixtures.photo(33, 27, 4, seed=2))
FILES = {
    "lossy": webp(RGB, quality=80),
    "lossless": webp(RGB, lossless=True),
    "lossy_alpha": webp(RGBA, quality=75),
    "lossless_alpha": webp(RGBA, lossless=True),
    "odd_size": webp(Image.fromarray(fixtures.photo(1, 3, 3, seed=3)), quality=90),
}


@pytest.mark.parametrize("name", sorted(FILES))
@pytest.mark.parametrize("channels", [1, 3, 4])
def test_decode_equals_pil(name, channels):
    got = tga.decode_image(FILES[name], channels=channels).numpy()
    np.testing.assert_array_equal(got, fixtures.pil_decode(FILES[name], channels))


def test_header_and_batch():
    blobs = [FILES["lossy"], FILES["lossless_alpha"], fixtures.jpeg_bytes(fixtures.photo(5, 6))]
    np.testing.assert_array_equal(tga.image_shape(blobs).numpy(), [[37, 45, 3], [33, 27, 4], [5, 6, 3]])
    batch = tga.decode_image(tf.constant(blobs))
    np.testing.assert_array_equal(batch[1].numpy(), fixtures.pil_decode(blobs[1], 3))


@pytest.mark.parametrize("name", ["lossy", "lossless", "lossy_alpha"])
def test_windows_at_odd_offsets_are_slices_of_the_full_decode(name):
    """libwebp crops on even coordinates and upsamples chroma at a crop's edges as at the
    image's: odd and random windows must still be exact slices (mutant checked: no margin)."""
    data = FILES[name]
    full = tga.decode_image(data, channels=4).numpy()
    rng = np.random.default_rng(0)
    hh, ww = full.shape[:2]
    random = [(int(y), int(x), int(rng.integers(1, hh - y + 1)), int(rng.integers(1, ww - x + 1)))
              for y, x in zip(rng.integers(0, hh, 40), rng.integers(0, ww, 40))]
    for y, x, h, w in [(0, 0, 5, 7), (1, 3, 9, 4), (7, 11, 13, 9), (26, 16, 1, 1)] + random:
        got = tga.decode_image(data, channels=4, crop_window=[y, x, h, w]).numpy()
        np.testing.assert_array_equal(got, full[y:y + h, x:x + w])


@pytest.mark.parametrize("denom", [2, 4, 8])
def test_reduced_size_is_the_block_mean(denom):
    data = FILES["lossless"]
    full = tga.decode_image(data).numpy().astype(np.float64)
    got = tga.decode_image(data, dct_denom=denom).numpy()
    h, w = -(-full.shape[0] // denom), -(-full.shape[1] // denom)
    assert got.shape == (h, w, 3)
    ref = np.zeros((h, w, 3))
    for r in range(h):
        for c in range(w):
            ref[r, c] = full[r * denom:(r + 1) * denom, c * denom:(c + 1) * denom].mean(axis=(0, 1))
    assert np.abs(got - np.floor(ref + 0.5)).max() <= 1  # integer rounding of the mean


def test_exif_orientation_like_pil():
    data = webp(RGB, quality=85, exif=fixtures.exif_with_orientation(6))
    got = tga.decode_image(data, apply_exif_orientation=True).numpy()
    ref = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB"))
    np.testing.assert_array_equal(got, ref)
    assert tga.image_shape(data, apply_exif_orientation=True).numpy().tolist() == [45, 37, 3]


def test_animation_gives_its_first_frame():
    frames = [Image.fromarray(fixtures.photo(24, 30, 3, seed=s)) for s in (4, 5, 6)]
    data = webp(frames[0], save_all=True, append_images=frames[1:], duration=40, lossless=True)
    first = Image.open(io.BytesIO(data))
    assert getattr(first, "n_frames", 1) == 3
    np.testing.assert_array_equal(tga.decode_image(data).numpy(), np.asarray(first.convert("RGB")))
    np.testing.assert_array_equal(tga.decode_image(data).numpy(), np.asarray(frames[0]))  # lossless


def test_fused_crops_read_webp_like_decoded_images():
    """The fused decode + crop + resize on WebP bytes equals the same transform on the
    decoded images (the CPU kernels' own reference path)."""
    blobs = tf.constant([FILES["lossy"], FILES["lossless"], FILES["lossy_alpha"]])
    decoded = tga.decode_image(blobs)
    np.testing.assert_array_equal(tga.resize_center_crop(blobs, 30, 24).numpy(),
                                  tga.resize_center_crop(decoded, 30, 24).numpy())
    got = tga.random_resized_crop(blobs, 16, seed=3).numpy()
    boxes = tga.random_crop_boxes(tga.image_shape(blobs)[:, :2], seed=3)
    np.testing.assert_array_equal(got, tga.crop_and_resize(decoded, boxes, 16, antialias=True).numpy())


def test_bad_webp_raises_invalid_argument_naming_it():
    data = FILES["lossy"]
    cases = [data[:12], data[:30], data[: len(data) // 2], data[:-1]]
    flipped = bytearray(data)
    for i in range(40, len(flipped), 7):
        flipped[i] ^= 0x5A
    cases.append(bytes(flipped))
    for bad in cases:
        with pytest.raises(tf.errors.InvalidArgumentError, match="WebP"):
            tga.decode_image(bad).numpy()
    skipped = tga.gpu_augment([tga.ResizeCenterCrop(20, 16)], seed=1, on_error="skip")
    ds = tf.data.Dataset.from_tensors((tf.constant([data, cases[2], FILES["lossless"]]), tf.range(3)))
    _, labels = next(iter(ds.apply(skipped)))
    assert labels.numpy().tolist() == [0, 2]


def test_every_animation_frame_equals_pil():
    from PIL import ImageSequence
    frames = [Image.fromarray(fixtures.photo(22, 27, 4, seed=s)) for s in (8, 9, 10)]
    buf = io.BytesIO()
    frames[0].save(buf, "WEBP", save_all=True, append_images=frames[1:], duration=30, lossless=True)
    data = buf.getvalue()
    for channels, mode in ((3, "RGB"), (4, "RGBA")):
        expected = np.stack([np.asarray(f.convert(mode)) for f in ImageSequence.Iterator(Image.open(io.BytesIO(data)))])
        got = tga.decode_animation(data, channels=channels).numpy()
        assert got.shape == (3, 22, 27, channels)
        np.testing.assert_array_equal(got, expected)
    still = tga.decode_animation(FILES["lossy_alpha"], channels=4).numpy()
    np.testing.assert_array_equal(still[0], tga.decode_image(FILES["lossy_alpha"], channels=4).numpy())
    with pytest.raises(tf.errors.InvalidArgumentError, match="WebP"):
        tga.decode_animation(data[: len(data) // 2]).numpy()
