"""decode_image and image_shape against PIL and numpy on generated fixtures.

Tolerances: tfgpuaug decodes JPEG with libjpeg-turbo's accurate integer DCT and fancy
upsampling, the options PIL uses, so JPEG pixels must equal PIL's exactly (0 levels);
CMYK conversion rounds differently from PIL's two-step conversion by at most 1 level.
PNG is lossless: exact.
"""
import io

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image, ImageOps

import fixtures
import tfgpuaug as tga

SIZES = [(1, 1), (1, 9), (7, 13), (17, 33), (64, 48), (333, 500)]


def pil_rgb(data: bytes, mode: str = "RGB") -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert(mode))


def decode(data, **kw) -> np.ndarray:
    return tga.decode_image(data, **kw).numpy()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("subsampling", [0, 1, 2])
def test_jpeg_rgb_matches_pil_exactly(size, subsampling):
    data = fixtures.jpeg_bytes(fixtures.photo(*size), subsampling=subsampling)
    np.testing.assert_array_equal(decode(data), pil_rgb(data))


@pytest.mark.parametrize("size", [(1, 1), (31, 47), (240, 320)])
def test_progressive_jpeg_matches_pil(size):
    data = fixtures.jpeg_bytes(fixtures.photo(*size), progressive=True)
    assert tga.image_shape(data).numpy().tolist() == [size[0], size[1], 3]
    np.testing.assert_array_equal(decode(data), pil_rgb(data))


def test_jpeg_channels_1_and_4():
    data = fixtures.jpeg_bytes(fixtures.photo(45, 61))
    gray = Image.open(io.BytesIO(data))
    gray.draft("L", gray.size)  # libjpeg's own colour-to-gray, as our channels=1
    np.testing.assert_array_equal(decode(data, channels=1)[..., 0], np.asarray(gray.convert("L")))
    rgba = decode(data, channels=4)
    np.testing.assert_array_equal(rgba[..., :3], pil_rgb(data))
    assert (rgba[..., 3] == 255).all()


def test_grayscale_jpeg():
    data = fixtures.jpeg_bytes(fixtures.photo(30, 41, channels=1))
    assert tga.image_shape(data).numpy().tolist() == [30, 41, 1]
    np.testing.assert_array_equal(decode(data, channels=1)[..., 0], pil_rgb(data, "L"))
    np.testing.assert_array_equal(decode(data, channels=3), pil_rgb(data))


def test_cmyk_jpeg_within_one_level_of_pil():
    data = fixtures.jpeg_bytes(fixtures.photo(40, 52), mode="CMYK")
    assert tga.image_shape(data).numpy()[2] == 4
    diff = np.abs(decode(data).astype(int) - pil_rgb(data))
    assert diff.max() <= 1


@pytest.mark.parametrize("orientation", range(1, 9))
def test_exif_orientation_matches_pil_exif_transpose(orientation):
    data = fixtures.jpeg_bytes(fixtures.photo(24, 40), exif=fixtures.exif_with_orientation(orientation))
    expected = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB"))
    np.testing.assert_array_equal(decode(data, apply_exif_orientation=True), expected)
    np.testing.assert_array_equal(decode(data), pil_rgb(data))  # option off: stored pixels
    shape = tga.image_shape(data, apply_exif_orientation=True).numpy()
    assert list(shape[:2]) == list(expected.shape[:2])


@pytest.mark.parametrize("orientation", [1, 3, 6, 8])
def test_crop_window_in_oriented_coordinates(orientation):
    data = fixtures.jpeg_bytes(fixtures.photo(48, 64), exif=fixtures.exif_with_orientation(orientation))
    full = decode(data, apply_exif_orientation=True)
    got = decode(data, apply_exif_orientation=True, crop_window=[5, 7, 20, 11])
    np.testing.assert_array_equal(got, full[5:25, 7:18])


@pytest.mark.parametrize("window", [[0, 0, 1, 1], [0, 0, 120, 200], [17, 33, 50, 70],
                                    [119, 199, 1, 1], [8, 16, 8, 16], [60, 3, 60, 190]])
@pytest.mark.parametrize("subsampling", [0, 2])
def test_jpeg_crop_window_equals_slice_of_full_decode(window, subsampling):
    data = fixtures.jpeg_bytes(fixtures.photo(120, 200), subsampling=subsampling)
    y, x, h, w = window
    np.testing.assert_array_equal(decode(data, crop_window=window), decode(data)[y:y + h, x:x + w])


