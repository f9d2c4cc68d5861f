"""Spatter, both modes (issue 36; Albumentations' transform). The SpatterRain and SpatterMud ops
against Albumentations' own functions (get_rain_params + spatter_rain, get_mud_params +
spatter_mud) given the same liquid layer: the ops' counter-hash normals (the kernels module's
counter_normals) into the three lines of Spatter's get_params_dependent_on_data (mean + std z,
cv2.GaussianBlur in float64 with replicated edges, the cutout). The blur frames against
cv2.getGaussianKernel; the mud's fallback when nothing passes the cutout (exactly
max(1, int(0.1 n)) distinct pixels); the transform's draws restated through the same functions;
probability, inference, config and refusals."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug.augment import lens_spatter as sp

def _cv2():
    return pytest.importorskip("cv2")


def _kernels():
    from test_kernels_module import kernels  # skips (or fails in CI) when not built
    return kernels


def gaussian_taps(n, sigma, f32):
    """cv2.getGaussianKernel(n, sigma) restated: exp(-0.5 / s^2 x x) over the sum, float64; for
    CV_32F each value float32 first, their float64 sum, then float32(t / sum)."""
    x = np.arange(n) - (n - 1) * 0.5
    t = np.exp((-0.5 / (sigma * sigma) * x) * x)
    if not f32:
        return t * (1.0 / t.sum())
    t = t.astype(np.float32).astype(np.float64)
    return (t * (1.0 / t.sum())).astype(np.float32)


def frames(sigmas):
    """The kernels centred in the op's frames: liquid (float64, side 2 round(3 s) + 1) and mask
    (float32, ksize (0, 0): side cvRound(8 s + 1) | 1; sigma 0: no blur, [1])."""
    top = max(sigmas)
    t1 = np.zeros((len(sigmas), sp.liquid_frame(top)))
    t2 = np.zeros((len(sigmas), sp.mask_frame(top)), np.float32)
    for b, s in enumerate(sigmas):
        k1 = gaussian_taps(int(2 * round(3 * s) + 1), s, False) if s > 0 else np.ones(1)
        k2 = gaussian_taps(int(round(s * 8 + 1)) | 1, s, True) if s > 0 else np.ones(1)
        t1[b, (t1.shape[1] - len(k1)) // 2:][:len(k1)] = k1
        t2[b, (t2.shape[1] - len(k2)) // 2:][:len(k2)] = k2
    return t1, t2


def blur(a, taps, mode="edge"):
    """A separable blur in a's dtype, rows then columns, each sum from zero in tap order."""
    r = len(taps) // 2
    h, w = a.shape
    p = np.pad(a, ((0, 0), (r, r)), mode=mode)
    rows = np.zeros_like(a)
    for i, t in enumerate(taps):
        rows = rows + a.dtype.type(t) * p[:, i:i + w]
    p = np.pad(rows, ((r, r), (0, 0)), mode=mode)
    out = np.zeros_like(a)
    for i, t in enumerate(taps):
        out = out + a.dtype.type(t) * p[i:i + h]
    return out


def numpy_liquid(z, mean, std, taps1):
    """The liquid: mean + std z blurred (float64, replicated edges), zeroed below the cutout later."""
    return blur(mean + std * z.astype(np.float64), taps1)


def numpy_mud(image, z, params, taps1, taps2, colour):
    """Albumentations' get_mud_params + spatter_mud restated in numpy (no fallback: some pixel must
    pass the cutout)."""
    mean, std, cutout, intensity = params
    liquid = numpy_liquid(z, mean, std, taps1)
    liquid[liquid < cutout] = 0
    mask = (liquid > cutout).astype(np.float32)
    assert mask.any(), "a cutout nothing passes"
    mask = blur(mask, taps2)
    mask = mask / mask.max() * np.float32(intensity)
    c = np.array(colour) / 255.0
    mud = (mask[..., None].astype(np.float64) * c).astype(np.float32)
    non_mud = np.clip((c - mud.astype(np.float64)) / np.where(c > 0, c, 1.0), 0, 1).astype(np.float32)
    non_mud = np.where(c > 0, non_mud, 1.0 - mask[..., None]).astype(np.float32)
    x = np.clip(image.astype(np.float32) / np.float32(255) * non_mud + mud, 0, 1)
    return np.clip(np.rint(x * np.float32(255)), 0, 255).astype(np.uint8)


