"""RandomSunFlare (issue 36; Albumentations' transform, "overlay" method). The SunFlare op and
the transform's draws against a numpy statement of Albumentations' add_sun_flare_overlay (each
cv2.circle as dx^2 + dy^2 <= r^2, each add_weighted as SimSIMD's float32 rint(fma(a, x, b y)))
given the same circles, byte for byte; against Albumentations' function itself where installed
(byte for byte where SimSIMD's weighted sum is that fma on this CPU, as on AVX-512 ones; within
one level otherwise); probability, inference, config and refusals."""
import numpy as np
import pytest
import tensorflow as tf

import fixtures
import tfgpuaug as tga
from tfgpuaug.augment import sun_flare as sf


def weighted_sum(overlay, out, alpha):
    """SimSIMD's weighted sum of bytes as it runs on AVX-512 CPUs: rint(fma(a, x, b y)) in
    float32, a and b = 1 - alpha rounded to float32 (the fma is exact in float64 here)."""
    a, b = np.float32(alpha), np.float32(1.0 - alpha)
    product = (b * out.astype(np.float32)).astype(np.float64)
    total = (np.float64(a) * overlay.astype(np.float64) + product).astype(np.float32)
    return np.clip(np.rint(total), 0, 255).astype(np.uint8)


def numpy_sun_flare(image, sun, src_radius, src_color, circles, blend=weighted_sum):
    """Albumentations' add_sun_flare_overlay restated: circles [(alpha, (x, y), radius, colour)]."""
    overlay, out = image.copy(), image.copy()
    yy, xx = np.mgrid[0:image.shape[0], 0:image.shape[1]].astype(np.int64)
    weighted, total = 0.0, 0.0
    for alpha, (x, y), radius, colour in circles:
        weighted += alpha * radius
        total += radius
        overlay[(xx - x) ** 2 + (yy - y) ** 2 <= radius * radius] = colour
        out = blend(overlay, out, alpha)
    overlay = out.copy()
    times = src_radius // 10
    alphas = np.linspace(0.0, min(weighted / total * 5, 1.0), num=times)
    radii = np.linspace(1, src_radius, num=times)
    for i in range(times):
        r = int(radii[i])
        overlay[(xx - sun[0]) ** 2 + (yy - sun[1]) ** 2 <= r * r] = src_color
        a = alphas[times - i - 1]
        out = blend(overlay, out, a * a * a)
    return out


def random_circles(rng, h, w, sun, count, largest_rad=2):
    """Circles by Albumentations' law (points of a line through the sun, radii rad^3)."""
    angle = 2 * np.pi * rng.uniform()
    step = max(1, int(np.hypot(h, w) * 0.01))
    points = [(sun[0] + t * np.cos(angle), sun[1] + t * np.sin(angle)) for t in range(-sun[0], w - sun[0], step)]
    out = []
    for _ in range(count):
        p = points[rng.integers(len(points))]
        out.append((rng.uniform(0.05, 0.2), (int(p[0]), int(p[1])), int(rng.integers(1, largest_rad + 1)) ** 3,
                    tuple(int(v) for v in rng.integers([204, 204, 150], [256, 256, 201]))))
    return out


def op_arguments(circles_per_sample, suns, src_radius, src_color):
    n = max(len(c) for c in circles_per_sample)
    b = len(circles_per_sample)
    circles = np.full((b, n, 3), -1, np.int32)
    weights = np.zeros((b, n, 2), np.float32)
    colours = np.zeros((b, n, 3), np.uint8)
    sun_alpha = []
    radii = sf.sun_discs(src_radius)
    for i, cs in enumerate(circles_per_sample):
        for j, (alpha, (x, y), r, colour) in enumerate(cs):
            circles[i, j] = (x, y, r)
            weights[i, j] = (np.float32(alpha), np.float32(1.0 - alpha))
            colours[i, j] = colour
        top = min(sum(a * r for a, _, r, _ in cs) / sum(r for _, _, r, _ in cs) * 5, 1.0)
        ramp = np.linspace(0.0, top, num=len(radii))[::-1]
        sun_alpha.append(ramp * ramp * ramp)
    sun_alpha = np.array(sun_alpha).reshape(b, len(radii))
    sun_weights = np.stack([sun_alpha.astype(np.float32), (1.0 - sun_alpha).astype(np.float32)], -1)
    return circles, weights, colours, np.array(suns, np.int32), radii, sun_weights, np.array(src_color, np.uint8)


CASES = [((60, 80), 400, 6), ((97, 131), 90, 10), ((40, 33), 25, 3), ((224, 224), 400, 8), ((50, 70), 9, 4)]


@pytest.mark.parametrize("shape, src_radius, count", CASES)
def test_op_equals_numpy_statement(shape, src_radius, count):
    """Byte for byte: circles overlapping and over the edge (centres off the image), radii 1, 8
    and 27, the sun's discs from 1 to 400 pixels (none below src_radius 10)."""
    h, w = shape
    rng = np.random.default_rng(h * w + src_radius)
    images = np.stack([fixtures.photo(h, w, seed=s) for s in range(3)])
    suns = [(int(w * rng.uniform()), int(h * rng.uniform(0, 0.5))) for _ in range(3)]
    circles = [random_circles(rng, h, w, suns[i], count - i % 2, largest_rad=3) for i in range(3)]
    args = op_arguments(circles, suns, src_radius, (255, 250, 230))
    got = sf.sun_flare_op(images, *args).numpy()
    for b in range(3):
        want = numpy_sun_flare(images[b], suns[b], src_radius, (255, 250, 230), circles[b])
        np.testing.assert_array_equal(got[b], want, err_msg=f"sample {b}")
        assert not np.array_equal(want, images[b])


