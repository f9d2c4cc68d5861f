"""The batched augment kernel against PIL (ImageOps, ImageEnhance, Image.transform) and
tf.image, and the policies' statistics.

Tolerances: point operations and ImageEnhance blends are exact (0 levels); affine ops
(rotate, shear, translate) within 1 level away from the image border, as bilinear
interpolation rounds differently; hue and saturation within 1 level of tf.image.
"""
import numpy as np
import pytest
import tensorflow as tf
from PIL import Image, ImageEnhance, ImageOps

import fixtures
import tfgpuaug as tga
from tfgpuaug.augment import ops

FILL = (128, 128, 128)


@pytest.fixture(scope="module")
def photos():
    files = fixtures.shared_sample_files(limit=3)
    imgs = [np.asarray(Image.open(f).convert("RGB").resize((96, 72))) for f in files]
    imgs += [fixtures.photo(72, 96, seed=s) for s in range(4 - len(imgs) if imgs else 4)]
    return np.stack(imgs)


def per_image(photos, fn):
    return np.stack([np.asarray(fn(Image.fromarray(i))) for i in photos])


EXACT = [
    ("auto_contrast", lambda x: ops.auto_contrast(x), ImageOps.autocontrast),
    ("equalize", lambda x: ops.equalize(x), ImageOps.equalize),
    ("invert", lambda x: ops.invert(x), ImageOps.invert),
    ("posterize", lambda x: ops.posterize(x, 3), lambda i: ImageOps.posterize(i, 3)),
    ("posterize0", lambda x: ops.posterize(x, 0), lambda i: Image.new("RGB", i.size)),  # 0 bits: black (PIL refuses 0)
    # fractional bits (RandAugment m=9 gives 6.8) round to the nearest, as torchvision's table
    ("posterize6.8", lambda x: ops.posterize(x, 6.8), lambda i: ImageOps.posterize(i, 7)),
    ("posterize6.2", lambda x: ops.posterize(x, 6.2), lambda i: ImageOps.posterize(i, 6)),
    ("solarize", lambda x: ops.solarize(x, 100), lambda i: ImageOps.solarize(i, 100)),
    ("grayscale", lambda x: ops.grayscale(x), lambda i: i.convert("L").convert("RGB")),
] + [
    (f"{name}{f}", (lambda n, f: lambda x: getattr(ops, n)(x, f))(name, f),
     (lambda e, f: lambda i: e(i).enhance(f))(enh, f))
    for name, enh in [("color", ImageEnhance.Color), ("contrast", ImageEnhance.Contrast),
                      ("brightness", ImageEnhance.Brightness), ("sharpness", ImageEnhance.Sharpness)]
    for f in (0.1, 0.55, 1.0, 1.9)
]


@pytest.mark.parametrize("name,ours,pil", EXACT, ids=[e[0] for e in EXACT])
def test_point_and_enhance_ops_equal_pil(photos, name, ours, pil):
    np.testing.assert_array_equal(ours(photos).numpy(), per_image(photos, pil))


def pil_affine(m):
    return lambda i: i.transform(i.size, Image.AFFINE, m, resample=Image.BILINEAR, fillcolor=FILL)


AFFINE = [
    ("rotate17", lambda x: ops.rotate(x, 17.0), lambda i: i.rotate(17.0, resample=Image.BILINEAR, fillcolor=FILL)),
    ("rotate-30", lambda x: ops.rotate(x, -30.0), lambda i: i.rotate(-30.0, resample=Image.BILINEAR, fillcolor=FILL)),
    ("rotate135", lambda x: ops.rotate(x, 135.0), lambda i: i.rotate(135.0, resample=Image.BILINEAR, fillcolor=FILL)),
    ("shear_x", lambda x: ops.shear_x(x, 0.3), pil_affine((1, 0.3, 0, 0, 1, 0))),
    ("shear_y", lambda x: ops.shear_y(x, -0.25), pil_affine((1, 0, 0, -0.25, 1, 0))),
    ("translate_x", lambda x: ops.translate_x(x, 13.5), pil_affine((1, 0, 13.5, 0, 1, 0))),
    ("translate_y", lambda x: ops.translate_y(x, -20), pil_affine((1, 0, 0, 0, 1, -20))),
]


@pytest.mark.parametrize("name,ours,pil", AFFINE, ids=[a[0] for a in AFFINE])
def test_affine_ops_within_one_level_of_pil(photos, name, ours, pil):
    got = ours(photos).numpy().astype(int)
    ref = per_image(photos, pil).astype(int)
    assert np.abs(got - ref)[:, 1:-1, 1:-1].max() <= 1
    assert np.mean(np.abs(got - ref) > 1) < 0.01  # border decisions within float error


def test_nearest_interpolation_and_fill(photos):
    got = ops.rotate(photos, 30.0, fill_value=0, interpolation="nearest").numpy().astype(int)
    ref = per_image(photos, lambda i: i.rotate(30.0, resample=Image.NEAREST, fillcolor=(0, 0, 0)))
    # Exact (measured: 0 pixels differ); a 1% allowance would hide a misplaced row or column.
    np.testing.assert_array_equal(got, ref)


def test_solarize_add_and_cutout(photos):
    got = ops.solarize_add(photos, 40).numpy().astype(int)
    x = photos.astype(int)
    np.testing.assert_array_equal(got, np.where(x < 128, np.minimum(x + 40, 255), x))
    # additions far outside int's range saturate, NaN adds nothing (once an undefined cast)
    np.testing.assert_array_equal(ops.solarize_add(photos, 1e30).numpy(), np.where(x < 128, 255, x))
    np.testing.assert_array_equal(ops.solarize_add(photos, -1e30).numpy(), np.where(x < 128, 0, x))
    np.testing.assert_array_equal(ops.solarize_add(photos, float("nan")).numpy(), photos)
    centers = np.array([[0.5, 0.5], [0.0, 0.0], [1.0, 1.0], [0.25, 0.75]], np.float32)[: len(photos)]
    out = ops.cutout(photos, 20, centers=centers, fill_value=7).numpy()
    for img, o, (cy, cx) in zip(photos, out, centers):
        ys, xs = np.mgrid[0:72, 0:96] + 0.5
        inside = (np.abs(ys - cy * 72) <= 10) & (ys < cy * 72 + 10) & (np.abs(xs - cx * 96) <= 10) & (xs < cx * 96 + 10)
        np.testing.assert_array_equal(o[inside], 7)
        np.testing.assert_array_equal(o[~inside], img[~inside])


