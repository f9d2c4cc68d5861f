"""The library's graph code is built without AutoGraph: a pipeline's build converted every function
its transforms call (a 50-transform device stage took 62 s to build, 6.6 s without), and none of
that code needs conversion. Conversions are recorded by
wrapping AutoGraph's transpiler entry (TensorFlow's private `api._convert_actual`, as pinned)."""
import inspect
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf
from tensorflow.python.autograph.impl import api as autograph_api

import tfgpuaug as tga
from tfgpuaug import transforms as tr


# Prints "modules,functions": the modules `import tfgpuaug` loads and the bindings in them of the
# functions the package namespaces export; then each such binding that would be converted.
_LIST_UNMARKED = """
import inspect, sys
import tfgpuaug
from tfgpuaug import augment
exported = {getattr(p, n).__wrapped__ for p in (tfgpuaug, augment) for n in p.__all__
            if inspect.isfunction(getattr(p, n, None)) and hasattr(getattr(p, n), "__wrapped__")}
modules = [m for n, m in list(sys.modules.items()) if n.startswith("tfgpuaug.") and m is not None]
bound = [(m, n) for m in modules for n, v in vars(m).items()
         if inspect.isfunction(v) and (v in exported or getattr(v, "__wrapped__", None) in exported)]
print(f"{len(modules)},{len(bound)}")
for m, n in bound:
    if not hasattr(getattr(m, n), "autograph_info__"):
        print(f"{m.__name__}.{n}")
"""


@pytest.fixture
def converted(monkeypatch):
    """The source files of the functions AutoGraph converts while the test runs (a method wrapped by
    do_not_convert is converted as the wrapper's code, TensorFlow's, which calls it unconverted)."""
    files = []
    convert = autograph_api._convert_actual

    def recording(entity, program_ctx):
        files.append(entity.__code__.co_filename)
        return convert(entity, program_ctx)

    monkeypatch.setattr(autograph_api, "_convert_actual", recording)
    return files


def _library(files):
    package = os.path.dirname(tga.__file__)
    return sorted({f for f in files if os.path.commonpath([package, os.path.abspath(f)]) == package})


def _transforms():
    return [tga.RandomResizedCrop(24), tga.RandAugment(), tga.GaussianBlur(), tga.RandomSunFlare(probability=1.0),
            tga.CLAHE(), tga.CropMirrorNormalize(mirror=0.5)]


def test_gpu_augment_builds_without_converting_the_library(converted):
    blobs = [tf.io.encode_jpeg(np.full([30, 40, 3], v, np.uint8)) for v in (10, 200)]
    ds = tf.data.Dataset.from_tensor_slices((tf.stack(blobs), [0, 1])).batch(2)
    out = ds.apply(tga.gpu_augment(_transforms(), device="/cpu:0", seed=1))
    images, labels = next(iter(out))
    assert images.shape == (2, 24, 24, 3) and images.dtype == tf.float32
    assert _library(converted) == []
    # the recorder does see conversions: a user's own map function is still converted
    tf.data.Dataset.range(3).map(lambda x: x + 1)
    assert converted, "the recording wrapper saw no conversion at all: the test would pass vacuously"


def test_transforms_in_a_users_map_and_tf_function_run_unconverted(converted):
    images = tf.constant(np.random.default_rng(0).integers(0, 256, [2, 28, 28, 3], np.uint8))

    def user_fn(x):
        for t in [tga.GaussianBlur(), tga.RandomSunFlare(probability=1.0), tga.RandAugment()]:
            x = t(x, seed=[1, 2])
        return x

    ds = tf.data.Dataset.from_tensors(images).map(user_fn)
    mapped = next(iter(ds)).numpy()
    traced = tf.function(user_fn)(images).numpy()
    np.testing.assert_array_equal(mapped, traced)  # the same seeds: the same stateless draws
    np.testing.assert_array_equal(mapped, user_fn(images).numpy())  # and eagerly
    assert _library(converted) == []
    assert __file__ in converted, "the user's own function should still be converted"


