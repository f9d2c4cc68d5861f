"""Geometry and normalization ops against tf.image, PIL and numpy.

Tolerances: uint8 outputs within 1 level of the float reference rounded (our kernels use
float32 weights like tf.image's; rounding of .5 ties may differ); float outputs within
1e-3 relative; flips, crops, layouts and dtype conversions exact.
"""

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import fixtures
import tfgpuaug as tga


def rounded(x):
    return np.clip(np.round(np.asarray(x, np.float64)), 0, 255)


def max_diff(a, b):
    return np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)).max()


@pytest.fixture(scope="module")
def photos():
    return np.stack([fixtures.photo(61, 83, seed=s) for s in range(3)])


@pytest.mark.parametrize("method", ["bilinear", "bicubic", "area", "nearest"])
@pytest.mark.parametrize("antialias", [False, True])
@pytest.mark.parametrize("size", [(1, 1), (17, 29), (61, 83), (150, 97), (5, 240)])
def test_resize_uint8_matches_tf_image(photos, method, antialias, size):
    got = tga.resize(photos, size, method=method, antialias=antialias)
    assert got.dtype == tf.uint8 and got.shape == (3, *size, 3)
    ref = tf.image.resize(photos, size, method=method, antialias=antialias)
    assert max_diff(got, rounded(ref)) <= 1


@pytest.mark.parametrize("method", ["bilinear", "bicubic", "area"])
@pytest.mark.parametrize("channels", [1, 4])
def test_resize_float_matches_tf_image(method, channels):
    x = np.random.default_rng(0).uniform(-2, 5, (2, 33, 47, channels)).astype(np.float32)
    got = tga.resize(x, (20, 71), method=method, antialias=True).numpy()
    ref = tf.image.resize(x, (20, 71), method=method, antialias=True).numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-3, atol=1e-3)


def test_resize_single_image_and_ragged_batch():
    imgs = [fixtures.photo(h, w, seed=h) for h, w in [(10, 20), (45, 33), (1, 1)]]
    ragged = tf.ragged.constant([i.tolist() for i in imgs], ragged_rank=2, dtype=tf.uint8)
    got = tga.resize(ragged, (16, 16), antialias=True).numpy()
    for img, g in zip(imgs, got):
        np.testing.assert_array_equal(g, tga.resize(img, (16, 16), antialias=True).numpy())
        assert max_diff(g, rounded(tf.image.resize(img, (16, 16), antialias=True))) <= 1


@pytest.mark.parametrize("src,dst", [((1, 1), (7, 5)), ((2, 100), (1, 50)), ((50, 1), (10, 3)),
                                     ((4, 200), (224, 224))])
def test_extreme_sizes_and_aspect_ratios(src, dst):
    img = fixtures.photo(*src)
    for aa in (False, True):
        got = tga.resize(img, dst, antialias=aa)
        assert max_diff(got, rounded(tf.image.resize(img, dst, antialias=aa))) <= 1


def test_large_image_resize_and_random_resized_crop():
    img = fixtures.photo(3000, 4000, seed=5)
    got = tga.resize(img, (224, 224), antialias=True)
    assert max_diff(got, rounded(tf.image.resize(img, (224, 224), antialias=True))) <= 1
    blob = fixtures.jpeg_bytes(img, quality=80)
    out = tga.random_resized_crop(tf.constant([blob, blob]), 224, seed=3, max_dct_denom=8)
    assert out.shape == (2, 224, 224, 3)


def test_antialiased_bilinear_close_to_pil_reduce():
    img = fixtures.photo(300, 400, seed=2)
    got = tga.resize(img, (75, 100), antialias=True).numpy()
    ref = np.asarray(Image.fromarray(img).resize((100, 75), Image.BILINEAR))
    # PIL's fixed-point arithmetic rounds differently: within 1 level.
    assert max_diff(got, ref) <= 1


def test_crop_and_resize_interior_equals_crop_then_resize():
    img = fixtures.photo(80, 120)
    box = [10, 20, 40, 60]
    got = tga.crop_and_resize(img[None], [box], (20, 30), antialias=True).numpy()[0]
    ref = rounded(tf.image.resize(img[10:50, 20:80], (20, 30), antialias=True))
    # Taps near the box edge read the image beyond the box instead of clamping: interior only.
    assert max_diff(got[2:-2, 2:-2], ref[2:-2, 2:-2]) <= 1


