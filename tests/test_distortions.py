"""ElasticTransform, GridDistortion, OpticalDistortion (PiecewiseAffine and ThinPlateSpline for
their targets) and the Remap kernel under them (issue 36). The kernel is held to a numpy port
of cv2.remap's rules written here (OpenCV 4.11+: float32 lerps, half-to-even rounding,
OpenCV's border rules), bit for bit; the maps to numpy ports of Albumentations' map builders
fed the same draws; boxes to the rectangle oracle (the extent of the box's remapped pixel
mask); keypoints to the map itself (the output position found maps back onto the keypoint).
Where OpenCV and Albumentations are installed (a dev venv), they are checked directly too."""
import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from tfgpuaug import distortions as dd
from tfgpuaug import targets as tg

BORDERS = ("constant", "replicate", "reflect", "wrap", "reflect_101")


def border_index(i, n, mode):
    """OpenCV's borderInterpolate; -1 for the constant fill."""
    i = np.asarray(i, np.int64)
    inside = (i >= 0) & (i < n)
    if mode == "constant":
        return np.where(inside, i, -1)
    if mode == "replicate":
        return np.clip(i, 0, n - 1)
    if mode == "wrap":
        return np.mod(i, n)
    if mode == "reflect":
        j = np.mod(np.where(i < 0, -i - 1, i), 2 * n)
        return np.where(j >= n, 2 * n - 1 - j, j)
    if n == 1:
        return np.zeros_like(i)
    p = 2 * (n - 1)
    j = np.mod(np.abs(i), p)
    return np.where(j >= n, p - j, j)


def numpy_remap(img, maps, interpolation, mode, fill):
    """[H, W, C] uint8 through [h, w, 2] as cv2.remap (4.11+) computes it."""
    h, w = img.shape[:2]
    mx, my = maps[..., 0].astype(np.float32), maps[..., 1].astype(np.float32)
    usable = (np.abs(mx) < 2 ** 22) & (np.abs(my) < 2 ** 22)
    mx, my = np.where(usable, mx, 0).astype(np.float32), np.where(usable, my, 0).astype(np.float32)

    def tap(r, c):
        ok = (r >= 0) & (c >= 0)
        return np.where(ok[..., None], img[np.maximum(r, 0), np.maximum(c, 0)].astype(np.float32),
                        np.float32(fill))

    if interpolation == "nearest":
        out = tap(border_index(np.rint(my), h, mode), border_index(np.rint(mx), w, mode))
    else:
        x0, y0 = np.floor(mx), np.floor(my)
        a, b = (mx - x0).astype(np.float32)[..., None], (my - y0).astype(np.float32)[..., None]
        c0, c1 = border_index(x0, w, mode), border_index(x0 + 1, w, mode)
        r0, r1 = border_index(y0, h, mode), border_index(y0 + 1, h, mode)
        lerp = lambda p, q, t: (p + ((q - p) * t).astype(np.float32)).astype(np.float32)  # noqa: E731
        top, bottom = lerp(tap(r0, c0), tap(r0, c1), a), lerp(tap(r1, c0), tap(r1, c1), a)
        out = np.clip(np.rint(lerp(top, bottom, b)), 0, 255)
    return np.where(usable[..., None], out, np.float32(fill)).astype(np.uint8)


@pytest.fixture(scope="module")
def photos():
    rng = np.random.default_rng(5)
    return rng.integers(0, 256, (2, 29, 37, 3), dtype=np.uint8)


def random_maps(rng, n, h, w, out_hw, scale=None):
    """Coordinates over two image sizes either side of the image (several border periods),
    on a 1/scale grid (ties of the rounding) when scale is given."""
    shape = (n,) + out_hw
    if scale is None:
        x, y = rng.uniform(-1.5 * w, 2.5 * w, shape), rng.uniform(-1.5 * h, 2.5 * h, shape)
    else:
        x = rng.integers(int(-1.5 * w * scale), int(2.5 * w * scale), shape) / scale
        y = rng.integers(int(-1.5 * h * scale), int(2.5 * h * scale), shape) / scale
    return np.stack([x, y], -1).astype(np.float32)


