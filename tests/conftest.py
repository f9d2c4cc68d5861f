import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, os.path.dirname(__file__))  # tests/fixtures.py

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _cpu_kernels_unless_marked_gpu_path(request):
    """Every test runs its eager ops and default-placed pipelines on the CPU kernels, even on a
    GPU machine: the exact-semantics tests (libjpeg's and PIL's pixels) would otherwise run
    nvJPEG and the CUDA kernels, which are held to the GPU tolerances of the tests marked
    `gpu_path` (tests/test_gpu_selfcheck.py) instead. `gpu_augment(device=None)` inside this
    scope takes the CPU path. Tests marked `gpu_path` (the GPU self-check, the placement tests)
    are not pinned."""
    if request.node.get_closest_marker("gpu_path") is not None:
        yield
        return
    import tensorflow as tf
    with tf.device("/cpu:0"):
        yield