@pytest.mark.parametrize("size", [1.0, 7.5, 33.0, 500.0])
def test_cutout_square_matches_float32_reference(photos, size):
    # The same float32 comparisons as the kernel: pixel centre against centre -+ half side.
    centers = np.random.default_rng(int(size)).uniform(-0.1, 1.1, (len(photos), 2)).astype(np.float32)
    out = ops.cutout(photos, size, centers=centers, fill_value=200).numpy()
    h, w = photos.shape[1:3]
    half = np.float32(0.5) * np.float32(size)
    for img, o, (cy, cx) in zip(photos, out, centers):
        cy, cx = cy * np.float32(h), cx * np.float32(w)
        ys = np.arange(h, dtype=np.float32) + np.float32(0.5)
        xs = np.arange(w, dtype=np.float32) + np.float32(0.5)
        inside = (((ys >= cy - half) & (ys < cy + half))[:, None] &
                  ((xs >= cx - half) & (xs < cx + half))[None, :])
        np.testing.assert_array_equal(o[inside], 200)
        np.testing.assert_array_equal(o[~inside], img[~inside])


def _blur_reference(img: np.ndarray, sigma: float) -> np.ndarray:
    """Separable Gaussian convolution in float64 with numpy's reflect (101) padding."""
    r = min(int(np.ceil(3 * sigma)), 16)
    w = np.exp(-np.arange(-r, r + 1) ** 2 / (2 * sigma**2))
    w /= w.sum()
    x = np.pad(img.astype(np.float64), ((r, r), (r, r), (0, 0)), mode="reflect")
    x = sum(w[t] * x[:, t:t + img.shape[1]] for t in range(2 * r + 1))
    x = sum(w[t] * x[t:t + img.shape[0]] for t in range(2 * r + 1))
    return np.clip(np.floor(x + 0.5), 0, 255)


@pytest.mark.parametrize("sigma", [0.3, 1.0, 2.5, 7.0])
def test_gaussian_blur_against_numpy_reference(photos, sigma):
    got = ops.gaussian_blur(photos, sigma).numpy().astype(int)
    for g, img in zip(got, photos):
        ref = _blur_reference(img, sigma)
        # float32 sums against float64: a value within rounding of .5 may land one level off.
        assert np.abs(g - ref).max() <= 1
        assert np.mean(g != ref) < 0.01
    assert (got != photos).any()


def test_gaussian_blur_per_sample_sigma_tiny_images_and_identity():
    imgs = np.stack([fixtures.photo(5, 3, seed=s) for s in range(3)])
    got = ops.gaussian_blur(imgs, [0.0, 1.0, 4.0]).numpy().astype(int)
    np.testing.assert_array_equal(got[0], imgs[0])  # sigma 0: unchanged
    for g, img, sigma in zip(got[1:], imgs[1:], [1.0, 4.0]):  # radius beyond the image: reflected again
        assert np.abs(g - _blur_reference(img, sigma)).max() <= 1
    one = np.full((2, 1, 1, 3), 77, np.uint8)
    np.testing.assert_array_equal(ops.gaussian_blur(one, 2.0).numpy(), one)


def test_hue_and_saturation_within_one_level_of_tf_image(photos):
    assert np.abs(ops.hue(photos, 0.2).numpy().astype(int) - tf.image.adjust_hue(photos, 0.2).numpy()).max() <= 1
    assert np.abs(ops.saturation(photos, 1.7).numpy().astype(int)
                  - tf.image.adjust_saturation(photos, 1.7).numpy()).max() <= 1


def test_gaussian_noise_statistics_and_determinism():
    flat = np.full((2, 64, 64, 3), 128, np.uint8)
    a = ops.gaussian_noise(flat, 10.0, seed=1).numpy().astype(float)
    b = ops.gaussian_noise(flat, 10.0, seed=1).numpy()
    np.testing.assert_array_equal(a, b)
    noise = a - 128
    assert abs(noise.mean()) < 0.3 and 9.5 < noise.std() < 10.5  # 24576 samples
    assert (ops.gaussian_noise(flat, 10.0, seed=2).numpy() != b).any()


def test_per_sample_parameters_and_stages_compose(photos):
    degrees = np.array([0.0, 10.0, -20.0, 45.0], np.float32)[: len(photos)]
    batch = ops.rotate(photos, degrees).numpy()
    for i, d in enumerate(degrees):
        np.testing.assert_array_equal(batch[i], ops.rotate(photos[i:i + 1], float(d)).numpy()[0])
    n = len(photos)
    ids = np.tile(np.array([[ops.OP_IDS["equalize"], ops.OP_IDS["rotate"], ops.OP_IDS["posterize"]]]), (n, 1))
    mags = np.tile(np.array([[0.0, 25.0, 4.0]], np.float32), (n, 1))
    staged = ops.apply_stages(photos, ids, mags).numpy()
    one_by_one = ops.posterize(ops.rotate(ops.equalize(photos), 25.0), 4).numpy()
    np.testing.assert_array_equal(staged, one_by_one)


