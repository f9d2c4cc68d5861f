"""Every allocation a file's header sizes is bounded before it is made (issue #38): crafted files
whose headers ask for absurd buffers are refused with InvalidArgumentError naming the field, in a
child process whose address space is capped 400 MB above its size, so an allocation made before
the check would surface as ResourceExhaustedError (or an OOM kill) instead of the message.

Each case was checked against the code before the fix: the TIFF with 65535 samples per pixel is
the file that killed the process in the issue (with more memory, it decoded 8.6 GB strips); the
JPEG 2000 with 16384 components and 65025 tiles drove OpenJPEG past 23 GB (OOM-killed); the
one with 65025 tiles of 4 components took 845 MB.
"""
import os
import subprocess
import sys
import textwrap

import pytest

from fixtures import crafted_j2k as j2k, crafted_jp2 as jp2, crafted_tiff as tiff

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


CASES = {  # name -> (bytes, max_pixels, the words of the refusal)
    "tiff_65535_samples": (tiff(65535, 900, 65535, extra=65534), 1 << 27, "65535 samples per pixel: at most 8"),
    "tiff_16bit_65535_samples": (tiff(65535, 900, 65535, bits=16, extra=65534), 1 << 27, "65535 samples per pixel"),
    "tiff_32_bit_samples": (tiff(64, 64, 1, bits=32), 1 << 27, "32 bits per sample: at most 16"),
    # LZW: libtiff would cut one uncompressed strip into rows itself.
    "tiff_300MB_strip": (tiff(20000, 5000, 3, photometric=2, compression=5), 1 << 27,
                         "strip of 300000000 bytes decoded: at most"),
    "j2k_16384_components": (j2k(255, 255, 1, 16384), 1 << 27, "16384 components; 1 to 4 decode"),
    "j2k_65025_tiles": (j2k(255, 255, 1, 4), 1 << 27, "65025 tiles of 1x1; at most 8192"),
    "jp2_65025_tiles": (jp2(j2k(255, 255, 1, 3)), 1 << 27, "65025 tiles of 1x1"),
}


@pytest.mark.skipif(bool(os.environ.get("TFGPUAUG_SANITIZED")),
                    reason="AddressSanitizer's shadow memory cannot run under an address-space cap")
def test_absurd_headers_are_refused_before_allocating(tmp_path):
    for name, (data, _, _) in CASES.items():
        (tmp_path / name).write_bytes(data)
    script = textwrap.dedent(f"""
        import os, resource
        import tensorflow as tf
        import tfgpuaug as tga
        cases = {[(name, max_pixels) for name, (_, max_pixels, _) in CASES.items()]!r}
        small = tf.io.encode_png(tf.zeros([8, 8, 3], tf.uint8))
        tga.decode_image(tf.stack([small, small]))  # start the thread pools first
        with open("/proc/self/statm") as f:
            vm = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (vm + (400 << 20), resource.RLIM_INFINITY))
        for name, max_pixels in cases:
            data = open(os.path.join({str(tmp_path)!r}, name), "rb").read()
            for op in ("scalar", "batch"):
                try:
                    tga.decode_image(tf.constant(data) if op == "scalar" else tf.constant([data]),
                                     max_pixels=max_pixels)
                    print(name, op, "DECODED")
                except tf.errors.OpError as e:
                    print(name, op, type(e).__name__, e.message.splitlines()[0])
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    for name, (_, _, words) in CASES.items():
        for op in ("scalar", "batch"):
            line = next((x for x in lines if x.startswith(f"{name} {op} ")), "")
            assert "InvalidArgumentError" in line and words in line, (name, op, run.stdout)


def test_tar_member_past_the_end_is_refused_before_its_buffer(tmp_path):
    """A member header claiming 2 GB in a 2 KB shard: refused as truncated, nothing allocated."""
    import tarfile
    import io
    import tensorflow as tf
    import tfgpuaug as tga
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        info = tarfile.TarInfo("000000.jpg")
        info.size = 10
        tar.addfile(info, io.BytesIO(b"0123456789"))
    data = bytearray(buf.getvalue())
    header = bytearray(data[:512])
    header[124:136] = b"%011o\0" % ((1 << 31) - 1)
    header[148:156] = b"        "
    header[148:156] = b"%06o\0 " % sum(header)
    data[:512] = header
    path = tmp_path / "cut.tar"
    path.write_bytes(bytes(data))
    ds = tga.data.webdataset([str(path)], ["jpg"])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cut.tar: truncated member '000000.jpg'"):
        list(ds)
