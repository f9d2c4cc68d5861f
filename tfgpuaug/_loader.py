"""Loads the op library once, after checking it was built for this TensorFlow."""
from __future__ import annotations

import os
import threading

import tensorflow as tf

_LOCK = threading.Lock()
_OPS = None
_LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_tfgpuaug_ops.so")


def _library_path() -> str:
    import glob

    candidates = glob.glob(os.path.join(os.path.dirname(_LIBRARY), "_tfgpuaug_ops*.so"))
    if not candidates:
        raise ImportError(
            "tfgpuaug's op library is not built. Install with "
            "`pip install --no-build-isolation .` (or `python setup.py build_ext --inplace`).")
    return candidates[0]


def _check_tf_version() -> None:
    from tfgpuaug import _build_info

    running = tuple(int(x) for x in tf.__version__.split(".")[:2])
    if running != tuple(_build_info.TF_MAJOR_MINOR):
        raise ImportError(
            f"tfgpuaug was built against TensorFlow {_build_info.TF_VERSION} but TensorFlow "
            f"{tf.__version__} is installed. TensorFlow's C++ ABI changes between releases: "
            "rebuild tfgpuaug with `pip install --no-build-isolation --force-reinstall .`.")


def _point_to_nvjpeg() -> None:
    """Lets the lazy GPU decoder find PyPI's libnvjpeg when it is installed."""
    if "TFGPUAUG_NVJPEG_PATH" in os.environ:
        return
    try:
        import nvidia.nvjpeg  # type: ignore
    except ImportError:
        return
    for base in getattr(nvidia.nvjpeg, "__path__", []):
        lib_dir = os.path.join(base, "lib")
        if os.path.isdir(lib_dir):
            for name in sorted(os.listdir(lib_dir)):
                if name.startswith("libnvjpeg.so"):
                    os.environ["TFGPUAUG_NVJPEG_PATH"] = os.path.join(lib_dir, name)
                    return


def ops():
    """The generated op wrappers; loads and registers the library on first use."""
    global _OPS
    with _LOCK:
        if _OPS is None:
            _check_tf_version()
            _point_to_nvjpeg()
            _OPS = tf.load_op_library(_library_path())
        return _OPS