@pytest.mark.parametrize("channels", [1, 4])
def test_gray_and_rgba_inputs(channels):
    x = fixtures.photo(40, 50, channels=channels)[None]
    got = ops.equalize(x).numpy()[0]
    if channels == 1:
        ref = np.asarray(ImageOps.equalize(Image.fromarray(x[0, ..., 0], "L")))[..., None]
    else:  # point ops treat alpha as one more channel; PIL has no RGBA equalize
        ref = np.concatenate([np.asarray(ImageOps.equalize(Image.fromarray(x[0, ..., :3]))),
                              np.asarray(ImageOps.equalize(Image.fromarray(x[0, ..., 3], "L")))[..., None]], -1)
    np.testing.assert_array_equal(got, ref)
    assert ops.color(x, 0.3).shape == x.shape and ops.rotate(x, 10.0).shape == x.shape


def chi_square(counts, expected):
    return float(((counts - expected) ** 2 / expected).sum())


def test_rand_augment_op_frequencies_and_magnitudes():
    n = 3000
    x = np.zeros((n, 8, 8, 3), np.uint8)
    _, op_ids, params = tga.augment.rand_augment(x, num_ops=2, magnitude=9, seed=3, return_plan=True)
    op_ids, params = op_ids.numpy(), params.numpy()
    names = tga.augment.RAND_AUGMENT_OPS
    counts = np.array([(op_ids == ops.OP_IDS[name]).sum() for name in names], float)
    # 14 equally likely ops, 6000 draws: chi-square with 13 dof, p = 0.001 bound 34.5.
    assert chi_square(counts, np.full(len(names), 2 * n / len(names))) < 34.5
    rot = params[op_ids == ops.OP_IDS["rotate"]]
    np.testing.assert_allclose(np.abs(rot), 30.0 * 9 / 30, rtol=1e-6)
    assert 0.4 < np.mean(rot > 0) < 0.6  # random sign
    post = params[op_ids == ops.OP_IDS["posterize"]]
    np.testing.assert_allclose(post, 8 - 4 * 9 / 30, rtol=1e-6)
    sol = params[op_ids == ops.OP_IDS["solarize"]]
    np.testing.assert_allclose(sol, 256 - 256 * 9 / 30, rtol=1e-6)
    tx = params[op_ids == ops.OP_IDS["translate_x"]]
    np.testing.assert_allclose(np.abs(tx), 100 / 224 * 8 * 9 / 30, rtol=1e-5)  # relative to width
    bright = params[op_ids == ops.OP_IDS["brightness"]]
    np.testing.assert_allclose(np.sort(np.unique(np.round(bright, 5))), [1 - 0.27, 1 + 0.27], rtol=1e-5)


def _bins_on_grid(params, aug, num_bins):
    """Magnitude bins of the parameters an Augmentation produced; asserts the exact grid."""
    low, high = aug.magnitude_range
    value = np.abs(params - aug.center) if aug.signed else params - aug.center
    bins = (value - low) / (high - low) * (num_bins - 1)
    np.testing.assert_allclose(bins, np.round(bins), atol=2e-4)
    return np.round(bins).astype(int)


def test_trivial_augment_uniform_bins_on_the_exact_grid():
    """Every ranged op's parameters lie on WIDE's 31-bin grid, every bin is drawn, and the bins
    are uniform (pooled over ops: ~7000 draws). Mutants checked against: a 30-bin grid
    (params off the grid), a top bin never drawn (coverage and chi-square fail), magnitude
    drawn once per batch (chi-square fails)."""
    n = 9000
    x = np.zeros((n, 8, 8, 3), np.uint8)
    _, op_ids, params = tga.augment.trivial_augment(x, seed=9, return_plan=True)
    op_ids, params = op_ids.numpy()[:, 0], params.numpy()[:, 0]
    pooled = []
    for name in tga.augment.TRIVIAL_AUGMENT_OPS:
        aug = tga.augment.WIDE[name]
        if aug.magnitude_range[0] == aug.magnitude_range[1]:
            continue
        pooled.append(_bins_on_grid(params[op_ids == ops.OP_IDS[name]], aug, 31))
    counts = np.bincount(np.concatenate(pooled), minlength=31).astype(float)
    assert len(counts) == 31 and (counts > 0).all()
    assert chi_square(counts, np.full(31, counts.sum() / 31)) < 59.7  # 30 dof, p = 0.001
    rot = np.abs(params[op_ids == ops.OP_IDS["rotate"]])
    assert np.isclose(rot.max(), 135.0) and rot.min() == 0.0


def test_rand_augment_every_op_at_its_magnitude_and_stages_drawn_jointly():
    """Each op's parameter is STANDARD's value at bin 9 (sign random where signed), and the two
    stages' ops are independent: the 14 x 14 pairs are uniform. Mutant checked against: both
    stages drawing the same op (every pair on the diagonal)."""
    n = 6000
    x = np.zeros((n, 8, 8, 3), np.uint8)
    _, op_ids, params = tga.augment.rand_augment(x, num_ops=2, magnitude=9, seed=11, return_plan=True)
    op_ids, params = op_ids.numpy(), params.numpy()
    names = tga.augment.RAND_AUGMENT_OPS
    index = {ops.OP_IDS[name]: i for i, name in enumerate(names)}
    for name in names:
        aug = tga.augment.STANDARD[name]
        if aug.magnitude_range[0] == aug.magnitude_range[1] or aug.relative:
            continue
        assert (_bins_on_grid(params[op_ids == ops.OP_IDS[name]], aug, 31) == 9).all(), name
    pairs = np.array([[index[a], index[b]] for a, b in op_ids])
    counts = np.zeros((14, 14))
    np.add.at(counts, (pairs[:, 0], pairs[:, 1]), 1)
    assert chi_square(counts.ravel(), np.full(196, n / 196)) < 261.8  # 195 dof, p = 0.001
    assert np.trace(counts) < 3 * n / 14  # same op twice only ~1/14 of the time


