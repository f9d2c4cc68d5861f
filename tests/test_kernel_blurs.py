"""The Filter2D kernel op and the blurs built on it (issue 36: Albumentations' AdvancedBlur,
Defocus, RingingOvershoot). The op is checked against a float64 numpy correlation (reflect-101
by np.pad, which numpy calls "reflect") and, where installed, cv2.filter2D; the kernel builders
against Albumentations' own kernels and functions (its random draws pinned); the draws' laws
from the kernels; probability, inference, configs and refusals."""
import math

import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug.augment import kernel_blurs as kb


def natural_images(n, h, w, c, seed=0):
    rng = np.random.default_rng(seed)
    coarse = rng.uniform(0, 255, (n, h // 3 + 2, w // 3 + 2, c)).astype(np.float32)
    smooth = tf.image.resize(coarse, (h, w), "bicubic").numpy()
    return np.clip(np.round(smooth + rng.normal(0, 12, smooth.shape)), 0, 255).astype(np.uint8)


def numpy_filter2d(image, kernel):
    """float64 correlation about the centre, reflect-101, rint, saturated."""
    r = kernel.shape[0] // 2
    h, w = image.shape[:2]
    padded = np.pad(image.astype(np.float64), ((r, r), (r, r), (0, 0)), mode="reflect")
    acc = np.zeros(image.shape, np.float64)
    for i in range(kernel.shape[0]):
        for j in range(kernel.shape[1]):
            acc += float(kernel[i, j]) * padded[i:i + h, j:j + w]
    return np.clip(np.rint(acc), 0, 255).astype(np.uint8)


def random_kernels(n, k, seed):
    """Mixed kernels in one [n, k, k] batch: smaller ones zero-padded, signed ones (sharpening),
    a lopsided one (correlation, not convolution, shows) and the identity."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, k, k), np.float32)
    for i in range(n):
        s = min([3, 5, k, k][i % 4], k)
        a = (k - s) // 2
        if i % 4 == 0:
            out[i, a:a + s, a:a + s] = rng.uniform(0, 1, (s, s))
        elif i % 4 == 1:
            out[i, a:a + s, a:a + s] = -rng.uniform(0, 0.3, (s, s))
            out[i, k // 2, k // 2] += 1.0 - out[i].sum() + 1.0
        elif i % 4 == 2:
            out[i, k // 2, :] = rng.uniform(0, 1, k) * (np.arange(k) > k // 2)
            out[i, k // 2, k // 2] = 0.3
        else:
            out[i, k // 2, k // 2] = 1.0
        if i % 4 != 1:
            out[i] /= out[i].sum()
    return out


@pytest.mark.parametrize("shape,k", [((6, 40, 36, 3), 7), ((4, 24, 31, 1), 13), ((4, 20, 22, 4), 21),
                                     ((4, 5, 6, 3), 21), ((4, 1, 1, 3), 3), ((4, 2, 7, 3), 9)])
def test_filter2d_equals_numpy_correlation(shape, k):
    images = natural_images(*shape)
    kernels = random_kernels(shape[0], k, seed=k)
    out = kb.filter2d(tf.constant(images), tf.constant(kernels)).numpy()
    for i in range(shape[0]):
        want = numpy_filter2d(images[i], kernels[i])
        diff = np.abs(out[i].astype(int) - want)
        assert diff.max() <= 1 and (diff == 0).mean() >= 0.999, (i, diff.max(), (diff == 0).mean())
    np.testing.assert_array_equal(out[3::4], images[3::4])  # the identity kernel copies


def test_filter2d_matches_opencv():
    cv2 = pytest.importorskip("cv2")
    images = natural_images(8, 48, 64, 3, seed=3)
    for k in (3, 7, 15, 21):  # OpenCV takes its DFT path from 11 x 11 up
        kernels = random_kernels(8, k, seed=k)
        out = kb.filter2d(tf.constant(images), tf.constant(kernels)).numpy()
        for i in range(8):
            want = cv2.filter2D(images[i], -1, kernels[i], borderType=cv2.BORDER_REFLECT_101)
            diff = np.abs(out[i].astype(int) - want)
            assert diff.max() <= 1 and (diff == 0).mean() >= 0.995, (k, i, diff.max(), (diff == 0).mean())


def test_filter2d_refusals():
    images = tf.zeros([2, 8, 8, 3], tf.uint8)
    with pytest.raises(ValueError, match="K odd"):
        kb.filter2d(images, tf.zeros([2, 4, 4]))
    with pytest.raises(ValueError, match="at most 63"):
        kb.filter2d(images, tf.zeros([2, 65, 65]))
    with pytest.raises((tf.errors.InvalidArgumentError, ValueError)):
        kb.filter2d(images, tf.zeros([3, 3, 3]))  # one kernel short
    nan = np.zeros([2, 3, 3], np.float32)
    nan[:, 1, 1] = np.nan
    assert (kb.filter2d(images + 9, tf.constant(nan)).numpy() == 0).all()  # NaN sums give 0, never UB


def octant_extension(kernels):
    """Each kernel as the symmetric filter reads it: tap (i, j) takes the octant's value at
    (centre + max(|i|, |j|), centre + min(|i|, |j|))."""
    k = kernels.shape[-1]
    c = k // 2
    ax = np.abs(np.arange(k) - c)
    big, small = np.maximum(ax[:, None], ax[None, :]), np.minimum(ax[:, None], ax[None, :])
    return kernels[:, c + big, c + small]


@pytest.mark.parametrize("shape,k", [((6, 40, 36, 3), 7), ((4, 24, 31, 1), 13), ((4, 20, 22, 4), 21),
                                     ((4, 5, 6, 3), 21), ((4, 1, 1, 3), 3), ((3, 9, 37, 3), 63)])
def test_symmetric_filter2d_equals_numpy_correlation(shape, k):
    """The octant path against float64 numpy with the octant's symmetric extension (row widths
    of 32-element steps, 16-element steps and single elements; kernels whose reach is below
    their frame; signed taps), and against the general path on symmetric kernels."""
    images = natural_images(*shape, seed=k)
    kernels = octant_extension(random_kernels(shape[0], k, seed=k + 1) + np.float32(0.01)
                               * np.random.default_rng(k).uniform(-1, 1, (shape[0], k, k)).astype(np.float32))
    kernels[3::4] = 0.0
    kernels[3::4, k // 2, k // 2] = 1.0
    assert (kernels == kernels.transpose(0, 2, 1)).all() and (kernels == kernels[:, ::-1]).all()
    out = kb.filter2d(tf.constant(images), tf.constant(kernels), symmetric=True).numpy()
    general = kb.filter2d(tf.constant(images), tf.constant(kernels)).numpy()
    for i in range(shape[0]):
        want = numpy_filter2d(images[i], kernels[i])
        for got in (out[i], general[i]):
            diff = np.abs(got.astype(int) - want)
            assert diff.max() <= 1 and (diff == 0).mean() >= 0.999, (i, diff.max(), (diff == 0).mean())
    np.testing.assert_array_equal(out[3::4], images[3::4])  # the identity kernel copies


def test_symmetric_filter2d_plateau_equals_numpy_correlation():
    """The octant path's plateau (taps bit-equal to the centre in the centre's column runs,
    summed in integers, from column prefix sums on the CPU): Defocus's softened discs of radii
    1-31, binary discs up to the 63 frame on white images (sums past 16 bits: the runs are
    summed in groups, then widened) and a kernel whose centre-valued runs are not closed under
    the transpose, against float64 numpy and the general path."""
    radius = tf.constant([1, 3, 6, 10, 17, 31], tf.int32)
    softened = kb.disc_kernels(radius, tf.constant([0.1, 0.5, 0.3, 0.2, 0.4, 0.5], tf.float64), 63).numpy()
    ax = np.arange(63) - 31
    binary = np.stack([(ax[:, None] ** 2 + ax[None, :] ** 2 <= r * r).astype(np.float32) for r in (2, 9, 20, 31)])
    binary /= binary.sum(axis=(1, 2), keepdims=True)
    octant = {(0, 0): 1.0, (1, 0): 1.0, (1, 1): 0.5, (2, 0): 1.0, (2, 1): 1.0, (2, 2): 0.3}
    open_runs = np.zeros((63, 63), np.float32)
    open_runs[29:34, 29:34] = [[octant[max(abs(i), abs(j)), min(abs(i), abs(j))] for j in range(-2, 3)]
                               for i in range(-2, 3)]
    kernels = np.concatenate([softened, binary, (open_runs / open_runs.sum())[None]]).astype(np.float32)
    images = natural_images(len(kernels), 40, 45, 3, seed=11)
    out = kb.filter2d(tf.constant(images), tf.constant(kernels), symmetric=True).numpy()
    general = kb.filter2d(tf.constant(images), tf.constant(kernels)).numpy()
    for i in range(len(kernels)):
        want = numpy_filter2d(images[i], kernels[i])
        for got in (out[i], general[i]):
            diff = np.abs(got.astype(int) - want)
            assert diff.max() <= 1 and (diff == 0).mean() >= 0.999, (i, diff.max(), (diff == 0).mean())
    white = np.full((len(kernels), 37, 70, 3), 255, np.uint8)
    np.testing.assert_array_equal(kb.filter2d(tf.constant(white), tf.constant(kernels), symmetric=True), white)


def test_symmetric_filter2d_reads_only_the_octant():
    images = natural_images(4, 30, 33, 3, seed=5)
    kernels = random_kernels(4, 9, seed=6)  # lopsided ones among them
    out = kb.filter2d(tf.constant(images), tf.constant(kernels), symmetric=True).numpy()
    extended = octant_extension(kernels)
    for i in range(4):
        diff = np.abs(out[i].astype(int) - numpy_filter2d(images[i], extended[i]))
        assert diff.max() <= 1 and (diff == 0).mean() >= 0.999, (i, diff.max(), (diff == 0).mean())


def test_radial_kernels_have_the_eight_symmetries():
    """Defocus and RingingOvershoot filter through the octant path: their kernels must be what it
    reads (equal to their flips and transposes, to a float's last bit)."""
    radius = tf.constant([1, 3, 8, 9, 12, 31])
    sigma = tf.constant([0.1, 0.3, 0.5, 0.25, 0.45, 0.4], tf.float64)
    discs = kb.disc_kernels(radius, sigma, kb.defocus_side(31)).numpy()
    sincs = kb.sinc_kernels(tf.constant([3, 7, 15, 63], tf.float64), tf.constant([0.5, 0.8, 1.6, 3.0], tf.float64),
                            63).numpy()
    for kernels in (discs, sincs):
        for image in (kernels.transpose(0, 2, 1), kernels[:, ::-1], kernels[:, :, ::-1]):
            np.testing.assert_allclose(image, kernels, rtol=3e-7, atol=1e-12)
        np.testing.assert_allclose(octant_extension(kernels), kernels, rtol=3e-7, atol=1e-12)


class PinnedRandom:
    """Stands in for Albumentations' py_random: uniform and randint return the pinned values in
    order, random the pinned coin."""

    def __init__(self, uniforms, coin=0.9):
        self.uniforms, self.coin = list(uniforms), coin

    def uniform(self, a, b):
        return self.uniforms.pop(0)

    def random(self):
        return self.coin

    def randint(self, a, b):
        return self.uniforms.pop(0)

    def randrange(self, a, b, step=1):
        return self.uniforms.pop(0)


@pytest.mark.parametrize("side,sx,sy,angle,beta", [(3, 0.5, 0.9, 30.0, 1.0), (7, 1.0, 0.3, -75.0, 0.6),
                                                   (5, 0.2, 0.2, 0.0, 4.0), (7, 2.0, 0.7, 45.0, 7.5)])
def test_advanced_blur_kernel_equals_albumentations(side, sx, sy, angle, beta):
    A = pytest.importorskip("albumentations")
    t = A.AdvancedBlur(blur_limit=(side, side), noise_limit=(1.0, 1.0), p=1.0)
    coin = 0.2 if beta < 1 else 0.9  # the half beta is drawn on
    t.py_random = PinnedRandom([sx, sy, angle, beta], coin)
    want = t.get_params()["kernel"]
    ones = tf.ones([1, 7, 7], tf.float64)
    got = kb.generalized_gaussian_kernels(*[tf.constant([v], tf.float64) for v in (side, sx, sy, angle, beta)],
                                          ones, 7).numpy()[0]
    a = (7 - side) // 2
    np.testing.assert_allclose(got[a:a + side, a:a + side], want, rtol=2e-6, atol=1e-9)
    assert got.sum() == pytest.approx(1.0, abs=1e-5) and not got[:a].any() and not got[:, :a].any()


@pytest.mark.parametrize("radius,sigma", [(1, 0.1), (3, 0.3), (7, 0.5), (8, 0.25), (9, 0.4), (12, 0.2)])
def test_defocus_equals_albumentations(radius, sigma):
    A = pytest.importorskip("albumentations")
    from albumentations.augmentations.blur import functional as fblur
    images = natural_images(1, 40, 48, 3, seed=radius)
    k = kb.defocus_side(12)
    kernels = kb.disc_kernels(tf.constant([radius]), tf.constant([sigma], tf.float64), k)
    assert A.__version__ >= "2"
    out = kb.filter2d(tf.constant(images), kernels, symmetric=True).numpy()[0]  # as Defocus filters
    want = fblur.defocus(images[0], radius, sigma)
    diff = np.abs(out.astype(int) - want)
    assert diff.max() <= 1 and (diff == 0).mean() >= 0.995, (diff.max(), (diff == 0).mean())


def test_defocus_kernel_against_numpy():
    """The kernel by numpy (the disc, then a separable Gaussian of side 3 or 5 with the array's
    own reflect-101 edge): independent of Albumentations, so CI runs it."""
    k = kb.defocus_side(12)
    for radius, sigma in ((2, 0.3), (8, 0.5), (11, 0.45)):
        half = max(8, radius)
        ax = np.arange(-half, half + 1)
        disc = (ax[None, :] ** 2 + ax[:, None] ** 2 <= radius ** 2).astype(np.float64)
        disc /= disc.sum()
        ks = 3 if radius <= 8 else 5
        t = np.arange(ks) - ks // 2
        g = np.exp(-t * t / (2 * sigma * sigma))
        g /= g.sum()
        pad = np.pad(disc, ks // 2, mode="reflect")
        rows = sum(g[j] * pad[:, j:j + len(ax)] for j in range(ks))
        want = sum(g[i] * rows[i:i + len(ax), :] for i in range(ks))
        got = kb.disc_kernels(tf.constant([radius]), tf.constant([sigma], tf.float64), k).numpy()[0]
        a = (k - len(ax)) // 2
        np.testing.assert_allclose(got[a:a + len(ax), a:a + len(ax)], want, atol=2e-7)
        assert np.count_nonzero(got) == np.count_nonzero(want)


@pytest.mark.parametrize("side,cutoff", [(7, math.pi / 4), (11, 1.2), (15, math.pi / 2), (21, 2.8)])
def test_ringing_overshoot_kernel_equals_albumentations(side, cutoff):
    A = pytest.importorskip("albumentations")
    t = A.RingingOvershoot(blur_limit=(side, side), cutoff=(cutoff, cutoff), p=1.0)
    want = t.get_params()["kernel"]
    got = kb.sinc_kernels(tf.constant([side], tf.float64), tf.constant([cutoff], tf.float64), 21).numpy()[0]
    a = (21 - side) // 2
    np.testing.assert_allclose(got[a:a + side, a:a + side], want, rtol=1e-5, atol=1e-8)


def test_ringing_overshoot_kernel_against_scipy():
    special = pytest.importorskip("scipy.special")
    side, w = 9, 1.1
    ax = np.arange(side) - 4.0
    d = np.hypot(ax[:, None], ax[None, :])
    with np.errstate(divide="ignore", invalid="ignore"):
        want = w * special.j1(w * d) / (2 * np.pi * d)
    want[4, 4] = w * w / (4 * np.pi)
    want /= want.sum()
    got = kb.sinc_kernels(tf.constant([side], tf.float64), tf.constant([w], tf.float64), side).numpy()[0]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-8)


def extent(kernels):
    """[n] odd sides of the non-zero square of each kernel."""
    k = kernels.shape[-1]
    rows = np.abs(kernels).sum(axis=2) > 0
    return np.array([k - 2 * np.argmax(r) for r in rows])


def test_draws_follow_the_ranges():
    n = 4000
    seeds = tf.unstack(tf.random.experimental.stateless_split(tf.constant([3, 4]), 7))
    # wide spreads and mild shapes, so no outer tap underflows to 0 and the side shows
    kernels = kb.advanced_blur_kernels(n, (3, 9), (4.0, 6.0), (4.0, 6.0), (-90.0, 90.0), (0.5, 1.5), (0.9, 1.1),
                                       seeds).numpy()
    sides = extent(kernels)
    counts = np.bincount(sides, minlength=10)[[3, 5, 7, 9]]
    assert counts.sum() == n and np.abs(counts - n / 4).max() < 5 * np.sqrt(n / 4), counts
    np.testing.assert_allclose(kernels.sum(axis=(1, 2)), 1.0, atol=1e-5)
    discs = kb.defocus_kernels(n, (3, 10), (0.1, 0.5), seeds[:2]).numpy()
    assert discs.shape == (n, 21, 21)
    # the radius from the central row: taps above 0.4 of the peak (the softened edge keeps at
    # least 0.7 of it at the disc's last pixel and at most 0.1 one pixel out, sigma <= 0.5)
    centre = discs[:, 10, :]
    radii = ((centre > 0.4 * centre.max(axis=1, keepdims=True)).sum(axis=1) - 1) // 2
    counts = np.bincount(radii, minlength=11)[3:11]
    assert counts.sum() == n and np.abs(counts - n / 8).max() < 5 * np.sqrt(n / 8), counts
    rings = kb.ringing_overshoot_kernels(n, (7, 15), (0.8, 1.6), seeds[:2]).numpy()
    counts = np.bincount(extent(rings), minlength=16)[[7, 9, 11, 13, 15]]
    assert np.abs(counts - n / 5).max() < 5 * np.sqrt(n / 5), counts


@pytest.mark.parametrize("cls,kwargs", [(tga.AdvancedBlur, {}), (tga.Defocus, {}), (tga.RingingOvershoot, {})])
def test_probability_inference_and_config(cls, kwargs):
    images = tf.constant(natural_images(64, 24, 28, 3, seed=5))
    t = cls(probability=0.5, seed=11, **kwargs)
    out = t(images).numpy()
    changed = (out != images.numpy()).any(axis=(1, 2, 3))
    assert 16 <= changed.sum() <= 48, changed.sum()
    np.testing.assert_array_equal(t(images, training=False).numpy(), images.numpy())
    np.testing.assert_array_equal(cls(probability=0.0)(images).numpy(), images.numpy())
    again = cls(**t.get_config())
    assert again.get_config() == t.get_config()
    layer = getattr(tga.keras, cls.__name__)(probability=1.0, seed=2)
    assert (layer(images, training=True).numpy() != images.numpy()).any()


def test_blurs_blur():
    """Each blur lowers the image's local contrast (mean absolute neighbour difference)."""
    images = tf.constant(natural_images(8, 48, 48, 3, seed=6))
    detail = lambda x: np.abs(np.diff(x.astype(int), axis=2)).mean()  # noqa: E731
    for t in (tga.AdvancedBlur(blur_limit=7, sigma_x_limit=(1.0, 2.0), sigma_y_limit=(1.0, 2.0), probability=1.0,
                              seed=1), tga.Defocus(probability=1.0, seed=1),
              tga.RingingOvershoot(probability=1.0, seed=1)):
        assert detail(t(images).numpy()) < 0.8 * detail(images.numpy()), type(t).__name__


@pytest.mark.parametrize("cls,kwargs,match", [
    (tga.AdvancedBlur, dict(blur_limit=(3, 8)), "odd"),
    (tga.AdvancedBlur, dict(blur_limit=(3, 65)), "63"),
    (tga.AdvancedBlur, dict(sigma_x_limit=(0.0, 1.0), sigma_y_limit=(0.0, 1.0)), "both start at 0"),
    (tga.AdvancedBlur, dict(beta_limit=(1.0, 4.0)), "min < 1 < max"),
    (tga.AdvancedBlur, dict(noise_limit=(1.2, 0.8)), "noise_limit"),
    (tga.AdvancedBlur, dict(probability=1.5), "probability"),
    (tga.Defocus, dict(radius=(0, 4)), "radius"),
    (tga.Defocus, dict(radius=(3, 32)), "radius"),
    (tga.Defocus, dict(alias_blur=(-0.1, 0.5)), "alias_blur"),
    (tga.RingingOvershoot, dict(blur_limit=(6, 15)), "odd"),
    (tga.RingingOvershoot, dict(cutoff=1.0), "cutoff"),
    (tga.RingingOvershoot, dict(cutoff=(0.5, 3.5)), "cutoff")])
def test_bad_arguments_are_refused(cls, kwargs, match):
    with pytest.raises(ValueError, match=match):
        cls(**kwargs)
