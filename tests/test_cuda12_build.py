"""The op library's CUDA 12 build (build_tools/cuda12_toolchain.py): kernels compiled for
TensorFlow's own CUDA release, calling the CUDA runtime TensorFlow loads, so they need no newer
driver than TensorFlow does.

Read from the built library itself: its dynamic links and symbols, and the fatbin clang
embedded (uncompressed: each entry's header names its kind, architecture and version). CI sets
TFGPUAUG_REQUIRE_CUDA12=1, so a build that fell back to nvcc (or to no CUDA) fails here instead
of skipping.
"""
from __future__ import annotations

import glob
import os
import struct
import subprocess
import sys

import importlib.util

import pytest
import tensorflow as tf

from tfgpuaug import _build_info, _loader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("cuda12_toolchain", os.path.join(ROOT, "build_tools",
                                                                               "cuda12_toolchain.py"))
cuda12_toolchain = sys.modules.setdefault("cuda12_toolchain", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(cuda12_toolchain)

LIBRARY = _loader._library_path()
FATBIN_MAGIC = 0xBA55ED50
FATBIN_COMPRESSED = 0x2000  # an entry's flag: its payload is compressed
PTX, ELF = 1, 2
CUDA_12_5_PTX_ISA = (8, 5)  # the PTX ISA of CUDA 12.5: what a CUDA 12.5 driver can compile

if getattr(_build_info, "CUDA_RUNTIME", None) != "tensorflow":
    if os.environ.get("TFGPUAUG_REQUIRE_CUDA12") == "1":
        pytest.fail(f"TFGPUAUG_REQUIRE_CUDA12=1 but the op library's CUDA runtime is "
                    f"{getattr(_build_info, 'CUDA_RUNTIME', None)!r} (CUDA {_build_info.CUDA_VERSION}): "
                    "the CUDA 12 toolchain needs clang 17+ (scripts/apt_setup.sh installs clang-19)",
                    pytrace=False)
    pytest.skip("the op library was not built with the CUDA 12 toolchain", allow_module_level=True)


def _sections(path: str) -> dict:
    """{name: bytes} of an ELF64 file's sections."""
    with open(path, "rb") as f:
        data = f.read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = headers[shstrndx]
    out = {}
    for name_off, _, _, _, offset, size in headers:
        start = names[4] + name_off
        name = data[start:data.index(b"\0", start)].decode()
        out[name] = data[offset:offset + size]
    return out


def _fatbin_entries(section: bytes) -> list[list[dict]]:
    """Each embedded fatbin (one per CUDA source) as a list of its entries."""
    fatbins, off = [], 0
    while off + 16 <= len(section):
        magic, _, header_size, size = struct.unpack_from("<IHHQ", section, off)
        if magic != FATBIN_MAGIC:  # padding between fatbins
            off += 8
            continue
        entries, pos, end = [], off + header_size, off + header_size + size
        while pos < end:
            kind, _, entry_header, padded = struct.unpack_from("<HHIQ", section, pos)
            compressed_size, _, minor, major, arch = struct.unpack_from("<IIHHI", section, pos + 16)
            flags, = struct.unpack_from("<Q", section, pos + 40)
            payload = section[pos + entry_header:pos + entry_header + padded]
            entries.append({"kind": kind, "arch": arch, "version": (major, minor), "payload": payload,
                            "compressed": bool(flags & FATBIN_COMPRESSED) or compressed_size != 0})
            pos += entry_header + padded
        fatbins.append(entries)
        off = (end + 7) // 8 * 8
    return fatbins


def test_build_info_names_cuda_12_5_and_tensorflows_runtime():
    assert _build_info.CUDA_BUILT and _build_info.CUDA_VERSION == cuda12_toolchain.CUDA_RELEASE == "12.5"


def test_every_kernel_has_sass_for_tensorflows_architectures_and_cuda_12_5_ptx():
    fatbins = _fatbin_entries(_sections(LIBRARY)[".nv_fatbin"])
    sources = glob.glob(os.path.join(ROOT, "cc", "kernels", "**", "*.cu.cc"), recursive=True)
    assert len(fatbins) == len(sources) >= 6, "one fatbin per cc/kernels/**/*.cu.cc"
    for entries in fatbins:
        assert not any(e["compressed"] for e in entries)
        sass = sorted(e["arch"] for e in entries if e["kind"] == ELF)
        assert sass == list(cuda12_toolchain.ARCHS)
        for e in entries:
            if e["kind"] == ELF:
                assert e["payload"][:4] == b"\x7fELF"
                assert e["payload"][48] == e["arch"]  # the cubin's own e_flags name the same SM
        ptx = [e for e in entries if e["kind"] == PTX]
        assert [e["arch"] for e in ptx] == [cuda12_toolchain.ARCHS[-1]]  # newer GPUs JIT it
        assert (7, 0) <= ptx[0]["version"] <= CUDA_12_5_PTX_ISA
        text = ptx[0]["payload"].decode("ascii", "replace")
        assert ".version {}.{}".format(*ptx[0]["version"]) in text and f".target sm_{ptx[0]['arch']}" in text


def _dynamic_symbols(path: str, undefined: bool) -> set:
    flag = "--undefined-only" if undefined else "--defined-only"
    out = subprocess.run(["nm", "-D", flag, path], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def test_no_cuda_runtime_linked_every_call_binds_to_tensorflows():
    needed = subprocess.run(["readelf", "-d", LIBRARY], capture_output=True, text=True, check=True).stdout
    assert "libcudart" not in needed
    assert not {s for s in _dynamic_symbols(LIBRARY, False) if s.startswith(("cuda", "__cuda"))}
    calls = {s for s in _dynamic_symbols(LIBRARY, True) if s.startswith(("cuda", "__cuda"))}
    assert {"cudaLaunchKernel", "__cudaRegisterFatBinary", "cudaMemcpyAsync"} <= calls
    framework = os.path.join(os.path.dirname(tf.__file__), "libtensorflow_framework.so.2")
    assert calls <= _dynamic_symbols(framework, False)


LOAD_SCRIPT = """
import ctypes, sys
import numpy as np, tensorflow as tf, tfgpuaug as tga
from tfgpuaug import _loader
image = tga.decode_image(tf.io.encode_png(np.full((4, 5, 3), 7, np.uint8)))
assert image.shape == (4, 5, 3) and int(image[0, 0, 0]) == 7
version = ctypes.c_int(0)
status = ctypes.CDLL(_loader._library_path()).cudaRuntimeGetVersion(ctypes.byref(version))
print("runtime", status, version.value)
"""


def test_loads_on_a_cuda_12_runtime_and_without_one():
    """With the CUDA 12.5 runtime on the library path (what `tensorflow[and-cuda]` installs),
    the library's fatbins register with it at load and its calls reach it; without one, the
    library loads and its CPU ops run (the calls report the missing runtime)."""
    runtime_dir = os.path.join(ROOT, "build", "cuda12", "packages", "nvidia", "cuda_runtime", "lib")
    if not os.path.exists(os.path.join(runtime_dir, "libcudart.so.12")):
        pytest.skip("the CUDA 12 toolchain's packages are not in build/cuda12")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    with_runtime = dict(env, LD_LIBRARY_PATH=runtime_dir + os.pathsep + env.get("LD_LIBRARY_PATH", ""))
    for run_env, expected in ((with_runtime, "runtime 0 12050"), (env, None)):
        run = subprocess.run([sys.executable, "-c", LOAD_SCRIPT], capture_output=True, text=True, env=run_env,
                             cwd=ROOT, timeout=300)
        assert run.returncode == 0, run.stderr[-2000:]
        if expected:
            assert expected in run.stdout
        else:
            assert "runtime 0 " not in run.stdout  # no runtime found: an error code, no crash