def test_auto_augment_probabilities():
    n = 6000
    x = np.zeros((n, 8, 8, 3), np.uint8)
    _, op_ids, params = tga.augment.auto_augment(x, "reduced_imagenet", seed=4, return_plan=True)
    op_ids = op_ids.numpy()
    # Expected frequency of each op over sub-policies chosen uniformly, times its probability.
    from tfgpuaug.augment.auto_augment_policies import REDUCED_IMAGENET
    expected = {}
    for sub in REDUCED_IMAGENET:
        for name, p, _ in sub:
            expected[name] = expected.get(name, 0.0) + p / len(REDUCED_IMAGENET) * n
    names = sorted(k for k in expected if k != "identity")
    counts = np.array([(op_ids == ops.OP_IDS[k]).sum() for k in names], float)
    exp = np.array([expected[k] for k in names])
    assert chi_square(counts, exp) < 32.9  # <= 11 dof, p = 0.001
    post = params.numpy()[op_ids == ops.OP_IDS["posterize"]]
    assert set(np.unique(post)) <= {2.0, 3.0}  # int(m / 10 * 4) bits for m in 5..8


def test_policies_are_stateless(photos):
    a = tga.augment.rand_augment(photos, seed=[1, 2]).numpy()
    np.testing.assert_array_equal(a, tga.augment.rand_augment(photos, seed=[1, 2]).numpy())
    assert (a != tga.augment.rand_augment(photos, seed=[1, 3]).numpy()).any()
    t = tga.RandAugment(seed=0)
    first = t(photos).numpy()
    assert (t(photos).numpy() != first).any()  # next batch differs
    np.testing.assert_array_equal(tga.RandAugment(seed=0)(photos).numpy(), first)


def test_custom_augmentation_runs_on_its_samples(photos):
    flip = tga.augment.Augmentation("my_flip", fn=lambda im, p: tf.reverse(im, [2]))
    out, op_ids, _ = tga.augment.rand_augment(photos, num_ops=1, augmentations=["invert", flip],
                                              seed=2, return_plan=True)
    out, op_ids = out.numpy(), op_ids.numpy()[:, 0]
    for img, o, op in zip(photos, out, op_ids):
        np.testing.assert_array_equal(o, img[:, ::-1] if op == -1 else 255 - img)


def test_random_choice_and_apply(photos):
    x = np.repeat(photos[:1], 200, axis=0)
    out = tga.random_choice(x, [ops.invert, lambda b: b], probs=[0.3, 0.7], seed=5).numpy()
    inverted = (out == 255 - x).all(axis=(1, 2, 3))
    untouched = (out == x).all(axis=(1, 2, 3))
    assert (inverted | untouched).all() and 0.2 < inverted.mean() < 0.4
    out = tga.random_apply(x, ops.invert, p=0.0, seed=1).numpy()
    np.testing.assert_array_equal(out, x)


def _partners_and_weights(mixed_labels):
    """(partner, own weight) per sample from one-hot labels mixed with one partner each."""
    own = np.diag(mixed_labels).copy()
    others = mixed_labels - np.diag(own)
    partner = np.where(others.max(1) > 0, others.argmax(1), np.arange(len(own)))
    return partner, own


def test_mixup_mixes_pixels_and_labels_with_real_partners():
    """Mutants checked against: a mixup that returns its inputs (no real partners), one that
    mixes labels but not pixels, one that pairs pixels with another partner than the labels."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 256, (16, 12, 10, 3)).astype(np.float32)
    labels = tf.one_hot(np.arange(16), 16)
    imgs, mixed = tga.augment.mixup(x, labels, alpha=0.4, seed=3)
    partner, lam = _partners_and_weights(mixed.numpy())
    assert (partner != np.arange(16)).sum() >= 12  # real partners
    assert np.sort(partner).tolist() == list(range(16))  # a permutation
    lam = lam.astype(np.float32)[:, None, None, None]
    np.testing.assert_allclose(imgs.numpy(), lam * x + (1 - lam) * x[partner], rtol=1e-5, atol=1e-3)
    np.testing.assert_allclose(mixed.numpy().sum(1), 1.0, rtol=1e-5)
    u8, _ = tga.augment.mixup(x.astype(np.uint8), labels, alpha=0.4, seed=3)  # same draws
    expected = np.clip(np.round(lam * x + (1 - lam) * x[partner]), 0, 255)
    assert np.abs(u8.numpy() - expected).max() <= 1 and (u8.numpy() == expected).mean() > 0.999


def test_cutmix_pastes_one_rectangle_and_weights_labels_by_its_area():
    """Mutants checked against: labels weighted by lam instead of the pasted area, a pasted
    region that is not the partner's pixels, no real partners."""
    rng = np.random.default_rng(1)
    x = rng.integers(0, 256, (16, 24, 32, 3)).astype(np.uint8)
    labels = tf.one_hot(np.arange(16), 16)
    imgs, mixed = tga.augment.cutmix(x, labels, alpha=1.0, seed=5)
    imgs = imgs.numpy()
    partner, own = _partners_and_weights(mixed.numpy())
    assert (partner != np.arange(16)).sum() >= 12
    for i in range(16):
        pasted = (imgs[i] != x[i]).any(-1)
        if partner[i] != i and pasted.any():
            ys, xs = np.nonzero(pasted)
            box = np.zeros_like(pasted)
            box[ys.min():ys.max() + 1, xs.min():xs.max() + 1] = True
            np.testing.assert_array_equal(pasted, box)  # one rectangle
            np.testing.assert_array_equal(imgs[i][box], x[partner[i]][box])
        np.testing.assert_allclose(own[i], 1 - pasted.mean(), atol=1e-6)


@pytest.mark.parametrize("call,error,words", [
    (lambda x: tga.augment.rand_augment(x, magnitude=31, seed=1), ValueError, "magnitude"),
    (lambda x: tga.augment.rand_augment(x, num_ops=-1, seed=1), ValueError, "num_ops"),
    (lambda x: tga.augment.auto_augment(x, "cifar100", seed=1), ValueError, "unknown policy"),
    (lambda x: tga.augment.rand_augment(x, augmentations=["zoom"], seed=1), ValueError, "unknown augmentation"),
    (lambda x: tga.augment.rand_augment(tf.cast(x, tf.float32), seed=1), TypeError, "uint8"),
    (lambda x: tga.augment.rand_augment(x), ValueError, "seed"),
    (lambda x: ops.rotate(x, 10.0, interpolation="cubic"), ValueError, "interpolation"),
    (lambda x: tga.random_choice(x, [ops.invert], probs=[0.5]), ValueError, "probs"),
    (lambda x: tga.augment.mixup(x, tf.zeros([4, 3], tf.int32), seed=1), TypeError, "float"),
])
def test_bad_arguments(photos, call, error, words):
    with pytest.raises(error, match=words):
        call(tf.constant(photos))