def numpy_canny(level):
    """OpenCV's Canny (3x3 Sobel, replicated edges, |dx| + |dy|, 15-bit tangents, 50 / 150,
    8-connected hysteresis) restated: True on edges."""
    h, w = level.shape
    p = np.pad(level.astype(np.int64), 1, mode="edge")
    dx = (p[:-2, 2:] + 2 * p[1:-1, 2:] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[1:-1, :-2] + p[2:, :-2])
    dy = (p[2:, :-2] + 2 * p[2:, 1:-1] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[:-2, 1:-1] + p[:-2, 2:])
    mag = np.abs(dx) + np.abs(dy)
    m = np.pad(mag, 1)
    tg22x = np.abs(dx) * 13573
    horizontal = (np.abs(dy) << 15) < tg22x
    vertical = ~horizontal & ((np.abs(dy) << 15) > tg22x + (np.abs(dx) << 16))
    s = np.where((dx ^ dy) < 0, -1, 1)
    c = m[1:-1, 1:-1]
    before = np.where(s < 0, m[:-2, 2:], m[:-2, :-2])
    after = np.where(s < 0, m[2:, :-2], m[2:, 2:])
    peak = np.where(horizontal, (c > m[1:-1, :-2]) & (c >= m[1:-1, 2:]),
                    np.where(vertical, (c > m[:-2, 1:-1]) & (c >= m[2:, 1:-1]), (c > before) & (c > after)))
    candidate = (mag > 50) & peak
    edges = candidate & (mag > 150)
    while True:
        grown = np.pad(edges, 1)
        near = np.zeros_like(edges)
        for i in range(3):
            for j in range(3):
                near |= grown[i:i + h, j:j + w]
        grown = edges | (candidate & near)
        if np.array_equal(grown, edges):
            return edges
        edges = grown


def numpy_distance(edges):
    """cv2.distanceTransform(non-edges, DIST_L2, 5): float32 chamfer costs, two passes."""
    h, w = edges.shape
    f = np.float32
    hv, diag, far = f(1.0), f(1.4), f(2.1969)
    t = np.full((h + 4, w + 4), np.finfo(np.float32).max, np.float32)
    for y in range(2, h + 2):
        for x in range(2, w + 2):
            t[y, x] = 0 if edges[y - 2, x - 2] else min(
                t[y - 2, x - 1] + far, t[y - 2, x + 1] + far, t[y - 1, x - 2] + far, t[y - 1, x - 1] + diag,
                t[y - 1, x] + hv, t[y - 1, x + 1] + diag, t[y - 1, x + 2] + far, t[y, x - 1] + hv)
    for y in range(h + 1, 1, -1):
        for x in range(w + 1, 1, -1):
            if t[y, x] > hv:
                t[y, x] = min(t[y, x], t[y + 2, x + 1] + far, t[y + 2, x - 1] + far, t[y + 1, x + 2] + far,
                              t[y + 1, x + 1] + diag, t[y + 1, x] + hv, t[y + 1, x - 1] + diag,
                              t[y + 1, x - 2] + far, t[y, x + 1] + hv)
    return t[2:-2, 2:-2]