def _assert_map_converts_only_the_user(user_fn, converted, seed):
    """user_fn in a Dataset.map equals it eagerly, and AutoGraph converted it but no library file."""
    images = tf.constant(np.random.default_rng(seed).integers(0, 256, [2, 32, 32, 3], np.uint8))
    mapped = next(iter(tf.data.Dataset.from_tensors(images).map(user_fn))).numpy()
    np.testing.assert_array_equal(mapped, user_fn(images).numpy())
    assert _library(converted) == []
    assert __file__ in converted


def test_functions_in_a_users_map_run_unconverted(converted):
    from tfgpuaug import augment

    def user_fn(x):
        x = augment.random_clahe(x, (1.0, 4.0), (8, 8), 1.0, [1, 2])
        x = augment.random_gamma(x, (0.8, 1.2), 1.0, [1, 3])
        return tga.resize(x, (20, 20))

    _assert_map_converts_only_the_user(user_fn, converted, seed=2)


def test_functions_imported_from_submodules_run_unconverted(converted):
    """A user importing from the submodule itself gets the same unconverted function as the
    package namespace binds."""
    from tfgpuaug import augment
    from tfgpuaug.augment.photometric import random_gamma
    from tfgpuaug.geometry import resize

    assert random_gamma is augment.random_gamma and resize is tga.resize

    def user_fn(x):
        return resize(random_gamma(x, (0.8, 1.2), 1.0, [1, 3]), (20, 20))

    _assert_map_converts_only_the_user(user_fn, converted, seed=3)


def test_every_transform_class_marks_its_entry_points():
    classes, pending = [], [tr.Transform]
    while pending:
        cls = pending.pop()
        classes.append(cls)
        pending += cls.__subclasses__()
    classes = [cls for cls in classes if cls.__module__.split(".")[0] == "tfgpuaug"]
    assert len(classes) > 80
    for cls in classes:
        for name in ("__call__", "apply"):
            assert hasattr(getattr(cls, name), "autograph_info__"), f"{cls.__name__}.{name} would be converted"
    from tfgpuaug import augment
    for package in (tga, augment):  # and the public functions of the package namespaces
        functions = [name for name in package.__all__ if inspect.isfunction(getattr(package, name, None))]
        assert len(functions) > 10
        for name in functions:
            assert hasattr(getattr(package, name), "autograph_info__"), f"{package.__name__}.{name} would be converted"
    # and every binding of those functions in the modules the package's import loads (in a fresh
    # process: other tests import more modules)
    listing = subprocess.run([sys.executable, "-c", _LIST_UNMARKED], capture_output=True, text=True, check=True)
    counts, *unmarked = listing.stdout.split()
    modules, functions = map(int, counts.split(","))
    assert modules > 30 and functions > 150, counts
    assert unmarked == []


def test_keras_layers_in_a_fitted_model_run_unconverted(converted):
    keras = pytest.importorskip("keras")
    from tfgpuaug import keras as tk

    inputs = keras.Input((28, 28, 3), dtype="uint8")
    x = tk.RandomSunFlare(probability=1.0, seed=1)(inputs)
    x = tk.GaussianBlur(seed=2)(x)
    x = keras.layers.GlobalAveragePooling2D()(keras.layers.Rescaling(1 / 255)(x))
    model = keras.Model(inputs, keras.layers.Dense(2)(x))
    model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    images = np.random.default_rng(1).integers(0, 256, [4, 28, 28, 3], np.uint8)
    history = model.fit(images, np.array([0, 1, 0, 1]), epochs=1, batch_size=2, verbose=0)
    assert np.isfinite(history.history["loss"][0])
    assert _library(converted) == []


def test_a_users_subclass_keeps_autograph_for_its_own_code(converted):
    class Brighten(tr.Transform):  # Python control flow on a tensor: needs AutoGraph in a graph
        def __call__(self, images, seed=None, training: bool = True):
            if tf.reduce_mean(tf.cast(images, tf.float32)) < 128.0:
                images = images + 1
            return images

    images = tf.zeros([1, 4, 4, 3], tf.uint8)
    out = next(iter(tf.data.Dataset.from_tensors(images).map(lambda x: Brighten()(x))))
    np.testing.assert_array_equal(out.numpy(), 1)
    assert __file__ in converted