def test_unknown_op_id_is_invalid_argument(photos):
    with pytest.raises(tf.errors.InvalidArgumentError, match="unknown augmentation op id 99"):
        ops.apply_stages(photos, np.full((len(photos), 1), 99), np.zeros((len(photos), 1))).numpy()


def test_op_ids_come_from_the_library_table():
    """OP_IDS is read from the op library (cc/kernels/augment/augment.h's one X-macro table), so it
    cannot drift from the enum: the kernel applies `invert` under OP_IDS['invert'], and
    every name the registry uses is in it. Mutant checked against: a hand-written OP_IDS with
    two ids swapped (the invert check fails)."""
    names = tga._loader.ops().tf_gpu_aug_augment_op_names().numpy()
    assert [n.decode() for n in names] == sorted(ops.OP_IDS, key=ops.OP_IDS.get)
    assert len(set(ops.OP_IDS.values())) == len(ops.OP_IDS) == len(names)
    x = np.arange(2 * 4 * 4 * 3, dtype=np.uint8).reshape(2, 4, 4, 3)
    ids = tf.fill([2, 1], ops.OP_IDS["invert"])
    out = ops.apply_stages(x, ids, tf.zeros([2, 1]), None, 128.0, "bilinear").numpy()
    np.testing.assert_array_equal(out, 255 - x)
    assert set(tga.augment.STANDARD) <= set(ops.OP_IDS) and set(tga.augment.WIDE) <= set(ops.OP_IDS)


# Gamma, channel shuffle and RGB shift (issue 36's first pixel-level additions), each against
# its definition in numpy, exactly, per sample, on 1, 3 and 4 channels.
@pytest.mark.parametrize("g", [0.5, 0.8, 1.0, 1.2, 2.2])
def test_gamma_is_the_rounded_power_curve_per_sample(photos, g):
    expected = np.floor(255.0 * (photos / 255.0) ** g + 0.5).astype(np.uint8)
    np.testing.assert_array_equal(ops.gamma(photos, g).numpy(), expected)
    # Albumentations' RandomGamma table (truncated, not rounded): at most one level apart.
    truncated = ((np.arange(0, 256.0 / 255, 1.0 / 255) ** g) * 255).astype(np.uint8)[photos]
    assert np.abs(expected.astype(int) - truncated).max() <= 1
    per_sample = ops.gamma(photos, [g, 1.0, 0.0, g][:len(photos)]).numpy()
    np.testing.assert_array_equal(per_sample[0], expected[0])
    np.testing.assert_array_equal(per_sample[1:3], photos[1:3])  # 1 and "no exponent" keep the image


ORDERS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]


def test_channel_shuffle_takes_each_of_the_six_orders():
    rng = np.random.default_rng(3)
    rgba = rng.integers(0, 256, [6, 5, 7, 4]).astype(np.uint8)
    got = ops.channel_shuffle(rgba, np.arange(6)).numpy()
    for i, order in enumerate(ORDERS):
        np.testing.assert_array_equal(got[i, ..., :3], rgba[i][..., list(order)])  # albumentations' img[..., order]
    np.testing.assert_array_equal(got[..., 3], rgba[..., 3])  # alpha kept
    np.testing.assert_array_equal(ops.channel_shuffle(rgba, 11).numpy()[..., :3], rgba[..., [2, 1, 0]])  # mod 6
    gray = rng.integers(0, 256, [2, 4, 4, 1]).astype(np.uint8)
    np.testing.assert_array_equal(ops.channel_shuffle(gray, 5).numpy(), gray)


