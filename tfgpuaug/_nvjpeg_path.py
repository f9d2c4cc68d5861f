"""Where PyPI's libnvjpeg lies, for the lazy GPU decoder (TFGPUAUG_NVJPEG_PATH). No TensorFlow
import: scripts/gpu_selfcheck.py loads this file on a machine without TensorFlow, so that it
finds nvJPEG exactly as the op library does."""
from __future__ import annotations

import os


def point_to_nvjpeg() -> str | None:
    """Sets TFGPUAUG_NVJPEG_PATH to PyPI's libnvjpeg when it is installed and the variable is
    unset; returns the path in effect (None: the decoder tries libnvjpeg.so.12/.13 by name)."""
    if "TFGPUAUG_NVJPEG_PATH" in os.environ:
        return os.environ["TFGPUAUG_NVJPEG_PATH"]
    try:
        import nvidia.nvjpeg  # type: ignore
    except ImportError:
        return None
    for base in getattr(nvidia.nvjpeg, "__path__", []):
        lib_dir = os.path.join(base, "lib")
        if os.path.isdir(lib_dir):
            for name in sorted(os.listdir(lib_dir)):
                if name.startswith("libnvjpeg.so"):
                    os.environ["TFGPUAUG_NVJPEG_PATH"] = os.path.join(lib_dir, name)
                    return os.environ["TFGPUAUG_NVJPEG_PATH"]
    return None