@pytest.mark.parametrize("border_mode", BORDERS)
@pytest.mark.parametrize("interpolation", ["bilinear", "nearest"])
def test_remap_matches_the_numpy_port_of_cv2(photos, border_mode, interpolation):
    """Bit for bit, over random coordinates and coordinates on 1/2 and 1/64 grids (the ties of
    both roundings), another output size, NaN and huge values (the fill in every mode).
    Mutants caught: rounding half up instead of half to even (the 1/2 grid), reflect for
    reflect_101 (every out-of-image tap), the fill in place of border pixels."""
    rng = np.random.default_rng(hash((border_mode, interpolation)) % 2 ** 32)
    for scale in (None, 2, 64):
        maps = random_maps(rng, 2, 29, 37, (17, 23), scale)
        maps[:, 0, :3] = [[np.nan, 3.0], [1e9, 2.0], [-3e7, np.inf]]
        got = tga.remap(photos, maps, interpolation, border_mode, fill=7.0).numpy()
        for i in range(2):
            np.testing.assert_array_equal(got[i], numpy_remap(photos[i], maps[i], interpolation, border_mode, 7.0),
                                          err_msg=f"{border_mode} {interpolation} scale={scale} sample {i}")


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_remap_interior_vector_loop_matches_the_numpy_port(channels):
    """Smooth maps (a small rotation and shift) keep most pixels' four neighbours inside the
    image, so the CPU's eight-pixel AVX2 loop takes them, up to the last rows and columns (where
    its four-byte gathers must not run past the image); every byte equals the numpy port, on
    images as small as the loop allows and on one a map row longer than eight pixels."""
    rng = np.random.default_rng(channels)
    for h, w, out_hw in ((29, 37, (29, 37)), (3, 2, (4, 9)), (5, 3, (6, 17)), (64, 80, (61, 83))):
        img = rng.integers(0, 256, (1, h, w, channels), dtype=np.uint8)
        ys, xs = np.mgrid[0:out_hw[0], 0:out_hw[1]].astype(np.float64)
        for angle, shift in ((0.0, 0.0), (0.05, 0.3), (-0.2, -0.7)):
            mx = np.cos(angle) * xs * (w - 1) / max(out_hw[1] - 1, 1) - np.sin(angle) * ys + shift
            my = np.sin(angle) * xs + np.cos(angle) * ys * (h - 1) / max(out_hw[0] - 1, 1) + shift
            maps = np.stack([mx, my], -1)[None].astype(np.float32)
            for border in ("constant", "reflect_101"):
                got = tga.remap(img, maps, "bilinear", border, fill=9.0).numpy()[0]
                np.testing.assert_array_equal(got, numpy_remap(img[0], maps[0], "bilinear", border, 9.0),
                                              err_msg=f"{h}x{w}x{channels} {angle} {shift} {border}")


def test_remap_matches_opencv_where_installed(photos):
    cv2 = pytest.importorskip("cv2")
    if tuple(int(v) for v in cv2.__version__.split(".")[:2]) < (4, 11):
        pytest.skip("OpenCV before 4.11 blends with 5-bit fixed-point weights")
    codes = dict(constant=cv2.BORDER_CONSTANT, replicate=cv2.BORDER_REPLICATE, reflect=cv2.BORDER_REFLECT,
                 wrap=cv2.BORDER_WRAP, reflect_101=cv2.BORDER_REFLECT_101)
    rng = np.random.default_rng(1)
    maps = random_maps(rng, 2, 29, 37, (31, 41))
    for name, code in codes.items():
        for interpolation, flag in (("bilinear", cv2.INTER_LINEAR), ("nearest", cv2.INTER_NEAREST)):
            got = tga.remap(photos, maps, interpolation, name, fill=9.0).numpy()
            for i in range(2):
                ref = cv2.remap(photos[i], maps[i], None, flag, borderMode=code, borderValue=(9, 9, 9))
                np.testing.assert_array_equal(got[i], ref, err_msg=f"{name} {interpolation}")


def affine_maps(matrices, out_h, out_w):
    """The maps of remap_affine's matrices, in its float32 order: (m0 x + m1 y) + m2."""
    m = np.asarray(matrices, np.float32)[:, :, :, None, None]
    ys, xs = np.mgrid[0:out_h, 0:out_w].astype(np.float32)
    mx = (m[:, 0, 0] * xs + m[:, 0, 1] * ys) + m[:, 0, 2]
    my = (m[:, 1, 0] * xs + m[:, 1, 1] * ys) + m[:, 1, 2]
    return np.stack([mx, my], -1).astype(np.float32)