@pytest.mark.parametrize("scale", [2, 4, 8])
def test_jpeg_scaled_decode_matches_pil_draft(scale):
    data = fixtures.jpeg_bytes(fixtures.photo(203, 301))
    img = Image.open(io.BytesIO(data))
    img.draft("RGB", (301 // scale, 203 // scale))  # PIL picks libjpeg DCT scale 1/scale
    expected = np.asarray(img.convert("RGB"))
    got = decode(data, dct_denom=scale)
    assert got.shape == (-(-203 // scale), -(-301 // scale), 3) == expected.shape
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(decode(data, dct_denom=scale, crop_window=[3, 5, 10, 20]),
                                  got[3:13, 5:25])


def test_png_scaled_decode_is_box_filter():
    arr = fixtures.photo(9, 10)
    got = decode(fixtures.png_bytes(arr), dct_denom=2)
    padded = arr.astype(float)
    expected = np.zeros((5, 5, 3))
    for r in range(5):
        for c in range(5):
            expected[r, c] = padded[2 * r:2 * r + 2, 2 * c:2 * c + 2].reshape(-1, 3).mean(0)
    assert np.abs(got - np.floor(expected + 0.5)).max() == 0


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "LA", "P", "1"])
@pytest.mark.parametrize("channels", [1, 3, 4])
def test_png_modes_match_pil(mode, channels):
    img = Image.fromarray(fixtures.photo(19, 23)).convert(mode)
    data = fixtures.pil_png_bytes(img)
    target = {1: "L", 3: "RGB", 4: "RGBA"}[channels]
    expected = np.asarray(img.convert(target)).reshape(19, 23, channels)
    if channels == 1 and mode in ("RGB", "RGBA", "P"):
        expected = np.asarray(img.convert("RGB").convert("L")).reshape(19, 23, 1)
    np.testing.assert_array_equal(decode(data, channels=channels), expected)


def test_png_palette_with_transparency():
    img = Image.fromarray(fixtures.photo(12, 14)).convert("P")
    data = fixtures.pil_png_bytes(img, transparency=0)
    expected = np.asarray(Image.open(io.BytesIO(data)).convert("RGBA"))
    np.testing.assert_array_equal(decode(data, channels=4), expected)
    assert tga.image_shape(data).numpy()[2] == 4


@pytest.mark.parametrize("channels_in", [1, 2, 3, 4])
@pytest.mark.parametrize("interlace", [False, True])
def test_png_16bit_keeps_high_byte(channels_in, interlace):
    rng = np.random.default_rng(channels_in)
    arr = rng.integers(0, 65536, (13, 17, channels_in), dtype=np.uint16)
    data = fixtures.png_bytes(arr, bit_depth=16, interlace=interlace)
    high = (arr >> 8).astype(np.uint8)
    got = decode(data, channels=4)
    if channels_in <= 2:
        np.testing.assert_array_equal(got[..., 0], high[..., 0])
        np.testing.assert_array_equal(got[..., 2], high[..., 0])
    else:
        np.testing.assert_array_equal(got[..., :3], high[..., :3])
    alpha = high[..., -1] if channels_in in (2, 4) else np.full((13, 17), 255, np.uint8)
    np.testing.assert_array_equal(got[..., 3], alpha)


@pytest.mark.parametrize("size", [(1, 1), (3, 5), (8, 8), (37, 29)])
def test_interlaced_png_equals_array(size):
    arr = fixtures.photo(*size)
    np.testing.assert_array_equal(decode(fixtures.png_bytes(arr, interlace=True)), arr)


def test_png_crop_window():
    arr = fixtures.photo(40, 50)
    np.testing.assert_array_equal(decode(fixtures.png_bytes(arr), crop_window=[3, 4, 20, 30]),
                                  arr[3:23, 4:34])


def test_batch_is_ragged_and_agrees_with_scalar():
    blobs = [fixtures.jpeg_bytes(fixtures.photo(h, w, seed=h)) for h, w in SIZES]
    blobs.append(fixtures.png_bytes(fixtures.photo(21, 8)))
    batch = tga.decode_image(tf.constant(blobs))
    assert isinstance(batch, tf.RaggedTensor)
    assert batch.shape.as_list() == [len(blobs), None, None, 3]
    for i, blob in enumerate(blobs):
        np.testing.assert_array_equal(batch[i].numpy(), decode(blob))
    shapes = tga.image_shape(tf.constant(blobs)).numpy()
    assert shapes[:, :2].tolist() == [list(s) for s in SIZES] + [[21, 8]]


def test_batch_crop_windows():
    blobs = [fixtures.jpeg_bytes(fixtures.photo(64, 80, seed=s)) for s in range(3)]
    windows = [[0, 0, 10, 10], [5, 6, 30, 40], [63, 79, 1, 1]]
    batch = tga.decode_image(tf.constant(blobs), crop_window=windows)
    for blob, win, got in zip(blobs, windows, batch):
        y, x, h, w = win
        np.testing.assert_array_equal(got.numpy(), decode(blob)[y:y + h, x:x + w])


def test_empty_batch():
    batch = tga.decode_image(tf.constant([], tf.string))
    assert batch.shape[0] == 0


def test_image_shape_keeps_input_shape():
    blob = fixtures.jpeg_bytes(fixtures.photo(5, 6))
    assert tga.image_shape(tf.constant([[blob, blob]])).shape == (1, 2, 3)


def test_image_shape_of_a_batch_names_its_first_bad_image():
    # The error names the first bad image by its index; the good batch's heights in order.
    good = [fixtures.jpeg_bytes(fixtures.photo(9 + k, 7, seed=k)) for k in range(40)]
    blobs = list(good)
    blobs[13], blobs[29] = b"not an image", good[29][:20]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"image 13\b.*unknown image format"):
        tga.image_shape(tf.constant(blobs)).numpy()
    assert tga.image_shape(tf.constant(good)).numpy()[:, 0].tolist() == [9 + k for k in range(40)]


def test_shared_imagenet_sample_matches_pil_exactly():
    files = fixtures.shared_sample_files(limit=40)
    if not files:
        pytest.skip("shared ImageNet sample not present")
    blobs = [open(f, "rb").read() for f in files]
    batch = tga.decode_image(tf.constant(blobs))
    for blob, got in zip(blobs, batch):
        np.testing.assert_array_equal(got.numpy(), pil_rgb(blob))


def test_works_inside_tf_function_and_dataset():
    blobs = [fixtures.jpeg_bytes(fixtures.photo(10 + i, 12)) for i in range(5)]
    ds = tf.data.Dataset.from_tensor_slices(blobs).map(tga.decode_image)
    shapes = [x.shape[:2] for x in ds]
    assert shapes == [(10 + i, 12) for i in range(5)]

    @tf.function
    def f(x):
        return tga.decode_image(x).flat_values

    assert f(tf.constant(blobs)).shape[1] == 3