def _simsimd_is_fma():
    ss = pytest.importorskip("simsimd")
    a = np.repeat(np.arange(256, dtype=np.uint8), 256)
    b = np.tile(np.arange(256, dtype=np.uint8), 256)
    return all(np.array_equal(np.frombuffer(ss.wsum(a, b, alpha=al, beta=1 - al), np.uint8), weighted_sum(a, b, al))
               for al in (0.05, 0.33, 0.9, 0.0123))


def test_op_equals_albumentations_function_where_installed():
    """Albumentations 2.0.8's add_sun_flare_overlay with the same circles: byte for byte where
    SimSIMD's weighted sum is the fma statement above (this AVX-512 CPU), else within a level."""
    F = pytest.importorskip("albumentations.augmentations.pixel.functional")
    exact = _simsimd_is_fma()
    rng = np.random.default_rng(7)
    photos = [fixtures.photo(224, 224, seed=s) for s in range(4)]
    for image in photos:
        sun = (int(224 * rng.uniform()), int(112 * rng.uniform()))
        circles = random_circles(rng, 224, 224, sun, int(rng.integers(6, 11)))
        got = sf.sun_flare_op(image[None], *op_arguments([circles], [sun], 400, (255, 255, 255))).numpy()[0]
        want = F.add_sun_flare_overlay(image, sun, 400, (255, 255, 255), circles)
        if exact:
            np.testing.assert_array_equal(got, want)
        else:
            assert np.abs(got.astype(int) - want).max() <= 1


def test_transform_draws_restated_through_albumentations_function():
    """The transform's own draws (its plan) turned into Albumentations' circles list and sun:
    the numpy statement gives the transform's bytes (the sun's weights from the circles' float64
    weights and areas, their order, unused circles, samples left alone)."""
    images = np.stack([fixtures.photo(120, 150, seed=s) for s in range(6)])
    kwargs = dict(flare_roi=(0.1, 0.0, 0.9, 0.5), src_radius=150, src_color=(255, 240, 200), angle_range=(0.0, 1.0),
                  num_flare_circles_range=(2, 9), method="overlay", probability=0.7, seed=11)
    got = sf.random_sun_flare(images, **kwargs).numpy()
    _, plan = sf.sun_flare_plan(images, *kwargs.values())
    circles, _, colours, suns, _, sun_weights, _, alpha64 = (np.asarray(v) for v in plan)
    changed = 0
    for b in range(6):
        if not sun_weights[b, :, 0].any():  # left alone
            np.testing.assert_array_equal(got[b], images[b])
            continue
        used = circles[b, :, 2] >= 0
        listed = [(float(alpha64[b, j]), (int(circles[b, j, 0]), int(circles[b, j, 1])), int(circles[b, j, 2]),
                   tuple(int(v) for v in colours[b, j])) for j in np.flatnonzero(used)]
        assert 2 <= len(listed) <= 9 and np.all(used[:len(listed)])
        want = numpy_sun_flare(images[b], tuple(suns[b]), 150, (255, 240, 200), listed)
        np.testing.assert_array_equal(got[b], want, err_msg=f"sample {b}")
        changed += 1
    assert 2 <= changed <= 6


def test_probability_inference_and_config():
    images = np.stack([fixtures.photo(64, 64, seed=s) for s in range(32)])
    t = tga.RandomSunFlare(src_radius=60, probability=0.5, seed=4)
    out = t(images).numpy()
    kept = sum(np.array_equal(out[b], images[b]) for b in range(32))
    assert 6 <= kept <= 26, kept
    np.testing.assert_array_equal(t(images, training=False), images)
    again = tga.RandomSunFlare(**t.get_config())
    assert again.get_config() == t.get_config()
    assert tga.RandomSunFlare.moves_targets is False


@pytest.mark.parametrize("kwargs, words", [
    (dict(method="physics"), "method must be"),
    (dict(flare_roi=(0.5, 0.0, 0.5, 0.5)), "min < max"),
    (dict(src_radius=1), "src_radius"),
    (dict(src_radius=20000), "src_radius"),
    (dict(src_color=(255, 255)), "RGB"),
    (dict(angle_range=(0.5, 1.5)), "angle_range"),
    (dict(num_flare_circles_range=(0, 3)), "num_flare_circles_range"),
    (dict(num_flare_circles_range=(1, 65)), "num_flare_circles_range"),
    (dict(probability=-0.1), "probability"),
])
def test_refusals_say_what_to_pass(kwargs, words):
    with pytest.raises(ValueError) as err:
        tga.RandomSunFlare(**kwargs)
    assert words in str(err.value), str(err.value)


def test_op_refuses_bad_shapes_and_grey_images():
    images = np.zeros((2, 8, 8, 3), np.uint8)
    args = op_arguments([[(0.1, (1, 1), 1, (9, 9, 9))]] * 2, [(0, 0)] * 2, 30, (255, 255, 255))
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError)):
        sf.sun_flare_op(images, args[0][:1], *args[1:])
    with pytest.raises(ValueError, match="RGB"):
        sf.random_sun_flare(np.zeros((2, 8, 8, 1), np.uint8), seed=1)