@pytest.mark.parametrize("channels", [1, 3, 4, 5])
def test_remap_affine_equals_remap_through_the_same_maps(channels):
    """The affine remap computes each map entry in the kernel: bit for bit the numpy port of
    cv2.remap through the maps numpy computes from the matrices the same way, in every border
    mode and interpolation, a larger and a smaller output, rotations, a shear, a translation
    far outside and a NaN matrix (the fill). Mutants caught: x and y swapped in the matrix
    product, the output size ignored, the CPU's chunked map rows misaligned (widths of 37 and
    83 are not multiples of the 64-pixel chunk)."""
    rng = np.random.default_rng(channels)
    img = rng.integers(0, 256, (4, 29, 37, channels), dtype=np.uint8)
    t = np.radians([20.0, -135.0, 0.0, 90.0])
    matrices = np.stack([[[0.9 * np.cos(a), -np.sin(a) + 0.2 * i, 18.0 - 9.0 * i],
                          [np.sin(a), 1.1 * np.cos(a), 14.5 + i]] for i, a in enumerate(t)]).astype(np.float32)
    matrices[2, 0, 2] = 1e8
    matrices[3, 1, 1] = np.nan
    for size in ((29, 37), (61, 83), (7, 5)):
        maps = affine_maps(matrices, *size)
        for border in BORDERS:
            for interpolation in ("bilinear", "nearest"):
                got = dd.remap_affine(img, matrices, size, interpolation, border, fill=7.0).numpy()
                assert got.shape == (4, *size, channels)
                for i in range(4):
                    np.testing.assert_array_equal(got[i], numpy_remap(img[i], maps[i], interpolation, border, 7.0),
                                                  err_msg=f"{size} {border} {interpolation} sample {i}")


def test_remap_affine_shapes_and_refusals(photos):
    identity = np.tile(np.array([[[1, 0, 0], [0, 1, 0]]], np.float32), [2, 1, 1])
    np.testing.assert_array_equal(dd.remap_affine(photos, identity).numpy(), photos)
    traced = tf.function(lambda x, m: dd.remap_affine(x, m, [10, 12]),
                         input_signature=[tf.TensorSpec([None, None, None, 3], tf.uint8),
                                          tf.TensorSpec([None, 2, 3], tf.float32)])
    assert traced.get_concrete_function().structured_outputs.shape.as_list() == [None, 10, 12, 3]
    with pytest.raises(ValueError, match=r"matrices must be \[B, 2, 3\]"):
        dd.remap_affine(photos, np.zeros([2, 3, 3], np.float32))
    with pytest.raises(ValueError, match="uint8 images"):
        dd.remap_affine(tf.cast(photos, tf.float32), identity)
    with pytest.raises(ValueError, match="border_mode must be one of"):
        dd.remap_affine(photos, identity, border_mode="mirror")
    with pytest.raises(tf.errors.InvalidArgumentError, match="one matrix per image"):
        dd.remap_affine(photos, identity[:1])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"size must be in \[0, 2\^24\]"):
        tf.function(lambda s: dd.remap_affine(photos, identity, s))(tf.constant([-1, 4]))


@pytest.mark.parametrize("border", ["replicate", "reflect", "wrap", "reflect_101"])
def test_random_affine_border_modes_are_the_affine_remap_of_its_matrix(photos, border):
    """RandomAffine with an OpenCV border rule (Albumentations' Affine/ShiftScaleRotate
    `border_mode`): bit for bit the numpy port of cv2.remap through its own matrix taken to
    pixel indices (M (x + 0.5, y + 0.5) - 0.5), masks by the nearest remap with the same rule;
    inside the image it agrees with the "constant" path (TensorFlow's projective transform)
    within one level. Mutant caught: the half-pixel shift left out (every pixel moves)."""
    from tfgpuaug.augment.random_affine import affine_matrices
    t = tga.RandomAffine(degrees=(25.0, 25.0), scale=(0.8, 0.8), border_mode=border)
    mask = photos[..., :1] // 128
    out, moved = t.apply(tf.constant(photos), tg.Targets(masks=tf.constant(mask)), seed=tf.constant([3, 4]))
    m = affine_matrices(2, 29, 37, t.degrees, t.translate, t.scale, t.shear, 1.0, tf.constant([1, 2])).numpy()
    index = np.stack([m[:, 0, 0], m[:, 0, 1], (m[:, 0, 0] * 0.5 + m[:, 0, 1] * 0.5 + m[:, 0, 2]) - 0.5,
                      m[:, 1, 0], m[:, 1, 1], (m[:, 1, 0] * 0.5 + m[:, 1, 1] * 0.5 + m[:, 1, 2]) - 0.5], 1)
    maps = affine_maps(index.reshape(-1, 2, 3).astype(np.float32), 29, 37)
    constant = tga.RandomAffine(degrees=(25.0, 25.0), scale=(0.8, 0.8))(photos, seed=tf.constant([3, 4])).numpy()
    inside = (maps[..., 0] >= 0) & (maps[..., 0] <= 35) & (maps[..., 1] >= 0) & (maps[..., 1] <= 27)
    for i in range(2):
        np.testing.assert_array_equal(out.numpy()[i], numpy_remap(photos[i], maps[i], "bilinear", border, 0.0))
        np.testing.assert_array_equal(moved.masks.numpy()[i], numpy_remap(mask[i], maps[i], "nearest", border, 0.0))
        diff = np.abs(out.numpy()[i].astype(int) - constant[i])[inside[i]]
        assert diff.max() <= 1, diff.max()
    with pytest.raises(ValueError, match="uint8 images"):
        t(tf.cast(photos, tf.float32), seed=tf.constant([3, 4]))
    with pytest.raises(ValueError, match="border_mode must be one of"):
        tga.RandomAffine(degrees=5, border_mode="mirror")


