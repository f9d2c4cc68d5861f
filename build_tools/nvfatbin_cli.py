"""A `fatbinary` for clang's CUDA driver, made with NVIDIA's nvFatbin library.

The CUDA 12 components on PyPI (see cuda12_toolchain.py) have `ptxas` but not the `fatbinary`
tool clang runs to bundle each architecture's cubin (and PTX) into the fatbin it embeds.
`libnvfatbin` (PyPI `nvidia-nvfatbin-cu12`, the same CUDA release) builds the same container
through its documented C API; this script takes the arguments clang passes:

    fatbinary -64 --create OUT --image=profile=sm_90,file=A.cubin --image=profile=compute_90,file=A.ptx

and the library's path in TFGPUAUG_NVFATBIN_LIB.
"""
from __future__ import annotations

import ctypes
import os
import sys


def _parse(argv: list[str]) -> tuple[str, list[tuple[str, str, str]]]:
    """(output path, [(kind "sm" or "compute", arch digits, file)])."""
    out, images, i = None, [], 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--create":
            out, i = argv[i + 1], i + 2
            continue
        if arg.startswith("--create="):
            out = arg.split("=", 1)[1]
        elif arg.startswith("--image="):
            fields = dict(part.split("=", 1) for part in arg[len("--image="):].split(","))
            kind, arch = fields["profile"].split("_", 1)
            if kind not in ("sm", "compute"):
                raise SystemExit(f"fatbinary (nvFatbin): unknown profile {fields['profile']}")
            images.append((kind, arch, fields["file"]))
        elif arg not in ("-64", "--64", "-cuda", "--cuda"):
            raise SystemExit(f"fatbinary (nvFatbin): unsupported argument {arg}")
        i += 1
    if out is None or not images:
        raise SystemExit("fatbinary (nvFatbin): needs --create OUT and at least one --image")
    return out, images


def _check(lib, result: int, what: str) -> None:
    if result != 0:
        lib.nvFatbinGetErrorString.restype = ctypes.c_char_p
        raise SystemExit(f"fatbinary (nvFatbin): {what} failed: {lib.nvFatbinGetErrorString(result).decode()}")


def create(lib_path: str, out: str, images: list[tuple[str, str, str]]) -> None:
    lib = ctypes.CDLL(lib_path)
    handle = ctypes.c_void_p()
    # Uncompressed, as nvcc leaves small fatbins: every driver reads it, and the cubins can be
    # checked in place (tests/test_cuda12_build.py).
    options = (ctypes.c_char_p * 3)(b"-64", b"-host=linux", b"-compress=false")
    _check(lib, lib.nvFatbinCreate(ctypes.byref(handle), options, ctypes.c_size_t(3)), "nvFatbinCreate")
    try:
        for kind, arch, path in images:
            with open(path, "rb") as f:
                code = f.read()
            name = os.path.basename(path).encode()
            if kind == "sm":
                _check(lib, lib.nvFatbinAddCubin(handle, code, ctypes.c_size_t(len(code)), arch.encode(), name),
                       f"adding the sm_{arch} cubin")
            else:
                code += b"\0"  # PTX is text: the size counts its terminating NUL
                _check(lib, lib.nvFatbinAddPTX(handle, code, ctypes.c_size_t(len(code)), arch.encode(), name, b""),
                       f"adding the compute_{arch} PTX")
        size = ctypes.c_size_t()
        _check(lib, lib.nvFatbinSize(handle, ctypes.byref(size)), "nvFatbinSize")
        buffer = ctypes.create_string_buffer(size.value)
        _check(lib, lib.nvFatbinGet(handle, buffer), "nvFatbinGet")
        with open(out, "wb") as f:
            f.write(buffer.raw)
    finally:
        lib.nvFatbinDestroy(ctypes.byref(handle))


def main(argv: list[str]) -> None:
    lib_path = os.environ.get("TFGPUAUG_NVFATBIN_LIB")
    if not lib_path:
        raise SystemExit("fatbinary (nvFatbin): set TFGPUAUG_NVFATBIN_LIB to libnvfatbin.so.12")
    create(lib_path, *_parse(argv))


if __name__ == "__main__":
    main(sys.argv[1:])
