import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, os.path.dirname(__file__))  # tests/fixtures.py

import pytest  # noqa: E402
import tensorflow as tf  # noqa: E402


def gpu_available() -> bool:
    return bool(tf.config.list_physical_devices("GPU"))


requires_gpu = pytest.mark.skipif(not gpu_available(), reason="needs a CUDA GPU")