def test_identity_maps_copy_the_image_exactly(photos):
    maps = dd.identity_maps(2, 29, 37)
    for interpolation in ("bilinear", "nearest"):
        np.testing.assert_array_equal(tga.remap(photos, maps, interpolation).numpy(), photos)


def test_remap_refuses_what_it_cannot_read(photos):
    with pytest.raises(ValueError, match="uint8 images"):
        tga.remap(photos.astype(np.float32), dd.identity_maps(2, 29, 37))
    with pytest.raises(ValueError, match=r"\[B, H, W, 2\]"):
        tga.remap(photos, tf.zeros([2, 29, 37, 3]))
    with pytest.raises(ValueError, match="border_mode"):
        tga.remap(photos, dd.identity_maps(2, 29, 37), border_mode="mirror")
    with pytest.raises(tf.errors.InvalidArgumentError, match="one map per image"):
        tga.remap(photos, dd.identity_maps(3, 29, 37))


def numpy_blur_matrix(n, sigma, ksize):
    r = ksize // 2
    t = np.arange(ksize) - r
    g = np.exp(-t * t / (2 * sigma * sigma))
    g /= g.sum()
    k = np.zeros((n, n))
    for i in range(n):
        for tap, weight in zip(np.clip(i + t, 0, n - 1), g):
            k[i, tap] += weight
    return k


def hash_uniform(seed, index):
    """A numpy restatement of the counter hash (counter_hash.h): uniforms in (0, 1)."""
    m = np.uint64(0xFFFFFFFF)
    x = ((np.uint64(np.uint32(seed)) * np.uint64(0x9E3779B9)) & m) ^ ((index.astype(np.uint64) + 0x7F4A7C15) & m)
    x ^= x >> np.uint64(16)
    x = (x * np.uint64(0x85EBCA6B)) & m
    x ^= x >> np.uint64(13)
    x = (x * np.uint64(0xC2B2AE35)) & m
    x ^= x >> np.uint64(16)
    return ((x >> np.uint64(8)).astype(np.float64) + 0.5) / 2.0**24


def numpy_elastic_noise(seed, count, gaussian):
    """Elements 0..count of a sample's noise: uniform in (-1, 1), or Box-Muller pairs (element
    2k the cosine normal of uniforms 2k and 2k + 1, element 2k + 1 the sine one), in float64."""
    e = np.arange(count, dtype=np.uint64)
    if not gaussian:
        return 2.0 * hash_uniform(seed, e) - 1.0
    pair = e & ~np.uint64(1)
    r = np.sqrt(-2.0 * np.log(hash_uniform(seed, pair)))
    angle = 2.0 * np.pi * hash_uniform(seed, pair + np.uint64(1))
    return np.where(e % 2 == 0, r * np.cos(angle), r * np.sin(angle))


@pytest.mark.parametrize("h,w,sigma,same,distribution", [
    (23, 31, 3.0, False, "gaussian"), (17, 9, 6.0, True, "gaussian"), (12, 40, 1.5, False, "uniform"),
    (8, 6, 50.0, False, "gaussian"),  # a kernel (401 taps) far wider than the image: every tap clamps
])
def test_elastic_maps_are_blurred_scaled_noise(h, w, sigma, same, distribution):
    """The maps are the pixel grid plus alpha times each sample's counter-hash noise (restated
    in numpy above, normal noise divided by its largest magnitude), blurred separably with
    replicated edges by cv2's kernel size (the blur matrix below, equal to cv2.GaussianBlur where
    OpenCV is installed): to 2e-4 px at alpha 40 (float32 sums against float64). A sample that
    is not applied keeps the grid exactly."""
    n, alpha = 3, 40.0
    seeds = dd.elastic_seeds(n, tf.constant([4, 5], tf.int64)).numpy()
    applied = tf.constant([True, False, True])
    maps = dd.elastic_maps(n, h, w, alpha, sigma, same_dxdy=same, noise_distribution=distribution,
                           seed=tf.constant([4, 5], tf.int64), applied=applied).numpy()
    ksize = dd.elastic_kernel_size(sigma, False)
    kh, kw = numpy_blur_matrix(h, sigma, ksize), numpy_blur_matrix(w, sigma, ksize)
    grid = np.stack(np.meshgrid(np.arange(w), np.arange(h)), -1).astype(np.float64)
    fields = 1 if same else 2
    for b in range(n):
        noise = numpy_elastic_noise(seeds[b], fields * h * w, distribution == "gaussian").reshape(fields, h, w)
        if distribution == "gaussian":
            noise /= np.abs(noise).max()
        blurred = np.einsum("ij,kjl,ml->kim", kh, noise, kw) * alpha * bool(applied[b])
        expected = grid + np.stack([blurred[0], blurred[-1]], -1)
        np.testing.assert_allclose(maps[b], expected, atol=2e-4)
    np.testing.assert_array_equal(maps[1], grid)