@pytest.mark.parametrize("denom,sizes", [(2, [(601, 803), (900, 611)]), (4, [(1203, 1605), (1800, 1222)])])
def test_default_dct_scaled_decode_equals_scaled_decode_then_crop_and_resize(denom, sizes):
    """The default (max_dct_denom=4) decodes a JPEG box that is at least 2x (4x) the output
    at 1/2 (1/4) DCT scale: the output equals decode_image(dct_denom=...) followed by
    crop_and_resize on the box mapped into the scaled image (ceil(size / denom) pixels).
    Mutants checked against: the box mapped by 1/denom instead of the exact ratio on odd sizes,
    and a full-scale decode (both exceed the tolerance on these images)."""
    assert tga.geometry.DEFAULT_MAX_DCT_DENOM == 4
    blobs = [fixtures.jpeg_bytes(fixtures.photo(h, w, seed=h)) for h, w in sizes]
    contents = tf.constant(blobs)
    dims = tga.image_shape(contents)[:, :2]
    cases = [(tga.resize_center_crop(contents, 256, 224).numpy(),
              tga.center_crop_boxes(dims, 256, (224, 224)).numpy()),
             (tga.random_resized_crop(contents, 160, scale=(0.6, 1.0), seed=8).numpy(),
              tga.random_crop_boxes(dims, (0.6, 1.0), seed=8).numpy())]
    for got, boxes in cases:
        size = got.shape[1]
        for blob, g, box in zip(blobs, got, boxes):
            full = tga.decode_image(blob)
            shorter = min(box[2], box[3])  # this scale applies (4 is the cap)
            assert denom * size <= shorter and (denom == 4 or shorter < 2 * denom * size)
            scaled = tga.decode_image(blob, dct_denom=denom)
            ratio = np.array(scaled.shape[:2], np.float64) / np.array(full.shape[:2], np.float64)
            mapped = box * np.concatenate([ratio, ratio])
            ref = tga.crop_and_resize(scaled[tf.newaxis], mapped[np.newaxis], size).numpy()[0]
            assert max_diff(g, ref) <= 1
            at_full = tga.crop_and_resize(full[tf.newaxis], box[np.newaxis], size).numpy()[0]
            # ...and it is not the full-scale result (these noisy synthetic photos differ by
            # several levels on average; docs/architecture.md gives the figures for real photos)
            assert np.abs(g.astype(int) - at_full.astype(int)).mean() > 0.5


def test_resize_center_crop_equals_resize_then_central_crop():
    blobs = [fixtures.jpeg_bytes(fixtures.photo(h, w, seed=h)) for h, w in [(300, 400), (500, 333), (256, 256)]]
    got = tga.resize_center_crop(tf.constant(blobs), 256, 224, max_dct_denom=1).numpy()
    for blob, g in zip(blobs, got):
        img = tga.decode_image(blob)
        h, w = img.shape[:2]
        s = 256 / min(h, w)
        resized = tf.image.resize(img, (round(h * s), round(w * s)), antialias=True)
        ref = rounded(tf.image.resize_with_crop_or_pad(resized, 224, 224))
        assert max_diff(g, ref) <= 1


