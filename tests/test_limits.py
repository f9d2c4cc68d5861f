"""Resource limits: max_pixels per image, max_batch_bytes per decoded batch (both refused
from the headers, before allocating), and a failed output allocation surfacing as
ResourceExhaustedError in a process that keeps working."""
import os
import subprocess
import sys
import textwrap

import pytest
import tensorflow as tf

import tfgpuaug as tga
from fixtures import jpeg_bytes, photo, with_jpeg_size

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_max_batch_bytes_bounds_the_decoded_batch():
    blobs = tf.constant([jpeg_bytes(photo(100, 100, 3, seed=i)) for i in range(3)])
    out = tga.decode_image(blobs, max_batch_bytes=3 * 100 * 100 * 3)  # exactly fits
    assert out.flat_values.shape == (3 * 100 * 100, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="90000 bytes, over max_batch_bytes=89999"):
        tga.decode_image(blobs, max_batch_bytes=3 * 100 * 100 * 3 - 1)
    # Counted in output bytes: one channel needs a third.
    assert tga.decode_image(blobs, channels=1, max_batch_bytes=30000).flat_values.shape == (30000, 1)


def test_max_batch_bytes_is_checked_from_headers_before_decoding():
    # Headers claim 10000x10000 (under max_pixels) but the data is a tiny image: the batch
    # limit must fire first, without allocating the 900 MB the headers ask for.
    big = with_jpeg_size(jpeg_bytes(photo(16, 16, 3)), 10000, 10000)
    with pytest.raises(tf.errors.InvalidArgumentError, match="over max_batch_bytes"):
        tga.decode_image(tf.constant([big] * 3), max_batch_bytes=1 << 20)


def test_limit_arguments_are_checked_at_construction():
    with pytest.raises(ValueError, match="max_batch_bytes must be positive"):
        tga.decode_image(tf.constant([b"x"]), max_batch_bytes=0)
    with pytest.raises(ValueError, match="max_pixels must be positive"):
        tga.decode_image(tf.constant([b"x"]), max_pixels=-1)


@pytest.mark.skipif(bool(os.environ.get("TFGPUAUG_SANITIZED")),
                    reason="AddressSanitizer's shadow memory cannot run under an address-space cap")
def test_allocation_failure_raises_resource_exhausted_and_the_process_survives(tmp_path):
    # In a child process with its address space capped 400 MB above its current size, a
    # header asking for 1.2 GB (within max_pixels, which is raised) cannot be allocated.
    big = with_jpeg_size(jpeg_bytes(photo(16, 16, 3)), 20000, 20000)
    small = jpeg_bytes(photo(30, 40, 3))
    (tmp_path / "big.jpg").write_bytes(big)
    (tmp_path / "small.jpg").write_bytes(small)
    script = textwrap.dedent(f"""
        import resource, sys
        import tensorflow as tf
        import tfgpuaug as tga
        small = open({str(tmp_path / "small.jpg")!r}, "rb").read()
        big = open({str(tmp_path / "big.jpg")!r}, "rb").read()
        tga.decode_image(tf.constant([small, small]))  # start the thread pools first
        with open("/proc/self/statm") as f:
            vm = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (vm + (400 << 20), resource.RLIM_INFINITY))
        for op in ("scalar", "batch"):
            try:
                x = tf.constant(big) if op == "scalar" else tf.constant([big])
                tga.decode_image(x, max_pixels=10**9)
                print(op, "DECODED")
            except tf.errors.ResourceExhaustedError as e:
                print(op, "RESOURCE_EXHAUSTED")
            except tf.errors.InvalidArgumentError as e:
                print(op, "INVALID", str(e).splitlines()[0])
        print("after", tga.decode_image(tf.constant([small])).flat_values.shape)
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                         cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert "scalar RESOURCE_EXHAUSTED" in lines and "batch RESOURCE_EXHAUSTED" in lines, run.stdout
    assert "after (1200, 3)" in lines
