"""Superpixels (issue 36; Albumentations' transform of that name). The Superpixels op against a
numpy statement of Albumentations 2.0.8's `slic` and `superpixels` (float64 in numpy's order:
byte for byte); its rules (label 0 never replaced, flag i mod n for the i-th label present, no
flag leaves the image alone, an image too thin for any centre is one segment, more segments than
pixels); the transform's draws and resizes; Albumentations itself where installed."""
import importlib

import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga

sp = importlib.import_module("tfgpuaug.augment.superpixels")  # the package's name is the function


def numpy_slic(image, n):
    """Albumentations' slic: colours v / (max + 1e-6), centres on the grid of int(sqrt(h w / n))
    from half a step, ten rounds of window assignment (strictly better distances only, kept
    across rounds) and centre moves to the truncated mean position."""
    h, w = image.shape[:2]
    colours = image.astype(np.float64) / (float(image.max()) + 1e-6)
    step = max(int((h * w / n) ** 0.5), 1)
    centres = [[x, y] for y in range(step // 2, h, step) for x in range(step // 2, w, step)]
    labels = np.full((h, w), -1)
    best = np.full((h, w), np.inf)
    for _ in range(10):
        for i, (x, y) in enumerate(centres):
            y0, y1, x0, x1 = max(0, y - step), min(h, y + step + 1), max(0, x - step), min(w, x + step + 1)
            diff = colours[y0:y1, x0:x1] - colours[y, x]
            colour = np.zeros(diff.shape[:2])
            for k in range(diff.shape[2]):  # numpy's sum over the last axis adds in order
                colour = colour + diff[..., k] ** 2
            yy, xx = np.mgrid[y0:y1, x0:x1]
            d = colour + 10 * (((yy - y) ** 2 + (xx - x) ** 2) / step ** 2)
            better = d < best[y0:y1, x0:x1]
            best[y0:y1, x0:x1][better] = d[better]
            labels[y0:y1, x0:x1][better] = i
        for i in range(len(centres)):
            rows, cols = np.nonzero(labels == i)
            if rows.size:
                centres[i] = [int(cols.mean()), int(rows.mean())]
    return labels


def numpy_superpixels(image, n, flags):
    """Albumentations' superpixels without resizing: the labels present, 0 dropped when first,
    the i-th replaced by its channel means (numpy's round) where flags[i % n]."""
    if not np.any(flags[:n]):
        return image
    labels = numpy_slic(image, n)
    present = np.unique(labels)
    if present[0] == 0:
        present = present[1:]
    out = image.copy()
    for i, label in enumerate(present):
        if flags[i % n]:
            where = labels == label
            for k in range(image.shape[2]):
                out[..., k][where] = np.round(image[..., k][where].mean())
    return out


def run_op(images, counts, flags):
    return sp.superpixels_op(images, np.asarray(counts, np.int32), np.asarray(flags, bool)).numpy()


@pytest.fixture(scope="module")
def photos():
    return np.stack([fixtures.photo(36, 44, 3, seed=s) for s in range(4)])


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_op_matches_the_numpy_statement_byte_for_byte(channels):
    rng = np.random.default_rng(channels)
    images = np.stack([fixtures.photo(30, 41, 3, seed=s) for s in range(5)])
    images = np.concatenate([images, images[..., :1]], axis=-1)[..., :channels] if channels != 3 else images
    counts = [1, 7, 25, 60, 200]
    flags = rng.random((5, 200)) < 0.6
    got = run_op(images, counts, flags)
    for b, n in enumerate(counts):
        want = numpy_superpixels(images[b], n, flags[b])
        np.testing.assert_array_equal(got[b], want, err_msg=f"sample {b}, n {n}")
    assert not np.array_equal(got, images)  # the flags replaced segments


def test_rules_label_zero_flag_order_and_no_flag(photos):
    every = np.ones((4, 50), bool)
    got = run_op(photos, [20] * 4, every)
    for b in range(4):
        labels = numpy_slic(photos[b], 20)
        zero = labels == 0
        assert zero.any()
        np.testing.assert_array_equal(got[b][zero], photos[b][zero])  # label 0 kept
        assert not np.array_equal(got[b][~zero], photos[b][~zero])
    # flag i mod n: only flag 1 set, n = 3: the 2nd, 5th, 8th... labels present (0 dropped)
    flags = np.zeros((4, 50), bool)
    flags[:, 1] = True
    np.testing.assert_array_equal(run_op(photos, [3] * 4, flags)[0], numpy_superpixels(photos[0], 3, flags[0]))
    # flags beyond the first n do not count: nothing set among them leaves the image as it is
    late = np.zeros((4, 50), bool)
    late[:, 10:] = True
    np.testing.assert_array_equal(run_op(photos, [10] * 4, late), photos)


def test_edges_thin_images_many_segments_constant_images_and_clamped_counts():
    thin = fixtures.photo(1, 16, 3, seed=1)[np.newaxis]  # no centre fits: one segment, flag 0
    got = run_op(thin, [1], [[True]])
    np.testing.assert_array_equal(got[0], np.round(thin[0].mean(axis=(0, 1), keepdims=True)).astype(np.uint8)
                                  .repeat(16, axis=1))
    np.testing.assert_array_equal(run_op(thin, [1], [[False]]), thin)
    tiny = fixtures.photo(5, 6, 3, seed=2)[np.newaxis]  # more segments than pixels: step 1
    flags = np.ones((1, 100), bool)
    np.testing.assert_array_equal(run_op(tiny, [100], flags)[0], numpy_superpixels(tiny[0], 100, flags[0]))
    flat = np.zeros((1, 12, 12, 3), np.uint8)
    np.testing.assert_array_equal(run_op(flat, [4], [[True] * 4]), flat)
    image = fixtures.photo(20, 20, 3, seed=3)[np.newaxis]
    flags = np.random.default_rng(0).random((1, 8)) < 0.5
    flags[0, 0] = True
    # counts are clamped to [1, M]
    np.testing.assert_array_equal(run_op(image, [50], flags)[0], numpy_superpixels(image[0], 8, flags[0]))
    np.testing.assert_array_equal(run_op(image, [-3], flags)[0], numpy_superpixels(image[0], 1, flags[0]))


def draws(b, seed, p_range, n_range, probability):
    """The transform's draws restated: count, p, flags and apply from the split seed."""
    s_count, s_p, s_flags, s_apply = tf.unstack(tf.random.experimental.stateless_split(
        tf.constant(seed, tf.int64), 4))
    count = tf.random.stateless_uniform([b], s_count, n_range[0], n_range[1] + 1, dtype=tf.int32).numpy()
    p = tf.random.stateless_uniform([b], s_p, p_range[0], p_range[1], dtype=tf.float64).numpy()
    apply = tf.random.stateless_uniform([b], s_apply).numpy() < probability
    flags = tf.random.stateless_uniform([b, n_range[1]], s_flags, dtype=tf.float64).numpy() < p[:, None]
    return count, flags & apply[:, None]


def test_transform_draws_without_resizing(photos):
    seed = tf.constant([11, 1], tf.int64)
    got = sp.superpixels(photos, (0.3, 0.9), (5, 40), max_size=None, probability=0.8, seed=seed).numpy()
    count, flags = draws(4, [11, 1], (0.3, 0.9), (5, 40), 0.8)
    for b in range(4):
        np.testing.assert_array_equal(got[b], numpy_superpixels(photos[b], count[b], flags[b]), err_msg=str(b))
    assert not np.array_equal(got, photos)


def test_shrunk_sizes_follow_albumentations_arithmetic():
    for h, w, m in [(224, 224, 128), (300, 200, 128), (37, 1000, 128), (129, 5, 128), (100, 90, 128), (3, 999, 4)]:
        scale = m / max(h, w)
        want = (max(int(h * scale), 1), max(int(w * scale), 1)) if max(h, w) > m else (h, w)
        assert sp.shrunk_size(h, w, m) == want
        got = sp.shrunk_size(tf.constant(h), tf.constant(w), m)
        assert (int(got[0]), int(got[1])) == want, (h, w, m)


@pytest.mark.parametrize("interpolation", ["bilinear", "nearest"])
def test_transform_shrinks_cuts_and_grows_back(interpolation):
    images = np.stack([fixtures.photo(60, 45, 3, seed=s) for s in range(3)])
    got = sp.superpixels(images, (0.5, 1.0), (10, 30), max_size=32, interpolation=interpolation,
                         probability=1.0, seed=tf.constant([5, 2], tf.int64)).numpy()
    count, flags = draws(3, [5, 2], (0.5, 1.0), (10, 30), 1.0)
    linear = interpolation == "bilinear"
    # the resizes are the SeparableResample op (checked against numpy in test_crop_and_pad.py)
    small = sp._resized(tf.constant(images), 32, 24, linear).numpy()
    for b in range(3):
        cut = numpy_superpixels(small[b], count[b], flags[b])[np.newaxis]
        want = sp._resized(tf.constant(cut), 60, 45, linear).numpy()[0]
        np.testing.assert_array_equal(got[b], want, err_msg=str(b))
    # dynamic sides take the same path
    fn = tf.function(lambda x: sp.superpixels(x, (0.5, 1.0), (10, 30), max_size=32, interpolation=interpolation,
                                              probability=1.0, seed=tf.constant([5, 2], tf.int64)),
                     input_signature=[tf.TensorSpec([None, None, None, 3], tf.uint8)])
    np.testing.assert_array_equal(fn(images).numpy(), got)


def test_samples_left_alone_are_untouched_even_when_resized():
    images = np.stack([fixtures.photo(50, 50, 3, seed=s) for s in range(6)])
    out = sp.superpixels(images, (0.0, 0.0), (10, 10), max_size=20, probability=1.0, seed=1).numpy()
    np.testing.assert_array_equal(out, images)  # p = 0: no flag, no resize
    seed = tf.constant([2, 3], tf.int64)
    half = sp.superpixels(images, (1.0, 1.0), (10, 10), max_size=20, probability=0.5, seed=seed).numpy()
    _, flags = draws(6, [2, 3], (1.0, 1.0), (10, 10), 0.5)
    assert 0 < flags.any(axis=1).sum() < 6  # both kinds of sample present
    for b in range(6):
        assert np.array_equal(half[b], images[b]) == (not flags[b].any()), b


def test_layer_inference_config_and_targets():
    images = np.stack([fixtures.photo(40, 40, 3, seed=s) for s in range(2)])
    t = tga.Superpixels(p_replace=(0.5, 0.5), n_segments=(8, 8), max_size=None, probability=1.0, seed=3)
    assert not np.array_equal(t(images).numpy(), images)
    again = tga.Superpixels(**t.get_config())
    assert again.get_config() == t.get_config()
    assert tga.Superpixels.moves_targets is False
    np.testing.assert_array_equal(t(images, training=False), images)
    layer = tga.keras.Superpixels(probability=1.0, p_replace=(1.0, 1.0), seed=1)
    np.testing.assert_array_equal(layer(images, training=False), images)
    assert not np.array_equal(np.asarray(layer(images, training=True)), images)
    assert tga.Superpixels(p_replace=0.3, n_segments=50).get_config()["p_replace"] == (0.0, 0.3)
    assert tga.Superpixels(n_segments=50).get_config()["n_segments"] == (1, 50)


@pytest.mark.parametrize("kwargs, match", [
    (dict(p_replace=(0.5, 0.2)), "p_replace"),
    (dict(p_replace=1.5), "p_replace"),
    (dict(n_segments=(0, 10)), "n_segments"),
    (dict(n_segments=(5, 2)), "n_segments"),
    (dict(n_segments=10.0), "n_segments"),
    (dict(n_segments=(1, 1 << 21)), "n_segments"),
    (dict(max_size=0), "max_size"),
    (dict(interpolation="area"), "interpolation"),
    (dict(probability=1.5), "probability"),
])
def test_refusals(kwargs, match):
    with pytest.raises(ValueError, match=match):
        tga.Superpixels(**kwargs)
    with pytest.raises(ValueError, match=match):
        sp.superpixels(np.zeros((1, 8, 8, 3), np.uint8), **kwargs)


def test_op_refusals_and_empty_batches():
    with pytest.raises(TypeError, match="uint8"):
        sp.superpixels(np.zeros((1, 8, 8, 3), np.float32))
    with pytest.raises((tf.errors.InvalidArgumentError, ValueError)):
        sp.superpixels_op(np.zeros((2, 8, 8, 3), np.uint8), np.ones([3], np.int32), np.ones([2, 4], bool))
    with pytest.raises((tf.errors.InvalidArgumentError, ValueError)):
        sp.superpixels_op(np.zeros((2, 8, 8, 3), np.uint8), np.ones([2], np.int32), np.ones([2, 0], bool))
    empty = sp.superpixels_op(np.zeros((0, 8, 8, 3), np.uint8), np.ones([0], np.int32), np.ones([0, 4], bool))
    assert empty.shape == (0, 8, 8, 3)
    assert sp.superpixels(np.zeros((0, 300, 300, 3), np.uint8), probability=1.0, seed=1).shape == (0, 300, 300, 3)


def test_matches_albumentations_where_installed():
    """Albumentations' own superpixels, given the same draws: byte for byte without resizing; with
    its default max_size (128) on 224 x 224 photos, the resizes' fixed-point weights move a few
    pixels near segment edges into neighbouring segments."""
    fpixel = pytest.importorskip("albumentations.augmentations.pixel.functional")
    cv2 = pytest.importorskip("cv2")
    files = fixtures.shared_sample_files(6)
    if files:
        from PIL import Image
        photos = [np.asarray(Image.open(f).convert("RGB").resize((224, 224))) for f in files]
    else:
        photos = [fixtures.photo(224, 224, 3, seed=s) for s in range(6)]
    rng = np.random.default_rng(7)
    for i, image in enumerate(photos[:3]):
        n = int(rng.integers(20, 120))
        flags = rng.random(n) < 0.5
        small = cv2.resize(image, (96, 96), interpolation=cv2.INTER_AREA)
        want = fpixel.superpixels(small, n, flags, None, cv2.INTER_LINEAR)
        np.testing.assert_array_equal(run_op(small[np.newaxis], [n], flags[np.newaxis])[0], want, err_msg=str(i))
    far = []
    for image in photos:
        n = 100
        flags = rng.random(n) < 0.3
        want = fpixel.superpixels(image, n, flags, 128, cv2.INTER_LINEAR)
        small = sp._resized(tf.constant(image[np.newaxis]), 128, 128, True)
        got = sp._resized(sp.superpixels_op(small, [n], flags[np.newaxis]), 224, 224, True).numpy()[0]
        d = np.abs(got.astype(int) - want)
        far.append(np.mean(d > 1))
    print("bytes more than a level from Albumentations' (max_size 128):", far)
    assert max(far) < 0.02, far