def test_rgb_shift_adds_rounded_shifts_per_channel_saturating(photos):
    shifts = np.array([[30, -40, 0], [-255, 255, 7.4], [0.5, -0.5, 2.6], [100, 100, -100]], np.float32)[:len(photos)]
    got = ops.rgb_shift(photos, shifts).numpy()
    rounded = np.floor(shifts + 0.5)
    expected = np.clip(photos.astype(np.float32) + rounded[:, None, None, :], 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(got, expected)
    rgba = np.concatenate([photos, np.full(photos.shape[:3] + (1,), 9, np.uint8)], -1)
    np.testing.assert_array_equal(ops.rgb_shift(rgba, [10, 20, 30]).numpy()[..., 3], 9)


def test_gamma_is_in_the_registry_for_policies():
    aug = tga.augment.STANDARD["gamma"]
    params = aug.parameter(tf.constant([0.0, 30.0]), 31, tf.constant([False, True]), 1.0, 1.0).numpy()
    np.testing.assert_allclose(params, [1.0, 0.5])


def test_rand_augment_draws_the_extended_registry_per_sample():
    """EXTENDED_OPS (the papers' 14 and the 18 pixel-level ops of issue 36) are all policy
    entries, and RandAugment over them draws each op for some samples, two a sample, each
    sample its own: a name missing from the table would fail at construction, an op never drawn
    would show as a zero count (256 samples x 2 draws of 32 ops: about 16 each)."""
    ext = tga.augment.EXTENDED_OPS
    assert len(ext) == len(set(ext)) == len(tga.augment.RAND_AUGMENT_OPS) + len(tga.augment.PIXEL_LEVEL_OPS)
    assert set(ext) <= set(tga.augment.STANDARD)
    x = np.random.default_rng(2).integers(0, 256, [256, 12, 12, 3]).astype(np.uint8)
    out, op_ids, _ = tga.augment.rand_augment(x, num_ops=2, magnitude=9, augmentations=ext, seed=4, return_plan=True)
    assert out.shape == x.shape and out.dtype == tf.uint8
    drawn = op_ids.numpy()
    counts = {name: int((drawn == ops.OP_IDS[name]).sum()) for name in ext}
    assert min(counts.values()) >= 3, counts
    assert len({tuple(row) for row in drawn}) > 200  # per-sample draws, not one plan for the batch


def test_random_photometric_transforms_draw_per_sample_and_match_their_ops():
    """Each sample either keeps its pixels or equals the op at the parameter the plan says it
    drew; draws stay in range, differ between samples, and repeat for the same seed."""
    from tfgpuaug.augment import photometric
    rng = np.random.default_rng(5)
    x = rng.integers(0, 256, [32, 6, 7, 3]).astype(np.uint8)
    cases = [(photometric.random_gamma, dict(gamma=(0.5, 2.0), probability=0.5), "gamma", (0.5, 2.0)),
             (photometric.channel_shuffle, dict(probability=0.5), "channel_shuffle", (0, 5)),
             (photometric.rgb_shift, dict(shift=40, probability=0.5), "rgb_shift", (-40, 40)),
             (photometric.random_gaussian_blur, dict(sigma=(0.3, 3.0), probability=0.5), "gaussian_blur", (0.3, 3.0)),
             (photometric.to_gray, dict(probability=0.5), "grayscale", (0, 0))]
    for fn, args, name, (low, high) in cases:
        out, op_ids, params = fn(x, seed=7, return_plan=True, **args)
        out, op_ids, params = out.numpy(), op_ids.numpy()[:, 0], params.numpy()[:, 0]
        applied = op_ids == ops.OP_IDS[name]
        assert 5 <= applied.sum() <= 27, (name, applied.sum())  # p = 0.5 of 32
        np.testing.assert_array_equal(out[~applied], x[~applied])
        assert np.all((params[applied] >= low) & (params[applied] <= high))
        assert len(set(params[applied])) > 1 or name == "grayscale"
        if name != "rgb_shift":  # its green and blue shifts are in the aux plane, checked below
            single = ops.apply_stages(x[applied], op_ids[applied][:, None], params[applied][:, None]).numpy()
            np.testing.assert_array_equal(out[applied], single)
        np.testing.assert_array_equal(fn(x, seed=7, **args).numpy(), out)
    shifted, _, _ = photometric.rgb_shift(x, shift=((10, 10), (-20, -20), (0, 0)), probability=1.0, seed=1,
                                          return_plan=True)
    np.testing.assert_array_equal(shifted.numpy(), np.clip(x.astype(int) + [10, -20, 0], 0, 255))


def test_random_photometric_transforms_refuse_bad_arguments():
    with pytest.raises(ValueError, match=r"gamma_limit=\(80, 120\) is gamma=\(0.8, 1.2\)"):
        tga.RandomGamma(gamma=(0.0, 1.2))
    with pytest.raises(ValueError, match="probability"):
        tga.ChannelShuffle(probability=1.5)
    with pytest.raises(ValueError, match="within \\[-255, 255\\]"):
        tga.RGBShift(shift=300)
    assert tga.RGBShift(shift=(5, 10, 15)).shift == ((-5.0, 5.0), (-10.0, 10.0), (-15.0, 15.0))


def test_random_gaussian_noise_draws_a_deviation_and_a_stream_per_sample():
    """The added noise of a drawn sample has about the deviation it drew (saturation aside: mid-grey
    input), samples not drawn are unchanged, and two samples with equal deviations differ."""
    from tfgpuaug.augment import photometric
    x = np.full([16, 64, 64, 3], 128, np.uint8)
    out, op_ids, params = photometric.random_gaussian_noise(x, std=(4.0, 20.0), probability=0.5, seed=3,
                                                            return_plan=True)
    out, applied, params = out.numpy().astype(float), op_ids.numpy()[:, 0] == ops.OP_IDS["gaussian_noise"], \
        params.numpy()[:, 0]
    assert 2 <= applied.sum() <= 14
    np.testing.assert_array_equal(out[~applied], 128)
    for i in np.flatnonzero(applied):
        assert abs((out[i] - 128).std() - params[i]) < 0.1 * params[i] + 0.5, (params[i], (out[i] - 128).std())
    assert len({out[i].tobytes() for i in np.flatnonzero(applied)}) == applied.sum()
    with pytest.raises(ValueError, match="std must be"):
        tga.GaussNoise(std=(10.0, 300.0))
    with pytest.raises(ValueError, match="sigma must be"):
        tga.GaussianBlur(sigma=(0.0, 1.0))


def test_channel_shuffle_parameters_that_cannot_be_an_order_keep_the_image():
    """NaN, infinite or huge permutation indices were cast to int unchecked (undefined
    behaviour; the UBSan lane aborts on it): they mean order 0, the identity."""
    x = np.random.default_rng(1).integers(0, 256, [3, 4, 5, 3]).astype(np.uint8)
    got = ops.channel_shuffle(x, [np.nan, np.inf, -3e9]).numpy()
    np.testing.assert_array_equal(got, x)


# Sharpen, emboss, median and motion blur (issue 36's second slice), each against its
# definition in numpy (Albumentations' Sharpen/Emboss matrices with OpenCV's default
# reflect-101 border; OpenCV medianBlur's replicated border), per sample, 1, 3 and 4 channels.
def _conv3x3(img: np.ndarray, w: np.ndarray) -> np.ndarray:
    pad = np.pad(img.astype(np.float64), ((1, 1), (1, 1), (0, 0)), mode="reflect")  # reflect-101
    h, wd = img.shape[:2]
    acc = sum(w[dy, dx] * pad[dy:dy + h, dx:dx + wd] for dy in range(3) for dx in range(3))
    return np.rint(np.clip(acc, 0, 255)).astype(np.uint8)  # half to even, as OpenCV's filter2D


def _sharpen_matrix(alpha, lightness):
    effect = np.array([[-1, -1, -1], [-1, 8 + lightness, -1], [-1, -1, -1]], np.float64)
    return (1 - alpha) * np.eye(3)[1][:, None] * np.eye(3)[1][None, :] + alpha * effect


def _emboss_matrix(alpha, s):
    effect = np.array([[-1 - s, -s, 0], [-s, 1, s], [0, s, 1 + s]], np.float64)
    return (1 - alpha) * np.eye(3)[1][:, None] * np.eye(3)[1][None, :] + alpha * effect


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_sharpen_and_emboss_are_albumentations_matrices(photos, channels):
    imgs = np.ascontiguousarray(np.concatenate([photos, photos], -1)[..., :channels])
    alphas, amounts = [0.2, 0.5, 1.0, 0.0][:len(imgs)], [0.5, 1.0, 1.5, 1.2][:len(imgs)]
    sharp = ops.sharpen(imgs, alphas, amounts).numpy()
    emb = ops.emboss(imgs, alphas, [0.2, 0.7, 1.2, 0.5][:len(imgs)]).numpy()
    for i, img in enumerate(imgs):
        for got, want in ((sharp[i], _conv3x3(img, _sharpen_matrix(alphas[i], amounts[i]))),
                          (emb[i], _conv3x3(img, _emboss_matrix(alphas[i], [0.2, 0.7, 1.2, 0.5][i])))):
            diff = np.abs(got.astype(int) - want)
            # float32 sums against float64: a sum on a half level (weights like -0.2) can land on
            # either side of it: one level at most, rarely
            assert diff.max() <= 1 and diff.mean() < 0.05, (i, diff.max(), diff.mean())
    np.testing.assert_array_equal(ops.sharpen(imgs, 0.0).numpy(), imgs)  # alpha 0 is the identity
    np.testing.assert_array_equal(ops.sharpen(imgs, float("nan")).numpy(), imgs)  # NaN alpha means 0


def _median_reference(img: np.ndarray, side: int) -> np.ndarray:
    r = side // 2
    pad = np.pad(img, ((r, r), (r, r), (0, 0)), mode="edge")
    h, w = img.shape[:2]
    windows = np.stack([pad[dy:dy + h, dx:dx + w] for dy in range(side) for dx in range(side)])
    return np.median(windows, axis=0).astype(np.uint8)


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_median_blur_is_the_window_median(photos, channels):
    imgs = np.ascontiguousarray(np.concatenate([photos, photos], -1)[..., :channels])
    sizes = [3, 5, 7, 1][:len(imgs)]
    got = ops.median_blur(imgs, sizes).numpy()
    for i, img in enumerate(imgs):
        want = img if sizes[i] < 2 else _median_reference(img, sizes[i])
        np.testing.assert_array_equal(got[i], want)
    np.testing.assert_array_equal(ops.median_blur(imgs, 4).numpy(), ops.median_blur(imgs, 5).numpy())
    np.testing.assert_array_equal(ops.median_blur(imgs, 99).numpy(), ops.median_blur(imgs, 7).numpy())
    np.testing.assert_array_equal(ops.median_blur(imgs, float("nan")).numpy(), imgs)


def _motion_reference(img: np.ndarray, length: int, angle: float) -> np.ndarray:
    turn = 1.0 - (angle % 360.0) / 360.0
    a = np.float32(turn) * np.float32(2 * np.pi)
    dy, dx = np.sin(a, dtype=np.float32), np.cos(a, dtype=np.float32)
    h, w = img.shape[:2]
    total = np.zeros(img.shape, np.int64)
    ys, xs = np.arange(h)[:, None], np.arange(w)[None, :]

    def reflect(i, n):
        period = 2 * (n - 1)
        i = np.mod(i, period)
        return np.where(i < n, i, period - i)
    for i in range(length):
        t = np.float32(i - 0.5 * (length - 1))
        oy, ox = int(np.floor(t * dy + 0.5)), int(np.floor(t * dx + 0.5))
        total += img[reflect(ys + oy, h), reflect(xs + ox, w)]
    return ((2 * total + length) // (2 * length)).astype(np.uint8)


def test_motion_blur_is_the_mean_along_the_line(photos):
    lengths, angles = [3, 7, 15, 9][:len(photos)], [0.0, 45.0, 90.0, 200.0][:len(photos)]
    got = ops.motion_blur(photos, lengths, angles).numpy()
    for i, img in enumerate(photos):
        np.testing.assert_array_equal(got[i], _motion_reference(img, lengths[i], angles[i]))
    # horizontal blur leaves a horizontally constant image alone; a vertical one does not
    rows = np.arange(0, 240, 10, dtype=np.uint8)[:, None, None]  # each row one level
    stripes = np.ascontiguousarray(np.broadcast_to(rows, (24, 24, 3))[None])
    np.testing.assert_array_equal(ops.motion_blur(stripes, 9, 0.0).numpy(), stripes)
    assert (ops.motion_blur(stripes, 9, 90.0).numpy() != stripes).any()


def test_pca_lighting_shifts_along_imagenets_principal_axes(photos):
    from tfgpuaug.augment.photometric import IMAGENET_EIGENVALUES, IMAGENET_EIGENVECTORS
    flat = np.full((256, 4, 4, 3), 128, np.uint8)
    out = tga.augment.pca_lighting(flat, std=0.1, seed=3).numpy().astype(int) - 128
    assert (out == out[:, :1, :1, :]).all()  # one shift per sample and channel
    shifts = out[:, 0, 0, :].astype(float)
    vectors, values = np.array(IMAGENET_EIGENVECTORS), np.array(IMAGENET_EIGENVALUES)
    expected_std = 255 * 0.1 * np.sqrt(((vectors * values) ** 2).sum(axis=1))  # per channel
    np.testing.assert_allclose(shifts.std(axis=0), expected_std, rtol=0.2)
    # the first component dominates: the three channels move together
    assert np.corrcoef(shifts.T)[0, 1] > 0.9 and np.corrcoef(shifts.T)[0, 2] > 0.9
    np.testing.assert_array_equal(tga.augment.pca_lighting(photos, std=0.0, seed=1).numpy(), photos)


def test_random_blur_and_relief_functions_draw_per_sample(photos):
    out, op_ids, params = tga.augment.random_median_blur(photos, (3, 7), probability=1.0, seed=5,
                                                          return_plan=True)
    assert set(params.numpy().ravel()) <= {3.0, 5.0, 7.0}
    for i in range(len(photos)):
        np.testing.assert_array_equal(out[i].numpy(), ops.median_blur(photos[i:i + 1], params[i, 0]).numpy()[0])
    kept = tga.augment.random_sharpen(photos, probability=0.0, seed=1).numpy()
    np.testing.assert_array_equal(kept, photos)
    assert (tga.augment.random_emboss(photos, probability=1.0, seed=2).numpy() != photos).any()
    assert (tga.augment.random_motion_blur(photos, probability=1.0, seed=2).numpy() != photos).any()
    with pytest.raises(ValueError, match="odd window sides"):
        tga.augment.random_median_blur(photos, (3, 6))
    with pytest.raises(ValueError, match="lightness must be"):
        tga.augment.random_sharpen(photos, lightness=(0.0, 4.0))
    for name in ("sharpen", "emboss", "median_blur", "motion_blur"):
        assert name in tga.augment.STANDARD and name in tga.augment.WIDE


def _downscale_reference(img: np.ndarray, scale: float) -> np.ndarray:
    """OpenCV's cv2.resize(img, None, fx=scale, fy=scale, INTER_NEAREST) and back to the size
    with INTER_NEAREST, in numpy: sizes by cvRound (half to even), sources floor(d * src / dst).
    In float32, as the kernel's parameter is: for a scale float32 holds exactly (0.25, 0.5) this
    is OpenCV's double arithmetic too; for others (0.3) a source index can differ by one."""
    f = np.float32
    h, w = img.shape[:2]
    sh, sw = max(1, int(np.rint(f(h) * f(scale)))), max(1, int(np.rint(f(w) * f(scale))))
    down_y = np.minimum(np.floor(np.arange(sh, dtype=f) / f(scale)).astype(int), h - 1)
    down_x = np.minimum(np.floor(np.arange(sw, dtype=f) / f(scale)).astype(int), w - 1)
    small = img[down_y][:, down_x]
    up_y = np.minimum(np.floor(np.arange(h, dtype=f) * f(sh) / f(h)).astype(int), sh - 1)
    up_x = np.minimum(np.floor(np.arange(w, dtype=f) * f(sw) / f(w)).astype(int), sw - 1)
    return small[up_y][:, up_x]


def test_downscale_is_opencvs_nearest_down_and_up(photos):
    scales = [0.25, 0.5, 0.3, 0.9][:len(photos)]
    got = ops.downscale(photos, scales).numpy()
    for i, img in enumerate(photos):
        np.testing.assert_array_equal(got[i], _downscale_reference(img, scales[i]), err_msg=str(scales[i]))
    odd = np.ascontiguousarray(photos[:, :37, :53])
    for s in (0.1, 0.25, 0.7):
        np.testing.assert_array_equal(ops.downscale(odd, s).numpy()[0], _downscale_reference(odd[0], s))
    for c in (1, 4):  # the 1- and 4-channel row gathers
        many = np.ascontiguousarray(np.concatenate([photos, photos], -1)[..., :c])
        for s in (0.25, 0.3):
            np.testing.assert_array_equal(ops.downscale(many, s).numpy()[0], _downscale_reference(many[0], s))
    for keep in (0.0, 1.0, float("nan"), -2.0):
        np.testing.assert_array_equal(ops.downscale(photos, keep).numpy(), photos)
    out, _, params = tga.augment.random_downscale(photos, (0.2, 0.4), probability=1.0, seed=1, return_plan=True)
    assert 0.2 <= params.numpy().min() and params.numpy().max() <= 0.4
    with pytest.raises(ValueError, match="scale"):
        tga.Downscale((0.5, 1.0))


def test_random_order_applies_n_transforms_per_sample_in_a_random_order():
    """Albumentations' RandomOrder per sample, with two transforms whose order shows in the
    result (x + 1 then doubled, or doubled then + 1): n=2 without replacement gives both orders,
    each for 40-60% of 2000 samples; n=1 one of the two; with replacement, repeats too (x + 2,
    4 x); p=0 leaves the batch alone; n beyond the count without replacement means all."""
    x = tf.fill([2000, 1], 3)
    add, double = (lambda b: b + 1), (lambda b: b * 2)
    out = tga.random_order(x, [add, double], n=2, seed=[1, 2]).numpy().ravel()
    assert set(out) == {8, 7} and 800 < (out == 8).sum() < 1200
    out = tga.random_order(x, [add, double], n=1, seed=[1, 3]).numpy().ravel()
    assert set(out) == {4, 6} and 800 < (out == 4).sum() < 1200
    out = tga.random_order(x, [add, double], n=2, replace=True, seed=[1, 4]).numpy().ravel()
    assert set(out) == {5, 8, 7, 12}  # +1+1, (+1)*2, *2+1, *2*2
    assert all(350 < (out == v).sum() < 650 for v in (5, 8, 7, 12))
    np.testing.assert_array_equal(tga.random_order(x, [add, double], n=2, p=0.0, seed=[1, 5]), x)
    out = tga.random_order(x, [add, double], n=5, p=0.5, seed=[1, 6]).numpy().ravel()
    assert set(out) == {3, 7, 8} and 800 < (out == 3).sum() < 1200
    with pytest.raises(ValueError, match="n must be"):
        tga.random_order(x, [add], n=0)
    with pytest.raises(ValueError, match="at least one"):
        tga.random_order(x, [])