def test_elastic_noise_is_standard_normal_or_uniform():
    """The hash noise has the distribution it claims: with a one-tap kernel (sigma tiny) the maps
    minus the grid are the noise itself times alpha over its peak: 2e5 normal values have mean
    within 0.01 and deviation within 0.01 of (0, 1), no two neighbours correlated beyond 0.01; the
    uniform ones fill (-1, 1) with deviation 1/sqrt(3) (to 0.01)."""
    h = w = 316
    seeds = tf.constant([11], tf.int32)
    ops = dd._loader.ops()
    size = tf.constant([h, w])
    for distribution in ("gaussian", "uniform"):
        maps = ops.tf_gpu_aug_elastic_maps(seeds, tf.constant([1.0]), tf.constant([1.0]), size,
                                           noise_distribution=distribution).numpy()[0]
        grid = np.stack(np.meshgrid(np.arange(w), np.arange(h)), -1)
        noise = (maps - grid).reshape(-1).astype(np.float64)
        if distribution == "gaussian":
            raw = numpy_elastic_noise(11, 2 * h * w, True)
            noise *= np.abs(raw).max()  # undo the division by the peak
            assert abs(noise.mean()) < 0.01 and abs(noise.std() - 1.0) < 0.01
        else:
            # (the grid's rounding near x = 315 moves a value by up to 3e-5)
            assert -1.0001 < noise.min() < -0.999 and 0.999 < noise.max() < 1.0001
            assert abs(noise.std() - 3 ** -0.5) < 0.01
        assert abs(np.corrcoef(noise[:-1], noise[1:])[0, 1]) < 0.01


