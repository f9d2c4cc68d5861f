"""Thread safety: every op run from many threads at once (a tf.data map with a private
16-thread pool, and concurrent tf.function calls from Python threads) gives exactly the
results of serial runs."""
import concurrent.futures

import numpy as np
import pytest
import tensorflow as tf

import tfgpuaug as tga
from fixtures import jpeg_bytes, photo, pil_png_bytes
from PIL import Image

N = 24


@pytest.fixture(scope="module")
def blobs():
    out = []
    for i in range(N):
        img = photo(60 + 7 * i, 90 - 2 * i, 3, seed=i)
        out.append(pil_png_bytes(Image.fromarray(img)) if i % 5 == 4 else jpeg_bytes(img))
    return tf.constant(out)


def _ops():
    """name -> f(contents [b], index scalar) -> dense tensor; deterministic given index."""
    def seed(i):
        return tf.stack([tf.constant(5, tf.int64), tf.cast(i, tf.int64)])

    def rrc(x, i):
        return tga.random_resized_crop(x, 32, seed=seed(i), mirror=0.5, mean=tga.IMAGENET_MEAN,
                                       std=tga.IMAGENET_STD)

    def policies(x, i):
        img = tga.random_resized_crop(x, 40, seed=seed(i))
        img = tga.augment.rand_augment(img, 3, 12, seed=seed(i))
        img = tga.augment.trivial_augment(img, seed=seed(i + 1000))
        return tga.augment.auto_augment(img, "imagenet", seed=seed(i + 2000))

    return {
        "decode": lambda x, i: tga.decode_image(x).flat_values,
        "decode_window": lambda x, i: tga.decode_image(
            x, crop_window=tf.tile([[3, 5, 20, 30]], [tf.shape(x)[0], 1])).flat_values,
        "image_shape": lambda x, i: tga.image_shape(x),
        "random_resized_crop_fused": rrc,
        "resize_center_crop": lambda x, i: tga.resize_center_crop(x, 48, 40),
        "resize_ragged_bicubic": lambda x, i: tga.resize(tga.decode_image(x), 37, method="bicubic"),
        "crop_mirror_normalize": lambda x, i: tga.crop_mirror_normalize(
            tga.resize_center_crop(x, 40, 32), tga.IMAGENET_MEAN, tga.IMAGENET_STD, mirror=0.5,
            seed=seed(i), dtype=tf.float16, layout="NCHW"),
        "warp_affine": lambda x, i: tga.warp_affine(
            tga.resize_center_crop(x, 40, 40),
            tf.tile([[[0.9, 0.2, 3.0], [-0.1, 1.1, -2.0]]], [tf.shape(x)[0], 1, 1])),
        "policies": policies,
    }


@pytest.mark.parametrize("name", sorted(_ops()))
def test_parallel_map_equals_serial(blobs, name):
    fn = _ops()[name]
    ds = tf.data.Dataset.from_tensor_slices(blobs).batch(1).enumerate()
    serial = [fn(x, i).numpy() for i, x in ds]
    options = tf.data.Options()
    options.threading.private_threadpool_size = 16
    options.deterministic = True
    parallel = ds.map(lambda i, x: fn(x, i), num_parallel_calls=16).with_options(options)
    for k in range(2):  # twice: reuse of per-thread state must not leak between runs
        for a, b in zip(serial, parallel):
            np.testing.assert_array_equal(a, b.numpy(), err_msg=f"{name} round {k}")


def test_concurrent_tf_function_calls_equal_serial(blobs):
    ops = _ops()

    @tf.function
    def everything(x, i):
        return [ops[name](x, i) for name in sorted(ops)]

    args = [(blobs[k:k + 3], tf.constant(k, tf.int64)) for k in range(0, N, 3)]
    serial = [[t.numpy() for t in everything(*a)] for a in args]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        for _ in range(2):
            results = list(pool.map(lambda a: [t.numpy() for t in everything(*a)], args * 2))
            for got, want in zip(results, serial * 2):
                for g, w in zip(got, want):
                    np.testing.assert_array_equal(g, w)
