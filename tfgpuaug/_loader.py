"""Loads the op library once, after checking it was built for this TensorFlow."""
from __future__ import annotations

import os
import threading

import tensorflow as tf

from tfgpuaug._nvjpeg_path import point_to_nvjpeg

_LOCK = threading.Lock()
_OPS = None
_LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_tfgpuaug_ops.so")


def _running_minor() -> tuple:
    return tuple(int(x) for x in tf.__version__.split(".")[:2])


def _library_path() -> str:
    """A wheel's library for the running TensorFlow minor (_tfgpuaug_ops_tf2_21.so), else the
    source build's (_tfgpuaug_ops.<abi>.so)."""
    import glob

    here = os.path.dirname(_LIBRARY)
    major, minor = _running_minor()
    per_minor = os.path.join(here, f"_tfgpuaug_ops_tf{major}_{minor}.so")
    if os.path.exists(per_minor):
        return per_minor
    candidates = [p for p in glob.glob(os.path.join(here, "_tfgpuaug_ops*.so"))
                  if not os.path.basename(p).startswith("_tfgpuaug_ops_tf")]
    if not candidates:
        raise ImportError(
            "tfgpuaug's op library is not built. Install with "
            "`pip install --no-build-isolation .` (or `python setup.py build_ext --inplace`).")
    return candidates[0]


def _check_tf_version() -> None:
    from tfgpuaug import _build_info

    supported = tuple(tuple(m) for m in getattr(_build_info, "TF_MINORS", (_build_info.TF_MAJOR_MINOR,)))
    if _running_minor() not in supported:
        names = ", ".join(f"{a}.{b}" for a, b in supported)
        raise ImportError(
            f"tfgpuaug was built against TensorFlow {names} but TensorFlow {tf.__version__} is "
            "installed. TensorFlow's C++ ABI changes between releases: install a tfgpuaug wheel "
            "for this TensorFlow, or rebuild with `pip install --no-build-isolation --force-reinstall .`.")


def ops():
    """The generated op wrappers; loads and registers the library on first use."""
    global _OPS
    with _LOCK:
        if _OPS is None:
            _check_tf_version()
            point_to_nvjpeg()
            _OPS = tf.load_op_library(_library_path())
        return _OPS