def test_elastic_maps_refuse_bad_arguments():
    ops = dd._loader.ops()
    good = dict(seeds=tf.constant([1, 2]), alpha=tf.constant([1.0, 1.0]), kernel=tf.constant([0.25, 0.5, 0.25]),
                size=tf.constant([4, 5]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="odd number of taps"):
        ops.tf_gpu_aug_elastic_maps(**{**good, "kernel": tf.constant([0.5, 0.5])})
    with pytest.raises(tf.errors.InvalidArgumentError, match="size must be 1 to"):
        ops.tf_gpu_aug_elastic_maps(**{**good, "size": tf.constant([0, 5])})
    with pytest.raises(tf.errors.InvalidArgumentError, match="size must be 1 to"):
        ops.tf_gpu_aug_elastic_maps(**{**good, "size": tf.constant([1 << 15, 1 << 15])})  # 4 GiB of maps
    with pytest.raises((tf.errors.InvalidArgumentError, ValueError), match="seeds and alpha|Dimensions must"):
        ops.tf_gpu_aug_elastic_maps(**{**good, "alpha": tf.constant([1.0])})


def test_blur_matrix_matches_opencv_where_installed():
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(2)
    field = rng.uniform(-1, 1, (19, 27)).astype(np.float32)
    for sigma in (0.8, 3.0, 11.0):
        ksize = dd.elastic_kernel_size(sigma, False)
        kh = dd.gaussian_blur_matrix(19, sigma, ksize).numpy()
        kw = dd.gaussian_blur_matrix(27, sigma, ksize).numpy()
        ref = cv2.GaussianBlur(field, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)
        np.testing.assert_allclose(kh @ field @ kw.T, ref, atol=1e-5)


def albumentations_grid(h, w, num_steps, steps_x, steps_y, normalized):
    """A numpy port of Albumentations 2.0.8's normalize_grid_distortion_steps + generate_grid."""
    steps_x, steps_y = list(steps_x), list(steps_y)
    if normalized:
        for size, steps in ((w, steps_x), (h, steps_y)):
            cell = size // num_steps
            last = min(size, (num_steps + 1) * cell) - num_steps * cell
            steps[-1] *= last / cell
        steps_x = np.array(steps_x) * ((w / (w // num_steps)) / np.sum(steps_x))
        steps_y = np.array(steps_y) * ((h / (h // num_steps)) / np.sum(steps_y))

    def axis(size, steps):
        cell = size // num_steps
        values, prev = np.zeros(size, np.float32), 0.0
        for idx, step in enumerate(steps):
            start, end = idx * cell, min(idx * cell + cell, size)
            cur = prev + cell * step
            values[start:end] = np.linspace(prev, cur, end - start)
            prev = cur
        return values

    return np.stack(np.meshgrid(axis(w, steps_x), axis(h, steps_y)), -1)


@pytest.mark.parametrize("hw,num_steps", [((29, 37), 5), ((40, 40), 7), ((13, 50), 1), ((31, 24), 4)])
@pytest.mark.parametrize("normalized", [True, False])
def test_grid_maps_match_albumentations_for_the_same_steps(hw, num_steps, normalized):
    steps = dd.grid_steps(3, num_steps, (-0.4, 0.3), seed=[7, 8])
    maps = dd.grid_maps(hw[0], hw[1], num_steps, steps, normalized).numpy()
    for i, s in enumerate(steps.numpy()):
        np.testing.assert_allclose(maps[i], albumentations_grid(*hw, num_steps, s[0], s[1], normalized),
                                   atol=1e-4, err_msg=f"sample {i}")
    alb = pytest.importorskip("albumentations.augmentations.geometric.functional")
    for i, s in enumerate(steps.numpy()):
        st = (alb.normalize_grid_distortion_steps(hw, num_steps, list(s[0]), list(s[1])) if normalized
              else dict(steps_x=s[0], steps_y=s[1]))
        ref = np.stack(alb.generate_grid(hw, st["steps_x"], st["steps_y"], num_steps), -1)
        np.testing.assert_allclose(maps[i], ref, atol=1e-4)


def test_optical_maps_follow_the_lens_models():
    """camera: OpenCV's undistortion map with distortion (k, k, 0, 0, 0), written out here in
    numpy (and cv2.initUndistortRectifyMap itself where installed); fisheye: Albumentations'
    formula."""
    h, w = 30, 44
    k = np.array([-0.3, 0.2], np.float32)
    camera = dd.optical_maps(h, w, k, "camera").numpy()
    u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    for i, ki in enumerate(k.astype(np.float64)):
        x, y = (u - w / 2) / w, (v - h / 2) / h
        r2 = x * x + y * y
        s = 1 + ki * r2 + ki * r2 * r2
        np.testing.assert_allclose(camera[i], np.stack([w / 2 + (u - w / 2) * s, h / 2 + (v - h / 2) * s], -1),
                                   atol=1e-4)
    fisheye = dd.optical_maps(h, w, k, "fisheye").numpy()
    r_max = np.hypot(w / 2, h / 2)
    for i, ki in enumerate(k):
        x, y = u - w / 2, v - h / 2
        s = 1 + ki * (x * x + y * y) / r_max ** 2
        np.testing.assert_allclose(fisheye[i], np.stack([x * s + w / 2, y * s + h / 2], -1), atol=1e-3)
    cv2 = pytest.importorskip("cv2")
    # OpenCV 5 and 4.10 (measured) build the map at pixel centres (u + 0.5 - cx); older builds,
    # which Albumentations' maps and these follow, at u - cx. Whichever the installed one does,
    # it must do exactly; ours is compared where it is the u - cx one.
    for i, ki in enumerate(k.astype(np.float64)):
        camera_matrix = np.array([[w, 0, w / 2], [0, h, h / 2], [0, 0, 1]], np.float32)
        mx, my = cv2.initUndistortRectifyMap(camera_matrix, np.array([ki, ki, 0, 0, 0], np.float32), None, None,
                                             (w, h), cv2.CV_32FC1)
        errors = {}
        for shift in (0.0, 0.5):
            x, y = (u + shift - w / 2) / w, (v + shift - h / 2) / h
            s = 1 + ki * (x * x + y * y) + ki * (x * x + y * y) ** 2
            expected = np.stack([w / 2 + (u + shift - w / 2) * s, h / 2 + (v + shift - h / 2) * s], -1)
            errors[shift] = np.abs(np.stack([mx, my], -1) - expected).max()
            if shift == 0.0 and errors[shift] <= 1e-3:
                np.testing.assert_allclose(camera[i], expected, atol=1e-3)
        assert min(errors.values()) <= 1e-3, (cv2.__version__, errors)


def rectangle_oracle(box, maps, in_hw):
    """The extent of the output pixels whose nearest input pixel has its centre in the box."""
    h, w = in_hw
    mask = np.zeros((h, w, 1), np.uint8)
    x0, y0, x1, y1 = box
    cols = (np.arange(w) + 0.5 >= x0) & (np.arange(w) + 0.5 < x1)
    rows = (np.arange(h) + 0.5 >= y0) & (np.arange(h) + 0.5 < y1)
    mask[np.ix_(rows, cols)] = 1
    moved = numpy_remap(mask, maps, "nearest", "constant", 0)[..., 0]
    ys, xs = np.nonzero(moved)
    if len(xs) == 0:
        return None
    return [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]


def inside_some_cell(maps, point):
    """Whether `point` lies inside the quadrilateral a map cell's four corners span (convex
    cells: the same side of all four edges)."""
    corners = [maps[:-1, :-1], maps[:-1, 1:], maps[1:, 1:], maps[1:, :-1]]
    sides = []
    for a, b in zip(corners, corners[1:] + corners[:1]):
        e, r = b - a, point - a
        sides.append(e[..., 0] * r[..., 1] - e[..., 1] * r[..., 0])
    sides = np.stack(sides)
    return bool(np.any(np.all(sides > 1e-6, axis=0) | np.all(sides < -1e-6, axis=0)))


def bilinear_map_at(maps, x, y):
    """The bilinear interpolation of maps [h, w, 2] at output position (x, y), index coordinates."""
    h, w = maps.shape[:2]
    x0, y0 = min(max(int(np.floor(x)), 0), w - 2), min(max(int(np.floor(y)), 0), h - 2)
    fx, fy = x - x0, y - y0
    m = maps.astype(np.float64)
    top = m[y0, x0] + (m[y0, x0 + 1] - m[y0, x0]) * fx
    bottom = m[y0 + 1, x0] + (m[y0 + 1, x0 + 1] - m[y0 + 1, x0]) * fx
    return top + (bottom - top) * fy


@pytest.mark.parametrize("transform", [
    tga.ElasticTransform(alpha=25.0, sigma=4.0, probability=1.0),
    tga.GridDistortion(num_steps=4, distort_limit=0.4, probability=1.0),
    tga.OpticalDistortion(distort_limit=(0.4, 0.6), probability=1.0),
    tga.OpticalDistortion(distort_limit=(-0.8, -0.6), mode="fisheye", probability=1.0),
    tga.PiecewiseAffine(scale=(0.05, 0.08), nb_rows=(3, 4), probability=1.0),
    tga.ThinPlateSpline(scale_range=(0.3, 0.5), probability=1.0),
], ids=["elastic", "grid", "optical-camera", "optical-fisheye", "piecewise-affine", "thin-plate-spline"])
def test_targets_follow_the_map(transform, photos):
    """Per sample, against the maps the transform drew (drawn again from the same seed): the
    image is remap(image, maps); the mask its nearest remap with fill 0; every box the
    rectangle oracle (dropped exactly when the oracle is empty); every kept keypoint sits where
    the map takes it (to 0.01 px) wherever a map cell covers it, and nowhere is it farther from
    its spot than the nearest output pixel's map value; every dropped one has no output pixel
    mapping within a pixel of it.
    Mutant caught: keypoints moved by the map forward (p + displacement) instead of inverted."""
    h, w = photos.shape[1:3]
    seed = tf.constant([11, 12], tf.int64)
    masks = np.zeros((2, h, w, 1), np.uint8)
    masks[:, 5:20, 8:30] = 3
    boxes = tf.ragged.constant([[[8.0, 5.0, 30.0, 20.0], [0.0, 0.0, 6.5, 4.2]],
                                [[14.2, 9.7, 25.1, 28.9], [30.0, 1.0, 37.0, 29.0], [1.0, 22.0, 3.0, 29.0]]],
                               ragged_rank=1)
    points = tf.ragged.constant([[[12.3, 7.8], [0.4, 0.6], [36.5, 28.5]], [[18.0, 14.5], [2.0, 27.0]]],
                                ragged_rank=1)
    targets = tg.Targets(boxes=boxes, masks=tf.constant(masks), keypoints=points)
    out, moved = transform.apply(photos, targets, seed=seed)
    s_maps, _ = tf.unstack(tf.random.experimental.stateless_split(seed, 2))
    maps = transform.maps(2, h, w, s_maps).numpy()
    kept_boxes, kept_points = moved.boxes.to_list(), moved.keypoints.to_list()
    exact = 0
    for i in range(2):
        np.testing.assert_array_equal(out[i].numpy(), numpy_remap(photos[i], maps[i], "bilinear", "constant", 0))
        np.testing.assert_array_equal(moved.masks[i].numpy(), numpy_remap(masks[i], maps[i], "nearest", "constant", 0))
        expected = [b for b in (rectangle_oracle(box, maps[i], (h, w)) for box in boxes[i].numpy()) if b is not None]
        np.testing.assert_allclose(kept_boxes[i], np.array(expected, np.float32).reshape(-1, 4))
        got = iter(kept_points[i])
        for p in points[i].numpy():
            nearest = np.min(np.hypot(maps[i][..., 0] - (p[0] - 0.5), maps[i][..., 1] - (p[1] - 0.5)))
            if nearest > 1.0:
                continue  # no output pixel samples within a pixel of it: dropped
            q = next(got)
            residual = np.hypot(*(bilinear_map_at(maps[i], q[0] - 0.5, q[1] - 0.5) - (p - 0.5)))
            assert residual <= nearest + 1e-5, (transform, i, p, q, residual)  # never worse than a pixel
            if inside_some_cell(maps[i], p - 0.5):  # the map reaches it: exact
                assert residual < 0.01, (transform, i, p, q, residual)
                exact += 1
        assert next(got, None) is None
    assert exact >= 2  # the check above ran


def test_probability_zero_and_inference_leave_everything_alone(photos):
    boxes = tf.ragged.constant([[[1.3, 2.7, 20.2, 21.9]], []], ragged_rank=1, inner_shape=(4,))
    points = tf.ragged.constant([[[3.3, 4.4]], [[5.5, 6.6]]], ragged_rank=1)
    targets = tg.Targets(boxes=boxes, keypoints=points)
    for t, training in ((tga.ElasticTransform(probability=0.0), True), (tga.GridDistortion(probability=0.0), True),
                        (tga.OpticalDistortion(probability=0.0), True), (tga.GridDistortion(probability=1.0), False),
                        (tga.PiecewiseAffine(probability=0.0), True), (tga.ThinPlateSpline(probability=1.0), False),
                        (tga.PiecewiseAffine(scale=0.0, probability=1.0), True)):
        out, moved = t.apply(photos, targets, seed=[1, 2], training=training)
        np.testing.assert_array_equal(np.asarray(out), photos)
        np.testing.assert_array_equal(moved.boxes.flat_values.numpy(), boxes.flat_values.numpy())
        np.testing.assert_array_equal(moved.keypoints.flat_values.numpy(), points.flat_values.numpy())


def test_a_distortion_runs_per_sample(photos):
    """Each sample draws its own map: the two copies of one image come out different."""
    twins = np.stack([photos[0], photos[0]])
    for t in (tga.ElasticTransform(alpha=20.0, sigma=3.0, probability=1.0),
              tga.GridDistortion(probability=1.0), tga.OpticalDistortion(0.5, probability=1.0),
              tga.PiecewiseAffine(scale=0.1, probability=1.0), tga.ThinPlateSpline(probability=1.0)):
        out = t(twins, seed=[3, 4]).numpy()
        assert (out[0] != out[1]).mean() > 0.2, t


def test_arguments_are_checked_at_construction():
    with pytest.raises(ValueError, match="sigma"):
        tga.ElasticTransform(sigma=0.0)
    with pytest.raises(ValueError, match="noise_distribution"):
        tga.ElasticTransform(noise_distribution="laplace")
    with pytest.raises(ValueError, match="num_steps"):
        tga.GridDistortion(num_steps=0)
    with pytest.raises(ValueError, match="distort_limit"):
        tga.GridDistortion(distort_limit=(-1.5, 0.2))
    with pytest.raises(ValueError, match="mode"):
        tga.OpticalDistortion(mode="barrel")
    with pytest.raises(ValueError, match="border_mode"):
        tga.OpticalDistortion(border_mode="mirror")
    with pytest.raises(ValueError, match="after a decoding transform"):
        tga.GridDistortion()(tf.constant([b"\xff\xd8"]))
    # narrower than num_steps (Albumentations divides by zero): one-pixel cells, a finite map
    small = dd.grid_maps(6, 20, 8, dd.grid_steps(1, 8, (-0.3, 0.3), seed=[1, 1])).numpy()
    assert np.isfinite(small).all() and small.shape == (1, 6, 20, 2)


def test_the_annotation_ops_refuse_rows_of_images_that_do_not_exist():
    from tfgpuaug import _loader
    maps = dd.identity_maps(2, 8, 9)
    with pytest.raises(tf.errors.InvalidArgumentError, match="names image 2 of a batch of 2"):
        _loader.ops().tf_gpu_aug_remap_boxes(maps, tf.zeros([1, 4]), tf.constant([2], tf.int64), [8, 9])
    with pytest.raises(tf.errors.InvalidArgumentError, match="names image -1"):
        _loader.ops().tf_gpu_aug_remap_points(maps, tf.zeros([1, 2]), tf.constant([-1], tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="reach"):
        _loader.ops().tf_gpu_aug_remap_points(maps, tf.zeros([1, 2]), tf.constant([0], tf.int64), reach=-1.0)
