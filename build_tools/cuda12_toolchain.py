"""The CUDA 12 toolchain of the `tfgpuaug-cu12` build: clang as the CUDA compiler, NVIDIA's
CUDA 12 components from PyPI, no CUDA toolkit installed.

TensorFlow 2.21 is a CUDA 12.5 build: it runs on drivers from R525 (CUDA 12's minor-version
compatibility) and loads `libcudart.so.12` itself, through a stub in
`libtensorflow_framework.so.2` that exports the CUDA runtime API. The op library built here
links no CUDA runtime: its runtime calls (and clang's fatbin registration) bind to that stub,
so they go to the very runtime TensorFlow uses (from `tensorflow[and-cuda]`'s
`nvidia-cuda-runtime-cu12`), and on a machine without one the library still loads and its CPU
ops work. The kernels are compiled for CUDA 12.5, TensorFlow's release:

- headers: `nvidia-cuda-runtime-cu12` (cuda_runtime.h) and `nvidia-cuda-nvcc-cu12` (crt/);
- device code: clang (Debian's `clang-19`) to PTX, `ptxas` from `nvidia-cuda-nvcc-cu12` to
  SASS, libdevice from the same package;
- the fatbin: `nvfatbin_cli.py` over `nvidia-nvfatbin-cu12` (the wheels have no `fatbinary`),
  uncompressed, so tests/test_cuda12_build.py reads the cubins' ELF headers in place.

clang-19 knows CUDA up to 12.4 and warns that 12.5 is "partially supported"; the warning is
silenced, and what it covers (newer PTX features) is not used by these kernels.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CUDA_RELEASE = "12.5"
PACKAGES = ["nvidia-cuda-runtime-cu12==12.5.82", "nvidia-cuda-nvcc-cu12==12.5.82", "nvidia-nvfatbin-cu12==12.5.82",
            "nvidia-nvjpeg-cu12==12.4.0.76"]
# TensorFlow 2.21's own CUDA architectures: SASS for each, PTX for the last (newer GPUs JIT it).
ARCHS = (60, 70, 75, 80, 86, 89, 90)


@dataclass
class Cuda12Toolchain:
    clang: str        # clang++ used as the CUDA compiler
    cuda_path: str    # a CUDA-shaped tree for clang's --cuda-path
    include_dirs: list[str]
    nvfatbin_lib: str
    runtime_lib_dir: str  # PyPI's libcudart.so.12 (the op library does not link it; tests and the kernels module do)

    def cuda_flags(self) -> list[str]:
        flags = ["-x", "cuda", f"--cuda-path={self.cuda_path}", "-Wno-unknown-cuda-version"]
        flags += [f"--cuda-gpu-arch=sm_{a}" for a in ARCHS]
        flags += [f"--no-cuda-include-ptx=sm_{a}" for a in ARCHS[:-1]]
        # nvcc --fmad=false's equivalent, so CPU and GPU round the shared math identically.
        flags += ["-ffp-contract=off"]
        return flags

    def env(self) -> dict:
        return dict(os.environ, TFGPUAUG_NVFATBIN_LIB=self.nvfatbin_lib)


def _clang_major(clang: str) -> int:
    out = subprocess.run([clang, "--version"], capture_output=True, text=True).stdout
    match = re.search(r"clang version (\d+)", out)
    return int(match.group(1)) if match else 0


def find_clang() -> str | None:
    """clang++ 17 or newer (TFGPUAUG_CLANG, clang++-19 .. -17, clang++): the first releases that
    compile CUDA 12 headers."""
    names = [os.environ.get("TFGPUAUG_CLANG"), "clang++-19", "clang++-18", "clang++-17", "clang++"]
    for name in names:
        path = shutil.which(name) if name else None
        if path and _clang_major(path) >= 17:
            return path
    return None


def _install(packages_dir: str) -> None:
    marker = os.path.join(packages_dir, ".installed")
    if os.path.exists(marker) and open(marker).read() == "\n".join(PACKAGES):
        return
    shutil.rmtree(packages_dir, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", packages_dir] + PACKAGES,
                   check=True)
    with open(marker, "w") as f:
        f.write("\n".join(PACKAGES))


def _link(src: str, dst: str) -> None:
    if os.path.lexists(dst):
        os.remove(dst)
    os.symlink(src, dst)


def ensure(build_dir: str | None = None) -> Cuda12Toolchain:
    """Installs the CUDA 12 components under build/cuda12 (once) and lays out the tree clang
    takes as --cuda-path. Raises with what to install when clang is missing."""
    clang = find_clang()
    if clang is None:
        raise RuntimeError("the CUDA 12 build compiles with clang: apt-get install clang-19 "
                           "(scripts/apt_setup.sh --cuda12), or set TFGPUAUG_CLANG")
    base = build_dir or os.path.join(ROOT, "build", "cuda12")
    packages = os.path.join(base, "packages")
    _install(packages)
    nvidia = os.path.join(packages, "nvidia")
    tree = os.path.join(base, "cuda")
    for sub in ("bin", "include", os.path.join("nvvm")):
        os.makedirs(os.path.join(tree, sub), exist_ok=True)
    _link(os.path.join(nvidia, "cuda_nvcc", "bin", "ptxas"), os.path.join(tree, "bin", "ptxas"))
    _link(os.path.join(nvidia, "cuda_nvcc", "nvvm", "libdevice"), os.path.join(tree, "nvvm", "libdevice"))
    for headers in (os.path.join(nvidia, "cuda_runtime", "include"), os.path.join(nvidia, "cuda_nvcc", "include")):
        for name in os.listdir(headers):
            if name != "__init__.py":
                _link(os.path.join(headers, name), os.path.join(tree, "include", name))
    # clang's CUDA wrapper header includes curand's mtgp32 kernel header unconditionally; these
    # kernels use no curand, so an empty one stands in for the 60 MB curand package.
    with open(os.path.join(tree, "include", "curand_mtgp32_kernel.h"), "w") as f:
        f.write("// Empty: included by clang's __clang_cuda_runtime_wrapper.h; tfgpuaug uses no curand.\n")
    fatbinary = os.path.join(tree, "bin", "fatbinary")
    with open(fatbinary, "w") as f:
        f.write(f'#!/bin/sh\nexec "{sys.executable}" "{os.path.join(ROOT, "build_tools", "nvfatbin_cli.py")}" "$@"\n')
    os.chmod(fatbinary, 0o755)
    return Cuda12Toolchain(
        clang=clang, cuda_path=tree,
        include_dirs=[os.path.join(tree, "include"), os.path.join(nvidia, "nvjpeg", "include")],
        nvfatbin_lib=os.path.join(nvidia, "nvfatbin", "lib", "libnvfatbin.so.12"),
        runtime_lib_dir=os.path.join(nvidia, "cuda_runtime", "lib"))
