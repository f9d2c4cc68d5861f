"""Large CPU outputs come from the host block pool (cc/kernels/common/large_block_pool.h):
blocks are reused, so a pipeline step does not first-touch its output's pages again. The
pool's rules through the kernels module; the op library's use of it by the page faults a
repeated op takes, in fresh processes with the pool on and off (TFGPUAUG_HOST_POOL_MB=0)."""
import ctypes
import glob
import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIB = 1 << 20


@pytest.fixture(scope="module")
def kernels():
    found = glob.glob(os.path.join(ROOT, "build", "kernels_module", "tfgpuaug_kernels*.so"))
    if not found:
        pytest.skip("tfgpuaug_kernels not built (python build_tools/build_kernels_module.py)")
    spec = importlib.util.spec_from_file_location("tfgpuaug_kernels", found[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_blocks_are_reused_aligned_and_writable(kernels):
    pool = kernels.LargeBlockPool(8 * MIB, 64 * MIB)
    granule = kernels.LARGE_BLOCK_GRANULE
    a = pool.acquire(10 * MIB + 1)
    assert a != 0 and a % granule == 0
    ctypes.memset(a, 7, 10 * MIB + 1)  # the whole request is mapped and writable
    assert ctypes.string_at(a + 10 * MIB, 1) == b"\x07"
    assert pool.release(a)
    b = pool.acquire(11 * MIB)  # the same 12 MiB block (rounded up to the granule)
    assert b == a
    s = pool.stats()
    assert (s["mapped"], s["reused"], s["live_blocks"], s["cached_blocks"]) == (1, 1, 1, 0)
    assert pool.release(b)


def test_a_block_much_larger_than_the_request_is_not_handed_out(kernels):
    pool = kernels.LargeBlockPool(8 * MIB, 256 * MIB)
    big = pool.acquire(64 * MIB)
    pool.release(big)
    small = pool.acquire(16 * MIB)  # 64 MiB would waste three quarters of it
    assert small not in (0, big)
    assert pool.stats()["reused"] == 0
    pool.release(small)


def test_small_requests_and_foreign_pointers_are_declined(kernels):
    pool = kernels.LargeBlockPool(8 * MIB, 64 * MIB)
    assert pool.acquire(8 * MIB - 1) == 0
    # sizes no mapping can have: declined, not rounded or padded past 2^64 into a small mapping
    assert pool.acquire((1 << 64) - 3 * kernels.LARGE_BLOCK_GRANULE) == 0
    assert pool.acquire(1 << 63) == 0
    buf = ctypes.create_string_buffer(16)
    assert not pool.release(ctypes.addressof(buf))
    a = pool.acquire(8 * MIB)
    assert pool.release(a) and not pool.release(a)  # a second release is not taken


def test_freed_blocks_beyond_the_budget_are_unmapped_oldest_first(kernels):
    pool = kernels.LargeBlockPool(8 * MIB, 24 * MIB)
    blocks = [pool.acquire(11 * MIB) for _ in range(3)]  # 12 MiB each (a whole number of 2 MiB)
    for b in blocks:
        assert pool.release(b)
    s = pool.stats()
    assert (s["cached_blocks"], s["cached_bytes"], s["unmapped"]) == (2, 24 * MIB, 1)
    assert pool.acquire(11 * MIB) == blocks[2]  # the newest of the kept; the oldest (blocks[0]) went first
    assert pool.acquire(11 * MIB) == blocks[1]
    off = kernels.LargeBlockPool(8 * MIB, 0)
    assert off.acquire(64 * MIB) == 0  # a zero budget turns the pool off


def test_kept_outputs_keep_their_values_while_dropped_ones_are_reused():
    """A live output is never handed out again: out1 is kept across steps whose outputs are
    dropped (and so reused), and still equals numpy's normalisation. Also runs under
    AddressSanitizer (scripts/sanitizer_tests.sh), where a released block is poisoned."""
    import tensorflow as tf
    import tfgpuaug as tga
    rng = np.random.default_rng(1)
    a, b = (rng.integers(0, 256, (64, 224, 224, 3), np.uint8) for _ in range(2))  # 38.5 MiB float32 outputs
    mean, std = np.float32(tga.IMAGENET_MEAN), np.float32(tga.IMAGENET_STD)
    normalize = lambda x: tga.crop_mirror_normalize(tf.constant(x), tga.IMAGENET_MEAN, tga.IMAGENET_STD)
    out1 = normalize(a)
    for x in (b, a, b):
        float(tf.reduce_sum(normalize(x)))  # dropped at once: its block goes back to the pool
    out3 = normalize(a)
    expected = (a.astype(np.float32) - mean) / std
    np.testing.assert_allclose(out1.numpy(), expected, rtol=1e-6, atol=1e-5)
    np.testing.assert_array_equal(out1.numpy(), out3.numpy())


_FAULTS = r"""
import json, resource, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import tensorflow as tf
import tfgpuaug as tga
images = tf.constant(np.random.default_rng(0).integers(0, 256, (64, 224, 224, 3), np.uint8))
def step():  # a 38.5 MiB float32 output, dropped at once
    return float(tf.reduce_sum(tga.crop_mirror_normalize(images, tga.IMAGENET_MEAN, tga.IMAGENET_STD)[:, 0]))
checks = [step() for _ in range(3)]  # warm up
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
checks += [step() for _ in range(6)]
faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 6
print(json.dumps(dict(faults_per_step=faults, checks=checks)))
"""


def _faults_per_step(pool_mb):
    env = dict(os.environ, TFGPUAUG_HOST_POOL_MB=str(pool_mb), TF_CPP_MIN_LOG_LEVEL="2")
    run = subprocess.run([sys.executable, "-c", _FAULTS, ROOT], capture_output=True, text=True, env=env,
                         timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(os.environ.get("TFGPUAUG_SANITIZED") == "1",
                    reason="AddressSanitizer's allocator keeps freed memory itself")
def test_a_repeated_large_cpu_output_does_not_fault_its_pages_again():
    pages = 64 * 224 * 224 * 3 * 4 / os.sysconf("SC_PAGE_SIZE")  # ~9,400 at 4 KiB
    pooled, unpooled = _faults_per_step(1024), _faults_per_step(0)
    assert pooled["checks"] == unpooled["checks"]  # the same values either way
    # TensorFlow's allocator maps the output afresh each step (glibc's mmap threshold is at most
    # 32 MiB): every page faults again. The pool hands the same block back.
    assert unpooled["faults_per_step"] > 0.5 * pages, unpooled
    assert pooled["faults_per_step"] < 0.05 * pages, pooled