def test_fused_decode_batch_equals_one_by_one_and_names_the_bad_image():
    # More images than a worker's decode group (4) times the cores, of different sizes:
    # the grouped decode-then-resample schedule must put every image in its own slot.
    sizes = [(300 + 37 * s, 260 + 23 * (s % 5)) for s in range(13)]
    blobs = [fixtures.jpeg_bytes(fixtures.photo(h, w, seed=s)) for s, (h, w) in enumerate(sizes)]
    batch = tga.resize_center_crop(tf.constant(blobs), 64, 48).numpy()
    for blob, got in zip(blobs, batch):
        np.testing.assert_array_equal(got, tga.resize_center_crop(tf.constant([blob]), 64, 48).numpy()[0])
    bad = list(blobs)
    bad[9] = blobs[9][: len(blobs[9]) // 3]  # truncated mid-scan
    with pytest.raises(tf.errors.InvalidArgumentError, match="image 9"):
        tga.resize_center_crop(tf.constant(bad), 64, 48)


def test_fused_decode_empty_and_all_bad_batches():
    # The fused op allocates its output when the first decoded image is written: a batch
    # with no image, or with no decodable one, must still end in an output or an error.
    empty = tf.constant([], tf.string)
    assert tga.resize_center_crop(empty, 64, 48).shape == (0, 48, 48, 3)
    normalized = tga.random_resized_crop(empty, 24, seed=3, mean=tga.IMAGENET_MEAN, std=tga.IMAGENET_STD)
    assert normalized.shape == (0, 24, 24, 3) and normalized.dtype == tf.float32
    with pytest.raises(tf.errors.InvalidArgumentError, match="image 0"):
        tga.resize_center_crop(tf.constant([b"not an image", b"\xff\xd8\xff"]), 64, 48)


def test_random_resized_crop_encoded_equals_decoded_path():
    blobs = tf.constant([fixtures.jpeg_bytes(fixtures.photo(120 + 7 * s, 160, seed=s)) for s in range(4)])
    enc = tga.random_resized_crop(blobs, 32, seed=11, max_dct_denom=1)
    dec = tga.random_resized_crop(tga.decode_image(blobs), 32, seed=11)
    np.testing.assert_array_equal(enc.numpy(), dec.numpy())


def test_random_resized_crop_seeds():
    blobs = tf.constant([fixtures.jpeg_bytes(fixtures.photo(90, 130, seed=s)) for s in range(4)])
    a = tga.random_resized_crop(blobs, 24, seed=[1, 2]).numpy()
    b = tga.random_resized_crop(blobs, 24, seed=[1, 2]).numpy()
    c = tga.random_resized_crop(blobs, 24, seed=[1, 3]).numpy()
    np.testing.assert_array_equal(a, b)
    assert (a != c).any()
    with pytest.raises(ValueError, match="seed is required"):
        tga.random_resized_crop(blobs, 24)


def test_random_resized_crop_fused_flip_and_normalize():
    blobs = tf.constant([fixtures.jpeg_bytes(fixtures.photo(90, 130, seed=s)) for s in range(4)])
    mirror = [True, False, True, False]
    plain = tga.random_resized_crop(blobs, 40, seed=5).numpy().astype(np.float32)
    fused = tga.random_resized_crop(blobs, 40, seed=5, mirror=mirror, mean=tga.IMAGENET_MEAN,
                                    std=tga.IMAGENET_STD).numpy()
    assert fused.dtype == np.float32
    ref = (plain - np.float32(tga.IMAGENET_MEAN)) / np.float32(tga.IMAGENET_STD)
    ref[mirror] = ref[mirror][:, :, ::-1]
    # The fused path normalises before uint8 rounding: within half a level / std.
    assert np.abs(fused - ref).max() <= 0.51 / min(tga.IMAGENET_STD)


@pytest.mark.parametrize("size", [40, 41, 224])  # even and odd widths: paired and single stores
def test_random_resized_crop_fused_flip_uint8_exact(size):
    blobs = tf.constant([fixtures.jpeg_bytes(fixtures.photo(90 + 60 * s, 130, seed=s)) for s in range(4)])
    mirror = [True, False, True, True]
    plain = tga.random_resized_crop(blobs, size, seed=5).numpy()
    flipped = tga.random_resized_crop(blobs, size, seed=5, mirror=mirror).numpy()
    plain[mirror] = plain[mirror][:, :, ::-1]
    np.testing.assert_array_equal(flipped, plain)


def _numpy_crop_boxes(dims, seed, scale=(0.08, 1.0), ratio=(3 / 4, 4 / 3), attempts=10):
    """torchvision's RandomResizedCrop box rule in numpy, fed the uniforms the op draws."""
    s1, s2, s3 = tf.unstack(tf.random.experimental.stateless_split(tf.constant([seed, 0], tf.int64), 3))
    n = len(dims)
    area_u = tf.random.stateless_uniform([n, attempts], s1, scale[0], scale[1]).numpy()
    log_r = tf.random.stateless_uniform([n, attempts], s2, np.log(ratio[0]), np.log(ratio[1])).numpy()
    pos = tf.random.stateless_uniform([n, 2], s3).numpy()
    out = []
    for (h, w), au, lr, (uy, ux) in zip(dims, area_u, log_r, pos):
        for a, r in zip(au, np.exp(lr)):
            cw, ch = np.round(np.sqrt(h * w * a * r)), np.round(np.sqrt(h * w * a / r))
            if 0 < cw <= w and 0 < ch <= h:
                out.append([np.floor(uy * (h - ch + 1)), np.floor(ux * (w - cw + 1)), ch, cw])
                break
        else:  # whole image narrowed to the nearest allowed aspect ratio, centred
            fh = np.round(w / ratio[0]) if w / h < ratio[0] else h
            fw = np.round(h * ratio[1]) if w / h > ratio[1] else w
            out.append([np.floor((h - fh) / 2), np.floor((w - fw) / 2), fh, fw])
    return np.asarray(out, np.float64)


def test_random_crop_boxes_equal_a_numpy_reimplementation_on_the_same_uniforms():
    """Mutants checked against: a box always at (0, 0); the area drawn from the wrong range;
    the aspect ratio used as w/h where h/w is meant (each fails the equality)."""
    dims = np.array([[375, 500], [500, 333], [20, 1000], [64, 64], [1000, 30]] * 400, np.float32)
    boxes = tga.random_crop_boxes(tf.constant(dims), seed=4).numpy()
    expected = _numpy_crop_boxes(dims.astype(np.float64), 4)
    # float32 in the op, float64 here: a rounding tie may move one size or offset by a pixel
    same = (boxes == expected).all(1)
    assert same.mean() > 0.995 and np.abs(boxes - expected).max() <= 1
    y, x = boxes[:, 0], boxes[:, 1]
    assert (y > 0).mean() > 0.5 and (x > 0).mean() > 0.5  # placed, not pinned to a corner


@pytest.mark.parametrize("exif", [False, True])
def test_fused_op_draws_the_reference_boxes(exif):
    """random_resized_crop on bytes draws each box in the kernel from its own header parse
    (DecodeRandomCropResize); it must equal the graph reference: image_shape, random_crop_boxes
    on the same uniforms, then DecodeCropResize on those boxes, bit for bit (JPEG, PNG, extreme
    aspect ratios that take the fallback, EXIF-rotated images). Mutant checked against: the
    kernel's box with width and height swapped, and the fallback without rounding."""
    photos = [fixtures.photo(h, w, seed=h) for h, w in [(120, 90), (64, 300), (300, 20), (45, 45), (201, 157)]]
    blobs = [fixtures.jpeg_bytes(p, exif=fixtures.exif_with_orientation(6) if exif else None) for p in photos]
    blobs.append(fixtures.png_bytes(fixtures.photo(70, 50, seed=3)))
    contents = tf.constant(blobs * 8)
    for seed in (1, 2, 3):
        kw = dict(scale=(0.08, 1.0), ratio=(3 / 4, 4 / 3), apply_exif_orientation=exif)
        got = tga.random_resized_crop(contents, 32, seed=seed, **kw).numpy()
        dims = tga.image_shape(contents, exif)[:, :2]
        boxes = tga.random_crop_boxes(dims, kw["scale"], kw["ratio"], seed=seed)
        ref = tga.geometry._decode_crop_resize(contents, boxes, 32, "bilinear", True, 3, "INTEGER_ACCURATE",
                                               tga.geometry.DEFAULT_MAX_DCT_DENOM, exif,
                                               tga.DEFAULT_MAX_PIXELS).numpy()
        np.testing.assert_array_equal(got, ref)


def test_random_crop_boxes_stay_inside_and_follow_the_distribution():
    dims = tf.constant([[375, 500], [500, 333], [20, 1000], [64, 64]] * 500, tf.float32)
    boxes = tga.random_crop_boxes(dims, seed=4).numpy()
    d = dims.numpy()
    y, x, h, w = boxes.T
    assert (y >= 0).all() and (x >= 0).all() and (h > 0).all() and (w > 0).all()
    assert (y + h <= d[:, 0]).all() and (x + w <= d[:, 1]).all()
    assert np.allclose(boxes, np.round(boxes))
    normal = d[:, 1] / d[:, 0] < 3
    frac = (h * w / d.prod(1))[normal]
    assert frac.min() >= 0.075 and frac.max() <= 1.0
    aspect = (w / h)[normal]
    assert aspect.min() >= 0.7 and aspect.max() <= 1.43  # 3/4..4/3 before rounding to pixels
    # 1:50 images rarely fit: the fallback is a centred crop with aspect ratio 4/3.
    wide = boxes[2::4]
    assert np.mean(np.isclose(wide[:, 3] / wide[:, 2], 4 / 3, atol=0.05)) > 0.5


@pytest.mark.parametrize("layout", ["NHWC", "NCHW"])
@pytest.mark.parametrize("dtype", [tf.float32, tf.float16, tf.bfloat16])
@pytest.mark.parametrize("pad", [False, True])
def test_crop_mirror_normalize_exact(photos, layout, dtype, pad):
    mirror = [True, False, True]
    offsets = [[0, 0], [5, 9], [11, 23]]
    got = tga.crop_mirror_normalize(photos, tga.IMAGENET_MEAN, tga.IMAGENET_STD, crop=(50, 60),
                                    crop_offsets=offsets, mirror=mirror, layout=layout,
                                    dtype=dtype, pad_channels=pad)
    ref = []
    for img, (oy, ox), m in zip(photos, offsets, mirror):
        c = img[oy:oy + 50, ox:ox + 60].astype(np.float32)
        c = c[:, ::-1] if m else c
        c = (c - np.float32(tga.IMAGENET_MEAN)) * (1 / np.float32(tga.IMAGENET_STD))
        if pad:
            c = np.concatenate([c, np.zeros_like(c[..., :1])], -1)
        ref.append(c.transpose(2, 0, 1) if layout == "NCHW" else c)
    ref = tf.cast(tf.constant(np.stack(ref)), dtype)
    assert got.dtype == dtype
    np.testing.assert_array_equal(tf.cast(got, tf.float32).numpy(), tf.cast(ref, tf.float32).numpy())


def test_crop_mirror_normalize_centre_crop_default(photos):
    got = tga.crop_mirror_normalize(photos, [0, 0, 0], [1, 1, 1], crop=31).numpy()
    oy, ox = (61 - 31) // 2, (83 - 31) // 2
    np.testing.assert_array_equal(got, photos[:, oy:oy + 31, ox:ox + 31].astype(np.float32))


@pytest.mark.parametrize("dtype", [tf.uint8, tf.float32, tf.bfloat16])
def test_flip_per_sample(photos, dtype):
    x = tf.cast(photos, dtype)
    h, v = [True, False, True], [False, True, True]
    got = tf.cast(tga.flip(x, horizontal=h, vertical=v), tf.float32).numpy()
    ref = photos.astype(np.float32).copy()
    for i in range(3):
        if h[i]:
            ref[i] = ref[i][:, ::-1]
        if v[i]:
            ref[i] = ref[i][::-1]
    np.testing.assert_array_equal(got, ref)


def pil_affine(img, m, resample):
    a, b, c, d, e, f = m
    return np.asarray(Image.fromarray(img).transform(img.shape[1::-1], Image.AFFINE, (a, b, c, d, e, f),
                                                     resample=resample, fillcolor=(128, 128, 128)))


@pytest.mark.parametrize("interpolation,resample", [("nearest", Image.NEAREST), ("bilinear", Image.BILINEAR)])
def test_warp_affine_matches_pil_transform(interpolation, resample):
    img = fixtures.photo(64, 80, seed=9)
    t = np.deg2rad(17.0)
    cx, cy = 40, 32
    rot = [np.cos(t), np.sin(t), cx - np.cos(t) * cx - np.sin(t) * cy,
           -np.sin(t), np.cos(t), cy + np.sin(t) * cx - np.cos(t) * cy]
    shear = [1, 0.3, -10, 0, 1, 0]
    shift = [1, 0, 7.5, 0, 1, -3]
    mats = np.array([rot, shear, shift], np.float32).reshape(3, 2, 3)
    got = tga.warp_affine(np.stack([img] * 3), mats, interpolation=interpolation).numpy()
    for g, m in zip(got, mats):
        ref = pil_affine(img, m.ravel().tolist(), resample)
        # Away from the image border (where PIL and we may disagree on the fill/sample
        # decision for coordinates within float error of the edge): within 1 level.
        inner = np.abs(g[2:-2, 2:-2].astype(int) - ref[2:-2, 2:-2]).max()
        assert inner <= 1
        assert np.mean(np.abs(g.astype(int) - ref) > 1) < 0.02  # border pixels


@pytest.mark.parametrize("size", [(40, 100), (90, 30)])
def test_warp_affine_other_output_size_matches_pil(size):
    """Output larger or smaller than the input, through each CPU loop: rows (shear_x, a
    vertical shift), columns (shear_y) and the general one (a rotation-like matrix)."""
    img = fixtures.photo(64, 80, seed=4)
    mats = np.array([[1, 0.3, -5, 0, 1, 0], [1, 0, 0, 0, 1, -7.25], [1, 0, 0, 0.2, 1, 3],
                     [0.96, 0.28, -6, -0.28, 0.96, 14]], np.float32).reshape(4, 2, 3)
    got = tga.warp_affine(np.stack([img] * 4), mats, size=size).numpy()
    assert got.shape == (4,) + size + (3,)
    for g, m in zip(got, mats):
        ref = np.asarray(Image.fromarray(img).transform(size[::-1], Image.AFFINE, m.ravel().tolist(),
                                                        resample=Image.BILINEAR, fillcolor=(128,) * 3))
        assert np.abs(g[2:-2, 2:-2].astype(int) - ref[2:-2, 2:-2]).max() <= 1
        assert np.mean(np.abs(g.astype(int) - ref) > 1) < 0.02


def test_warp_affine_fill_and_size():
    img = np.full((1, 10, 10, 3), 200, np.uint8)
    out = tga.warp_affine(img, [[[1, 0, 100], [0, 1, 0]]], size=(4, 6), fill_value=7).numpy()
    assert out.shape == (1, 4, 6, 3) and (out == 7).all()


@pytest.mark.parametrize("call,error,words", [
    (lambda x: tga.resize(x, 0), ValueError, "size must be"),
    (lambda x: tga.resize(x, (3, -1)), ValueError, "size must be"),
    (lambda x: tga.resize(x, 5, method="lanczos9"), ValueError, "method"),
    (lambda x: tga.resize(tf.cast(x, tf.int32), 5), TypeError, "uint8 or float32"),
    (lambda x: tga.resize(x[0, 0], 5), ValueError, "rank 3 or 4"),
    (lambda x: tga.crop_mirror_normalize(x, [1, 2], [1, 2, 3]), ValueError, "same number"),
    (lambda x: tga.crop_mirror_normalize(x, [1, 2, 3], [1, 0, 3]), ValueError, "std must not contain 0"),
    (lambda x: tga.crop_mirror_normalize(x, [1], [1]), ValueError, "values for 3 channels"),
    (lambda x: tga.crop_mirror_normalize(x, [1, 2, 3], [1, 2, 3], dtype=tf.int8), ValueError, "dtype"),
    (lambda x: tga.crop_mirror_normalize(x, [1, 2, 3], [1, 2, 3], layout="HWC"), ValueError, "layout"),
    (lambda x: tga.crop_mirror_normalize(x, [1, 2, 3], [1, 2, 3], mirror=1.5, seed=1), ValueError, "probability"),
    (lambda x: tga.random_resized_crop(x, 8, scale=(0.5, 0.1), seed=1), ValueError, "scale"),
    (lambda x: tga.resize_center_crop(x, 100, 200), ValueError, "crop <= resize_shorter"),
    (lambda x: tga.warp_affine(x, tf.zeros([3, 3, 3])), ValueError, r"\[B, 2, 3\]"),
    (lambda x: tga.random_resized_crop(x, 8, seed=1, mean=[1, 2, 3]), ValueError, "both mean and std"),
])
def test_invalid_arguments_fail_at_graph_construction(photos, call, error, words):
    with pytest.raises(error, match=words):
        call(tf.constant(photos))


def test_runtime_errors_are_invalid_argument(photos):
    with pytest.raises(tf.errors.InvalidArgumentError, match="puts the"):
        tga.crop_mirror_normalize(photos, [0] * 3, [1] * 3, crop=(10, 10), crop_offsets=[[60, 0]] * 3).numpy()
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not fit"):
        tga.crop_and_resize(photos, [[0, 0, 100, 10]] * 3, 4).numpy()
    blob = fixtures.jpeg_bytes(fixtures.photo(20, 20))
    with pytest.raises(tf.errors.InvalidArgumentError, match="image 1: invalid JPEG"):
        tga.random_resized_crop(tf.constant([blob, blob[:50]]), 8, seed=1).numpy()


@pytest.fixture
def without_stream_stores(monkeypatch):
    """Runs a callable with TFGPUAUG_DISABLE_STREAM_STORES set: ordinary stores only (the
    kernels read it on every call)."""
    def run(fn):
        monkeypatch.setenv("TFGPUAUG_DISABLE_STREAM_STORES", "1")
        try:
            return fn()
        finally:
            monkeypatch.delenv("TFGPUAUG_DISABLE_STREAM_STORES")
    return run


def test_large_outputs_written_with_streaming_stores_equal_ordinary_stores(without_stream_stores):
    # Outputs from 256 KB per image go to memory with streaming stores through a row buffer;
    # odd widths, a centred letterbox (rows starting off a 16-byte boundary), mirrored rows,
    # padding around and both dtypes must give the same bits as ordinary stores.
    photos = [fixtures.photo(h, w, seed=s) for s, (h, w) in enumerate([(301, 419), (433, 211), (97, 513)])]
    ragged = tf.ragged.stack([tf.constant(p) for p in photos])
    blobs = tf.constant([tf.io.encode_jpeg(p).numpy() for p in photos])
    mirror = tf.constant([True, False, True])
    mean, std = (0.485 * 255, 0.456 * 255, 0.406 * 255), (0.229 * 255, 0.224 * 255, 0.225 * 255)
    calls = {
        "resize float": lambda: tga.resize(tf.constant(photos[0], tf.float32)[None], (517, 639), method="bicubic"),
        "resize uint8": lambda: tga.resize(tf.constant(photos[1])[None], (331, 283)),
        "letterbox float": lambda: tga.geometry.resize_and_pad(ragged, (641, 643), center=True, mirror=mirror,
                                                                mean=mean, std=std, pad_value=-1.5)[0],
        "scale jitter decoded": lambda: tga.geometry.resize_and_pad(blobs, (640, 640), (0.8, 1.25), jitter=True,
                                                                     seed=(3, 4), mirror=mirror, mean=mean,
                                                                     std=std)[0],
        "crop_mirror_normalize": lambda: tga.crop_mirror_normalize(
            tf.constant(np.stack([photos[0], photos[0][::-1]])), mean, std, crop=(299, 307),
            mirror=tf.constant([True, False])),
        "scale jitter uint8": lambda: tga.geometry.resize_and_pad(blobs, (517, 611), (0.5, 1.5), jitter=True,
                                                                   seed=(5, 6), pad_value=7)[0],
    }
    for name, call in calls.items():
        streamed = call().numpy()
        ordinary = without_stream_stores(call).numpy()
        assert streamed.nbytes // len(streamed) >= 256 * 1024, name
        np.testing.assert_array_equal(streamed, ordinary, err_msg=name)


def test_large_float_resize_matches_tf_image():
    # The streamed path against an independent reference (tolerance as above: 1e-3 relative).
    photo = fixtures.photo(301, 419, seed=9)
    got = tga.resize(tf.constant(photo, tf.float32)[None], (517, 639))
    ref = tf.image.resize(photo[None].astype(np.float32), (517, 639))
    assert got.dtype == tf.float32 and got.numpy().nbytes >= 256 * 1024
    np.testing.assert_allclose(got.numpy(), ref.numpy(), rtol=1e-3, atol=1e-3)