def numpy_rain(image, z, params, taps1, colour):
    """Albumentations' get_rain_params + spatter_rain restated in numpy, as its code runs them
    (the float layer through equalize's uint8 conversion, the liquid's bytes in m)."""
    mean, std, cutout, intensity = params
    f = np.float32
    liquid = numpy_liquid(z, mean, std, taps1)
    liquid[liquid < cutout] = 0
    level = np.clip(liquid * 255, 0, 255).astype(np.uint8)
    d = np.minimum(numpy_distance(numpy_canny(level)), f(20))
    d = blur(d, gaussian_taps(3, 1.0, True))
    q = np.clip(np.rint(d * f(255)), 0, 255).astype(np.uint8)
    hist = np.bincount(q.ravel(), minlength=256)
    first = np.flatnonzero(hist)[0]
    if hist[first] == q.size:
        table = np.full(256, first, np.uint8)
    else:
        scale = f(255) / f(q.size - hist[first])
        table = np.concatenate([np.zeros(first + 1), np.cumsum(hist[first + 1:])]).astype(f) * scale
        table = np.clip(np.rint(table), 0, 255).astype(np.uint8)
        table[:first + 1] = 0
    e = table[q].astype(f) / f(255)
    h, w = e.shape
    p = np.pad(e, 1, mode="reflect")
    relief = np.zeros_like(e)
    for (i, j), k in zip([(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)], [-2, -1, -1, 1, 1, 1, 2]):
        relief = relief + f(k) * p[i:i + h, j:j + w]
    relief = blur(np.clip(relief, f(0), f(1)), gaussian_taps(5, 1.5, True))
    m = level.astype(f) * relief
    m = m * (f(1) / m.max()) if m.max() > 0 else np.zeros_like(m)
    drops = (m[..., None].astype(np.float64) * (np.array(colour) / 255.0) * (intensity * 0.9)).astype(f)
    x = np.clip(image.astype(f) / f(255) + drops, 0, 1)
    return np.clip(np.rint(x * f(255)), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("mode, shape, sigmas", [
    ("mud", (40, 56), (2.0, 1.3, 0.0)), ("mud", (9, 5), (1.0, 3.0, 0.6)),
    ("rain", (36, 44), (2.0, 1.0, 2.5)), ("rain", (7, 9), (1.0, 0.0, 0.5)), ("rain", (1, 1), (1.0, 1.0, 1.0))])
def test_ops_equal_numpy_statements(mode, shape, sigmas):
    """Byte for byte against the numpy statements above (no OpenCV needed): each sample its own
    draws, cutouts a fifth to a half of the pixels pass (rain: the third sample's nothing), a
    colour with a 0 level, 1 x 1 images."""
    kernels = _kernels()
    h, w = shape
    rng = np.random.default_rng(h * w + len(mode))
    images = np.stack([fixtures.photo(h, w, seed=s) for s in range(3)])
    params = np.stack([rng.uniform(0.55, 0.7, 3), rng.uniform(0.2, 0.4, 3), np.zeros(3),
                       rng.uniform(0.3, 1.0, 3)], 1)
    seeds = np.array([8, -3, 2 ** 29], np.int32)
    normals = [kernels.counter_normals(int(seeds[b]), h * w).reshape(h, w) for b in range(3)]
    t1, t2 = frames(sigmas)
    for b in range(3):
        liquid = numpy_liquid(normals[b], *params[b, :2], t1[b])
        params[b, 2] = np.quantile(liquid, rng.uniform(0.5, 0.8)) if liquid.size > 1 else liquid.min() - 1e-3
    colour = (30.0, 0.0, 200.0)
    if mode == "mud":
        got = sp.spatter_op(images, params, seeds, t1, t2, colour).numpy()
        want = [numpy_mud(images[b], normals[b], params[b], t1[b], t2[b], colour) for b in range(3)]
    else:
        params[2, 2] = 1.0
        got = sp.spatter_rain_op(images, params, seeds, t1, colour).numpy()
        want = [numpy_rain(images[b], normals[b], params[b], t1[b], colour) for b in range(3)]
    for b in range(3):
        np.testing.assert_array_equal(got[b], want[b], err_msg=f"sample {b}")
    if h * w > 100:
        assert not np.array_equal(got[0], images[0])


def blurred_liquid(z, mean, std, sigma):
    """Spatter's liquid layer from its standard normals z: mean + std z, cv2.GaussianBlur in
    float64 (side 2 round(3 sigma) + 1, replicated edges), as get_params_dependent_on_data."""
    cv2 = _cv2()
    liquid = mean + std * z.astype(np.float64)
    ksize = int(2 * round(3 * sigma) + 1)
    cv2.GaussianBlur(liquid, (ksize, ksize), sigmaX=sigma, sigmaY=sigma, dst=liquid, borderType=cv2.BORDER_REPLICATE)
    return liquid


def albumentations_mud(image, z, mean, std, sigma, cutout, intensity, colour):
    """Albumentations 2.0.8's Spatter ("mud") with the liquid's standard normals z given: its
    get_params_dependent_on_data lines, then its own get_mud_params and spatter_mud (some pixel
    must pass the cutout: otherwise Albumentations picks its fallback pixels from numpy's stream)."""
    F = pytest.importorskip("albumentations.augmentations.pixel.functional")
    liquid = blurred_liquid(z, mean, std, sigma)
    assert (liquid > cutout).any(), "a cutout nothing passes"
    liquid[liquid < cutout] = 0
    params = F.get_mud_params(liquid, np.array(colour) / 255.0, cutout, sigma, intensity, np.random.default_rng(0))
    return F.spatter_mud(image, params["non_mud"], params["mud"])


def albumentations_rain(image, z, mean, std, sigma, cutout, intensity, colour):
    """Albumentations 2.0.8's Spatter ("rain") with the liquid's standard normals z given: its
    get_params_dependent_on_data lines, then its own get_rain_params and spatter_rain."""
    F = pytest.importorskip("albumentations.augmentations.pixel.functional")
    liquid = blurred_liquid(z, mean, std, sigma)
    liquid[liquid < cutout] = 0
    drops = F.get_rain_params(liquid, np.array(colour) / 255.0, intensity)["drops"]
    return F.spatter_rain(image, drops)


def assert_nearly_equal(got, want, what):
    """Equal but for a level on at most 1 byte in 10^5: the mask's float32 blur sums its taps in
    another order than cv2's vector loops, which moves a rare value across a rounding boundary."""
    diff = np.abs(got.astype(int) - want)
    assert diff.max() <= 1 and np.count_nonzero(diff) <= max(1, got.size // 100000), (what, np.count_nonzero(diff))


CASES = [((80, 96), (2.0, 1.3, 3.0)), ((37, 53), (0.7, 2.0, 0.0)), ((224, 224), (2.0, 2.0, 2.5)),
         ((5, 3), (1.0, 4.0, 0.4))]


@pytest.mark.parametrize("shape, sigmas", CASES)
def test_op_equals_albumentations_functions(shape, sigmas):
    """Byte for byte, each sample its own mean, std, cutout, intensity and sigma (0: no blur),
    a colour with a 0 channel (Albumentations' 1 - mask branch), frames wider than the image."""
    kernels = _kernels()
    h, w = shape
    rng = np.random.default_rng(h * w)
    images = np.stack([fixtures.photo(h, w, seed=s) for s in range(3)])
    params = np.stack([rng.uniform(0.5, 0.7, 3), rng.uniform(0.2, 0.4, 3), np.zeros(3),
                       rng.uniform(0.3, 1.0, 3)], 1)
    seeds = np.array([17, -4, 2 ** 31 - 1], np.int32)
    normals = [kernels.counter_normals(int(seeds[b]), h * w).reshape(h, w) for b in range(3)]
    for b in range(3):  # cutouts some pixels pass: a fifth to a half of them
        liquid = blurred_liquid(normals[b], *params[b, :2], sigmas[b])
        params[b, 2] = np.quantile(liquid, rng.uniform(0.5, 0.8)) if liquid.size > 1 else liquid.min() - 1e-3
    colour = (20.0, 0.0, 180.0)
    got = sp.spatter_op(images, params, seeds, *frames(sigmas), colour).numpy()
    changed = 0
    for b in range(3):
        want = albumentations_mud(images[b], normals[b], *params[b, :2], sigmas[b], *params[b, 2:], colour)
        assert_nearly_equal(got[b], want, f"sample {b}")
        changed += not np.array_equal(want, images[b])
    assert changed >= 2


RAIN_CASES = [((224, 224), (2.0, 1.3, 3.0)), ((37, 53), (0.7, 2.0, 0.0)), ((97, 31), (2.5, 1.0, 4.0)),
              ((5, 3), (1.0, 4.0, 0.4)), ((1, 1), (1.0, 1.0, 1.0))]


@pytest.mark.parametrize("shape, sigmas", RAIN_CASES)
def test_rain_op_equals_albumentations_functions(shape, sigmas):
    """Byte for byte (within the same bound as the mud): Canny's edges, the distance transform,
    the equalisation and the relief as Albumentations runs them, each sample its own draws, a
    cutout nothing passes (no edges: the image comes back), 1 x 1 and 5 x 3 images."""
    kernels = _kernels()
    h, w = shape
    rng = np.random.default_rng(h * w + 1)
    images = np.stack([fixtures.photo(h, w, seed=s) for s in range(3)])
    params = np.stack([rng.uniform(0.6, 0.7, 3), rng.uniform(0.2, 0.4, 3), np.array([0.66, 0.7, 1.0]),
                       rng.uniform(0.3, 1.0, 3)], 1)
    params[2, :2] = 0.3, 0.1  # nothing reaches the cutout 1 (0.3 + 7 sigma)
    seeds = np.array([3, -11, 2 ** 30], np.int32)
    colour = (238.0, 238.0, 175.0)
    t1, _ = frames(sigmas)
    got = sp.spatter_rain_op(images, params, seeds, t1, colour).numpy()
    for b in range(3):
        z = kernels.counter_normals(int(seeds[b]), h * w).reshape(h, w)
        want = albumentations_rain(images[b], z, *params[b, :2], sigmas[b], *params[b, 2:], colour)
        assert_nearly_equal(got[b], want, f"sample {b}")
    np.testing.assert_array_equal(got[2], images[2])  # nothing passes the cutout: no drops
    if h * w > 1000:
        assert not np.array_equal(got[0], images[0])


def test_frames_are_opencv_kernels():
    """The transform's frames: cv2.getGaussianKernel's float64 values (restated above, and
    OpenCV's own where installed) to 1e-16, its float32 ones to a unit in the last place; sigma 0
    gives the one-tap frames Albumentations' identities are."""
    sigmas = tf.constant([0.0, 0.3, 1.3, 2.0, 2.7], tf.float64)
    t1 = sp._liquid_taps(sigmas, sp.liquid_frame(2.7)).numpy()
    t2 = sp._mask_taps(sigmas, sp.mask_frame(2.7)).numpy()
    w1, w2 = frames(sigmas.numpy().tolist())
    np.testing.assert_allclose(t1, w1, rtol=0, atol=1e-16)
    np.testing.assert_allclose(t2, w2, rtol=2.5e-7, atol=1e-12)
    try:
        import cv2
    except ImportError:
        cv2 = None
    for s in (0.3, 1.3, 2.7) if cv2 is not None else ():
        for f32, side in ((False, int(2 * round(3 * s) + 1)), (True, int(round(s * 8 + 1)) | 1)):
            opencv = cv2.getGaussianKernel(side, s, cv2.CV_32F if f32 else cv2.CV_64F).ravel()
            np.testing.assert_allclose(gaussian_taps(side, s, f32), opencv, rtol=2.5e-7, atol=1e-16)
    assert t1[0].tolist().count(1.0) == 1 and t2[0].tolist().count(1.0) == 1
    tiny = tf.constant([1e-200, 2.0], tf.float64)  # -0.5 / s^2 overflows: still the one-tap frame
    in_graph = tf.function(lambda s: (sp._liquid_taps(s, 13), sp._mask_taps(s, 17)))  # as tf.data runs them
    for liquid, mask in ((sp._liquid_taps(tiny, 13), sp._mask_taps(tiny, 17)), in_graph(tiny)):
        assert liquid.numpy()[0].tolist() == [0.0] * 6 + [1.0] + [0.0] * 6
        assert mask.numpy()[0].tolist() == [0.0] * 8 + [1.0] + [0.0] * 8


@pytest.mark.parametrize("shape", [(40, 30), (1, 1), (7, 3)])
def test_nothing_passing_the_cutout_marks_a_tenth_of_the_pixels(shape):
    """Albumentations marks max(1, int(0.1 n)) pixels at random when none passes: with sigma 0,
    a black colour and intensity 1 each marked pixel turns black, and exactly that many do,
    a different set for another seed."""
    h, w = shape
    images = np.full((2, h, w, 3), 200, np.uint8)
    params = np.array([[0.2, 0.01, 1.0, 1.0]] * 2)
    t1, t2 = frames([0.0, 0.0])
    got = sp.spatter_op(images, params, np.array([5, 6], np.int32), t1, t2, (0.0, 0.0, 0.0)).numpy()
    black = got.max(axis=-1) == 0
    assert set(np.unique(got)) <= {0, 200}
    assert black.sum(axis=(1, 2)).tolist() == [max(1, int(0.1 * h * w))] * 2
    if h * w > 100:
        assert not np.array_equal(black[0], black[1])


def test_transform_draws_restated_through_albumentations_functions():
    """The transform's own draws (its plan: mean, std, cutout, intensity, sigma and noise seed
    per sample, within their ranges) through Albumentations' functions give its bytes; samples
    left alone keep theirs."""
    kernels = _kernels()
    images = np.stack([fixtures.photo(64, 72, seed=s) for s in range(8)])
    kwargs = dict(mean=(0.6, 0.65), std=(0.2, 0.35), gauss_sigma=(1.0, 2.0), cutout_threshold=(0.6, 0.62),
                  intensity=(0.3, 0.9), mode="mud", color=(40, 80, 20), probability=0.7, seed=3)
    got = sp.spatter(images, **kwargs).numpy()
    _, plan = sp.spatter_plan(images, *kwargs.values())
    params, seeds, _, _, _, sigma = (np.asarray(v) for v in plan)
    applied = 0
    for b in range(8):
        mean, std, cutout, intensity = params[b]
        if intensity == 0.0:
            np.testing.assert_array_equal(got[b], images[b])
            continue
        assert 0.6 <= mean <= 0.65 and 0.2 <= std <= 0.35 and 1.0 <= sigma[b] <= 2.0 and 0.3 <= intensity <= 0.9
        assert 0.6 <= cutout <= 0.62
        z = kernels.counter_normals(int(seeds[b]), 64 * 72).reshape(64, 72)
        want = albumentations_mud(images[b], z, mean, std, sigma[b], cutout, intensity, (40, 80, 20))
        assert_nearly_equal(got[b], want, f"sample {b}")
        applied += 1
    assert 3 <= applied <= 8


def test_rain_transform_draws_restated_through_albumentations_functions():
    """The default mode's own draws through Albumentations' rain functions give its bytes."""
    kernels = _kernels()
    images = np.stack([fixtures.photo(80, 64, seed=s) for s in range(6)])
    kwargs = dict(mean=(0.6, 0.7), std=(0.25, 0.35), gauss_sigma=(1.5, 2.5), cutout_threshold=(0.65, 0.7),
                  intensity=(0.4, 0.9), mode="rain", color=None, probability=0.8, seed=5)
    got = sp.spatter(images, **kwargs).numpy()
    _, plan = sp.spatter_plan(images, *kwargs.values())
    params, seeds, _, mask_taps, colour, sigma = (None if v is None else np.asarray(v) for v in plan)
    assert mask_taps is None and colour.tolist() == [238.0, 238.0, 175.0]
    applied = 0
    for b in range(6):
        mean, std, cutout, intensity = params[b]
        if intensity == 0.0:
            np.testing.assert_array_equal(got[b], images[b])
            continue
        z = kernels.counter_normals(int(seeds[b]), 80 * 64).reshape(80, 64)
        want = albumentations_rain(images[b], z, mean, std, sigma[b], cutout, intensity, (238, 238, 175))
        assert_nearly_equal(got[b], want, f"sample {b}")
        applied += 1
    assert 2 <= applied <= 6


def test_probability_inference_and_config():
    images = np.stack([fixtures.photo(48, 48, seed=s) for s in range(32)])
    t = tga.Spatter(mode="mud", probability=0.5, seed=4)
    out = t(images).numpy()
    kept = sum(np.array_equal(out[b], images[b]) for b in range(32))
    assert 6 <= kept <= 26, kept
    np.testing.assert_array_equal(t(images, training=False), images)
    again = tga.Spatter(**t.get_config())
    assert again.get_config() == t.get_config()
    assert tga.Spatter(mode="mud", mean=0.5).mean == (0.0, 0.5)  # a number x means (0, x)
    assert tga.Spatter.moves_targets is False
    rain = tga.Spatter(probability=1.0, seed=2)
    assert rain.mode == "rain" and not np.array_equal(rain(images).numpy(), images)
    np.testing.assert_array_equal(rain(images, training=False), images)


@pytest.mark.parametrize("kwargs, words", [
    (dict(mode="snow"), "'rain' or 'mud'"),
    (dict(mean=(0.7, 0.5)), "min <= max"),
    (dict(mode="mud", mean=(0.7, 0.5)), "min <= max"),
    (dict(mode="mud", std=(0.1, 1.5)), "std"),
    (dict(mode="mud", gauss_sigma=(1.0, 500.0)), "gauss_sigma"),
    (dict(mode="mud", cutout_threshold=-0.2), "cutout_threshold"),
    (dict(mode="mud", intensity=(0.2, 0.1)), "intensity"),
    (dict(mode="mud", color=(10, 20)), "RGB"),
    (dict(mode="mud", color=(10, 20, 300)), "RGB"),
    (dict(mode="mud", probability=1.5), "probability"),
])
def test_refusals_say_what_to_pass(kwargs, words):
    with pytest.raises(ValueError) as err:
        tga.Spatter(**kwargs)
    assert words in str(err.value), str(err.value)


def test_op_refuses_bad_shapes_and_grey_images():
    images = np.zeros((2, 8, 8, 3), np.uint8)
    t1, t2 = frames([1.0, 1.0])
    params, seeds = np.full((2, 4), 0.5), np.zeros(2, np.int32)
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError)):
        sp.spatter_op(images, params[:1], seeds, t1, t2, (1.0, 2.0, 3.0))
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError)):
        sp.spatter_op(images, params, seeds, t1[:, :-1], t2, (1.0, 2.0, 3.0))  # an even frame
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError), match="RGB"):
        sp.spatter_op(np.zeros((2, 8, 8, 4), np.uint8), params, seeds, t1, t2, (1.0, 2.0, 3.0))
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError), match="RGB"):
        sp.spatter_rain_op(np.zeros((2, 8, 8, 4), np.uint8), params, seeds, t1, (1.0, 2.0, 3.0))
    for mode in ("mud", "rain"):
        with pytest.raises(ValueError, match="RGB"):
            sp.spatter(np.zeros((2, 8, 8, 1), np.uint8), mode=mode, seed=1)
