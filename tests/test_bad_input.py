"""Corrupt, truncated, empty, oversized and wrongly typed inputs: a clean error, never a crash."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga


@pytest.fixture(scope="module")
def valid_files():
    return {
        "jpeg": fixtures.jpeg_bytes(fixtures.photo(37, 53)),
        "progressive": fixtures.jpeg_bytes(fixtures.photo(37, 53), progressive=True),
        "png": fixtures.png_bytes(fixtures.photo(29, 31)),
        "png_interlaced": fixtures.png_bytes(fixtures.photo(29, 31), interlace=True),
    }


def decodes_or_raises_invalid(data: bytes, **kw) -> bool:
    """True if decoded, False if InvalidArgumentError; anything else fails the test."""
    try:
        out = tga.decode_image(data, **kw).numpy()
        assert out.dtype == np.uint8 and out.ndim == 3
        return True
    except tf.errors.InvalidArgumentError as e:
        assert e.message  # names the problem
        return False


@pytest.mark.parametrize("data,words", [
    (b"", "empty"),
    (b"hello world, not an image", "unknown image format"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"\x89PNG\r\n\x1a\n", "PNG"),
])
def test_garbage_names_the_problem(data, words):
    with pytest.raises(tf.errors.InvalidArgumentError, match=words):
        tga.decode_image(data).numpy()
    with pytest.raises(tf.errors.InvalidArgumentError, match=words):
        tga.image_shape(data).numpy()


@pytest.mark.parametrize("kind", ["jpeg", "progressive", "png", "png_interlaced"])
def test_every_truncation_decodes_or_fails_cleanly(valid_files, kind):
    data = valid_files[kind]
    offsets = sorted(set(np.linspace(0, len(data) - 1, 60).astype(int)))
    failures = sum(not decodes_or_raises_invalid(data[:n]) for n in offsets)
    assert failures >= len(offsets) - 2  # only cuts in trailing bytes may still decode


def test_truncated_jpeg_error_says_premature_end(valid_files):
    data = valid_files["jpeg"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Premature end"):
        tga.decode_image(data[: len(data) * 2 // 3]).numpy()


@pytest.mark.parametrize("kind", ["jpeg", "progressive", "png", "png_interlaced"])
def test_byte_flips_decode_or_fail_cleanly(valid_files, kind):
    data = valid_files[kind]
    rng = np.random.default_rng(0)
    for _ in range(150):
        mutated = bytearray(data)
        for pos in rng.integers(0, len(data), rng.integers(1, 4)):
            mutated[pos] ^= int(rng.integers(1, 256))
        decodes_or_raises_invalid(bytes(mutated), channels=int(rng.choice([1, 3, 4])))


@pytest.mark.parametrize("kind", ["jpeg", "png"])
def test_oversized_header_refused_before_allocating(valid_files, kind):
    if kind == "jpeg":
        data = fixtures.with_jpeg_size(valid_files["jpeg"], 60000, 60000)
    else:
        data = fixtures.with_png_size(valid_files["png"], 1 << 20, 1 << 20)
    with pytest.raises(tf.errors.InvalidArgumentError, match="max_pixels"):
        tga.decode_image(data).numpy()
    # The limit is configurable.
    with pytest.raises(tf.errors.InvalidArgumentError, match="max_pixels=100"):
        tga.decode_image(valid_files[kind], max_pixels=100).numpy()


def test_batch_error_names_the_image(valid_files):
    batch = tf.constant([valid_files["jpeg"], b"junk", valid_files["png"]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="image 1"):
        tga.decode_image(batch).flat_values.numpy()


def test_crop_window_outside_image(valid_files):
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not fit"):
        tga.decode_image(valid_files["jpeg"], crop_window=[30, 0, 10, 10]).numpy()
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not fit"):
        tga.decode_image(valid_files["png"], crop_window=[0, 0, 0, 5]).numpy()


def test_ignore_errors_skips_bad_elements(valid_files):
    blobs = [valid_files["jpeg"], b"junk", valid_files["png"], valid_files["jpeg"][:300], b""]
    ds = tf.data.Dataset.from_tensor_slices(blobs).map(tga.decode_image)
    ds = ds.apply(tf.data.experimental.ignore_errors())
    assert [x.shape[:2] for x in ds] == [(37, 53), (29, 31)]


@pytest.mark.parametrize("kwargs,error,words", [
    (dict(channels=2), ValueError, "channels must be one of"),
    (dict(dct_denom=3), ValueError, "dct_denom must be one of"),
    (dict(dct_method="FAST"), ValueError, "dct_method"),
    (dict(max_pixels=0), ValueError, "max_pixels"),
    (dict(crop_window=[1, 2, 3]), ValueError, "last dimension must be 4"),
    (dict(crop_window=[[1, 2, 3, 4]]), ValueError, "rank 1"),
    (dict(crop_window=[1.0, 2.0, 3.0, 4.0]), TypeError, "integer"),
])
def test_bad_arguments_fail_at_graph_construction(valid_files, kwargs, error, words):
    with pytest.raises(error, match=words):
        tga.decode_image(valid_files["jpeg"], **kwargs)


def test_bad_contents_rank_and_dtype_fail_at_graph_construction():
    with pytest.raises(TypeError, match="tf.string"):
        tga.decode_image(tf.zeros([3], tf.uint8))
    with pytest.raises(ValueError, match="rank 0 or 1"):
        tga.decode_image(tf.constant([["a"]]))

    @tf.function(input_signature=[tf.TensorSpec(None, tf.string)])
    def unknown_rank(x):
        return tga.decode_image(x)

    with pytest.raises(ValueError, match="unknown"):
        unknown_rank.get_concrete_function()
