"""Compiles cc/ into one shared library: g++ for *.cc, and for *.cu.cc either nvcc (its CUDA
release's static runtime linked in) or clang with PyPI's CUDA 12 components (the runtime is
TensorFlow's own; see cuda12_toolchain.py).

Used by setup.py (the TensorFlow op library) and by build_kernels_module.py (the
TensorFlow-free pybind11 module over cc/kernels). Objects are compiled in parallel.
"""
from __future__ import annotations

import concurrent.futures
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

from build_tools import cuda12_toolchain, libjpeg_turbo, libtiff, object_cache

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Architectures wanted when the found nvcc supports them (TF 2.21 is built for sm_60..90).
WANTED_ARCHS = (70, 75, 80, 86, 89, 90)


def find_nvcc() -> str | None:
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if home and os.path.exists(os.path.join(home, "bin", "nvcc")):
        return os.path.join(home, "bin", "nvcc")
    return shutil.which("nvcc")


def nvcc_version(nvcc: str | None = None) -> str | None:
    """The CUDA release of nvcc ("13.0"), None without one: the runtime the op library links,
    which sets the oldest driver its GPU kernels run on."""
    nvcc = nvcc or find_nvcc()
    if nvcc is None:
        return None
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"release (\d+\.\d+)", out)
    return m.group(1) if m else None


def cuda_home(nvcc: str) -> str:
    """The toolkit root: CUDA_HOME, else nvcc's grandparent, else /usr/local/cuda."""
    for home in (os.environ.get("CUDA_HOME"), os.path.dirname(os.path.dirname(os.path.realpath(nvcc))),
                 "/usr/local/cuda"):
        if home and os.path.exists(os.path.join(home, "include", "cuda_runtime.h")):
            return home
    raise RuntimeError(f"cannot find the CUDA toolkit of {nvcc}: set CUDA_HOME")


def nvcc_archs(nvcc: str) -> list[int]:
    """Architectures in WANTED_ARCHS that this nvcc can target."""
    out = subprocess.run([nvcc, "--list-gpu-arch"], capture_output=True, text=True)
    supported = {int(m) for m in re.findall(r"compute_(\d+)", out.stdout)}
    return [a for a in WANTED_ARCHS if a in supported] or [75]


def want_cuda(toolchain: str = "nvcc") -> bool:
    """Whether to build CUDA objects with `toolchain` ("nvcc" or "cu12"): TFGPUAUG_CUDA=auto
    (when the toolchain is found), 0 or 1 (required)."""
    mode = os.environ.get("TFGPUAUG_CUDA", "auto").lower()
    if mode in ("0", "off", "false", "no"):
        return False
    found = (find_nvcc() if toolchain == "nvcc" else cuda12_toolchain.find_clang()) is not None
    if mode in ("1", "on", "true", "yes"):
        if not found:
            raise RuntimeError("TFGPUAUG_CUDA=1 but nvcc was not found (set CUDA_HOME or PATH)" if toolchain == "nvcc"
                               else "TFGPUAUG_CUDA=1 with the CUDA 12 toolchain, but no clang 17 or newer was "
                               "found: apt-get install clang-19, set TFGPUAUG_CLANG, or build with "
                               "TFGPUAUG_CUDA_TOOLCHAIN=nvcc")
        return True
    return found


def op_library_toolchain() -> str:
    """The CUDA toolchain of the TensorFlow op library: TFGPUAUG_CUDA_TOOLCHAIN=cu12 (clang and
    PyPI's CUDA 12.5, TensorFlow's own CUDA runtime: runs where TensorFlow 2.21 runs, driver
    R525+), nvcc (the found nvcc, its static runtime: CUDA 13 needs R580+, but has Blackwell
    SASS), or auto (cu12 when a clang that compiles CUDA 12 is found, else nvcc)."""
    choice = os.environ.get("TFGPUAUG_CUDA_TOOLCHAIN", "auto").lower()
    if choice not in ("auto", "cu12", "nvcc"):
        raise RuntimeError(f"TFGPUAUG_CUDA_TOOLCHAIN must be auto, cu12 or nvcc, got {choice!r}")
    if choice == "auto":
        return "cu12" if cuda12_toolchain.find_clang() is not None else "nvcc"
    return choice


def cuda_release(toolchain: str) -> str | None:
    """The CUDA release the kernels are compiled for ("12.5", "13.0")."""
    return cuda12_toolchain.CUDA_RELEASE if toolchain == "cu12" else nvcc_version()


def nvjpeg_include() -> str | None:
    """nvjpeg.h from the CUDA toolkit or from PyPI's nvidia-nvjpeg-cu12 package."""
    nvcc = find_nvcc()
    if nvcc and os.path.exists(os.path.join(cuda_home(nvcc), "include", "nvjpeg.h")):
        return os.path.join(cuda_home(nvcc), "include")
    try:
        import nvidia.nvjpeg  # type: ignore

        path = os.path.join(list(nvidia.nvjpeg.__path__)[0], "include")
        return path if os.path.exists(os.path.join(path, "nvjpeg.h")) else None
    except ImportError:
        return None


@dataclass
class NativeTarget:
    output: str
    sources: list[str]
    cuda_sources: list[str]
    cxx_flags: list[str] = field(default_factory=list)
    # cc/kernels' CPU sources get these instead of cxx_flags (sanitizers, the C++ ABI define): see build()
    kernel_cxx_flags: list[str] = field(default_factory=list)
    link_flags: list[str] = field(default_factory=list)
    use_cuda: bool = False
    cuda_toolchain: str = "nvcc"  # or "cu12": see op_library_toolchain()
    # The CUDA sources compiled as C++ against the CPU emulation (cc/testing/cuda_emu) instead of
    # nvcc: every kernel runs on the CPU, for tests (TFGPUAUG_CUDA=emulate, kernels module only).
    emulate_cuda: bool = False
    build_dir: str = os.path.join(ROOT, "build", "obj")
    jpeg_x86_64_v3: bool = False  # set by build(): the x86-64-v3 libjpeg-turbo is linked in
    tiff_static: bool = False  # set by build(): libtiff without JBIG linked in (libtiff.py)
    # A header precompiled once (GCC's .gch) with this target's flags and force-included in every
    # source of its directory: the op adapters' TensorFlow headers (cc/ops/tf_headers.h).
    precompiled_header: str | None = None


def _run(cmd: list[str]) -> None:
    print(" ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def _compile(cmd: list[str], obj: str) -> None:
    # Into a temporary file first: objects are shared between targets, and an interrupted or a
    # concurrent build must never leave a half-written object under the final name.
    tmp = f"{obj}.{os.getpid()}.tmp"
    _run([tmp if arg == obj else arg for arg in cmd])
    os.replace(tmp, obj)
    with open(obj + ".cmd", "w") as f:
        f.write(" ".join(cmd))


def _object_path(target: NativeTarget, src: str) -> str:
    rel = os.path.relpath(src, ROOT).replace(os.sep, "_")
    return os.path.join(target.build_dir, os.path.basename(target.output), rel + ".o")


def _needs_build(src: str, obj: str, cmd: list[str]) -> bool:
    if not os.path.exists(obj):
        return True
    # A force-included precompiled header rebuilt since (a source's own includes come below).
    for i, arg in enumerate(cmd[:-1]):
        if arg == "-include" and os.path.exists(cmd[i + 1] + ".gch") and \
                os.path.getmtime(cmd[i + 1] + ".gch") > os.path.getmtime(obj):
            return True
    # Rebuild when the command changed (flags, the x86-64-v3 libjpeg appearing or not).
    try:
        with open(obj + ".cmd") as f:
            if f.read() != " ".join(cmd):
                return True
    except OSError:
        return True
    # Rebuild when the source, any header under cc/ or a source it includes (the x86-64-v3
    # codec includes jpeg_codec.cc; an emulated CUDA source names its original in #line) is
    # newer than the object.
    with open(src) as f:
        text = f.read()
    included = [os.path.join(ROOT, m) for m in re.findall(r'#include "(cc/[^"]+\.cc)"', text)]
    included += re.findall(r'^#line 1 "([^"]+)"', text, re.M)
    newest = max([os.path.getmtime(src)] + [os.path.getmtime(h) for h in included] +
                 [os.path.getmtime(h) for h in glob.glob(os.path.join(ROOT, "cc", "**", "*.h"), recursive=True)])
    return newest > os.path.getmtime(obj)


# The image libraries the decoders link (Debian's -dev packages, scripts/apt_setup.sh), and
# OpenJPEG's versioned include directory.
IMAGE_LIBS = ["-ljpeg", "-lpng", "-lwebpdemux", "-lwebp", "-lgif", "-ltiff", "-lopenjp2"]
IMAGE_INCLUDES = ["-I/usr/include/openjpeg-2.5"]

# The sanitizer builds' flags, one list each, so that the ASan op library and the ASan emulated
# kernels module compile cc/kernels identically and share those objects (-O1: ASan's advice,
# and half the compile time of -O3 under the sanitizers).
ASAN_UBSAN_FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer",
                    "-g", "-O1"]
TSAN_FLAGS = ["-fsanitize=thread", "-fno-omit-frame-pointer", "-g", "-O1"]
# libstdc++'s string/list ABI. TensorFlow's compile flags name theirs; the kernels module, which
# has no TensorFlow, states GCC's default so its kernel objects are the op library's.
CXX11_ABI_DEFAULT = "-D_GLIBCXX_USE_CXX11_ABI=1"
PREFIX_MAP = f"-ffile-prefix-map={ROOT}{os.sep}="


def build(target: NativeTarget, jobs: int | None = None) -> str:
    cxx = os.environ.get("CXX", "g++")
    # No floating-point contraction on either side: the CPU kernels (and their AVX2 clones)
    # and the CUDA kernels then round the shared inline math identically.
    # -ffile-prefix-map: objects name sources relative to the checkout, so any checkout may reuse
    # them from the object cache.
    common = ["-std=c++17", "-O3", "-DNDEBUG", "-fPIC", "-ffp-contract=off", PREFIX_MAP, "-I" + ROOT] + IMAGE_INCLUDES
    # cc/kernels' CPU sources see neither TensorFlow nor CUDA nor Python: they get only these
    # flags (and target.kernel_cxx_flags), so every target with the same kernel flags (the op
    # library and the kernels modules; the ASan op library and the ASan emulated module) links
    # the same objects, compiled once into build/obj-kernels.
    kernel_common = list(common) + ["-fvisibility=hidden"]
    cuda_flags: list[str] = []
    nvcc = None
    cu12 = None
    if target.use_cuda and target.cuda_toolchain == "cu12":
        cu12 = cuda12_toolchain.ensure()
        common += ["-DGOOGLE_CUDA=1", "-DTFGPUAUG_CUDA=1"] + ["-I" + d for d in cu12.include_dirs]
        os.environ.update(cu12.env())  # clang's fatbinary step (nvfatbin_cli.py) reads it
    elif target.use_cuda:
        nvcc = find_nvcc()
        home = cuda_home(nvcc)
        common += ["-DGOOGLE_CUDA=1", "-DTFGPUAUG_CUDA=1", "-I" + os.path.join(home, "include")]
        inc = nvjpeg_include()
        if inc is None:
            raise RuntimeError("nvjpeg.h not found: pip install nvidia-nvjpeg-cu12 or use a full CUDA toolkit")
        common.append("-I" + inc)
        for arch in nvcc_archs(nvcc):
            cuda_flags += [f"-gencode=arch=compute_{arch},code=sm_{arch}"]
        last = nvcc_archs(nvcc)[-1]
        cuda_flags += [f"-gencode=arch=compute_{last},code=compute_{last}"]

    # libjpeg-turbo built for x86-64-v3 CPUs, beside the system libjpeg (see libjpeg_turbo.py).
    jpeg_v3 = libjpeg_turbo.ensure_built(ROOT)
    target.jpeg_x86_64_v3 = jpeg_v3 is not None
    if jpeg_v3 is not None:
        common.append("-DTFGPUAUG_JPEG_X86_64_V3=1")
        kernel_common.append("-DTFGPUAUG_JPEG_X86_64_V3=1")
    # libtiff without JBIG (GPL), static, instead of the system's (see libtiff.py).
    tiff = libtiff.ensure_built(ROOT)
    target.tiff_static = tiff is not None

    if target.emulate_cuda:
        emu = os.path.join(ROOT, "cc", "testing", "cuda_emu")
        # The emulator's headers first; nvjpeg.h's types; the toolkit last, for library_types.h.
        common += ["-I" + emu, "-DTFGPUAUG_CUDA=1"]
        inc = nvjpeg_include()
        if inc is None:
            raise RuntimeError("nvjpeg.h not found: pip install nvidia-nvjpeg-cu12")
        common.append("-I" + inc)
        nvcc = find_nvcc()
        if nvcc is not None:
            common.append("-idirafter" + os.path.join(cuda_home(nvcc), "include"))
        rewritten = os.path.join(target.build_dir, os.path.basename(target.output), "emu_src")
        os.makedirs(rewritten, exist_ok=True)
        from build_tools import cuda_emu_rewrite
        emulated = [os.path.join(emu, "cuda_emu.cc")]
        for src in target.cuda_sources:
            out = os.path.join(rewritten, os.path.relpath(src, ROOT).replace(os.sep, "_")[:-len(".cu.cc")] + ".cc")
            with open(src) as f:
                text, _ = cuda_emu_rewrite.rewrite(f.read())
            text = f'#line 1 "{src}"\n' + text
            if not os.path.exists(out) or open(out).read() != text:  # keep the mtime when unchanged
                with open(out, "w") as f:
                    f.write(text)
            emulated.append(out)
        target.sources = target.sources + emulated

    pch_job, pch_flags, pch_dir = None, [], None
    if target.precompiled_header is not None:
        pch_job, pch_flags = _precompiled_header_job(target, [cxx] + common + target.cxx_flags)
        pch_dir = os.path.dirname(target.precompiled_header) + os.sep

    kernel_flags = kernel_common + target.kernel_cxx_flags
    kernel_dir = os.path.join(ROOT, "build", "obj-kernels",
                              hashlib.sha256(" ".join([cxx] + kernel_flags).encode()).hexdigest()[:12])
    jobs_list = []
    for src in target.sources:
        if os.sep + os.path.join("cc", "kernels") + os.sep in src:
            obj = os.path.join(kernel_dir, os.path.relpath(src, ROOT).replace(os.sep, "_") + ".o")
            flags, extra = kernel_flags, []
        else:
            obj = _object_path(target, src)
            flags = common + target.cxx_flags
            extra = pch_flags if pch_dir is not None and src.startswith(pch_dir) else []
        if jpeg_v3 is not None and os.path.basename(src) == "jpeg_codec_x86_64_v3.cc":
            extra = extra + ["-include", jpeg_v3.rename_header] + ["-I" + d for d in jpeg_v3.include_dirs]
        if tiff is not None and os.path.basename(src) == "tiff_codec.cc":  # the linked build's headers
            extra = ["-I" + d for d in tiff.include_dirs] + extra
        jobs_list.append((src, obj, [cxx, "-c", src, "-o", obj] + flags + extra))
    if cu12 is not None:
        for src in target.cuda_sources:
            obj = _object_path(target, src)
            cmd = [cu12.clang] + cu12.cuda_flags() + [src, "-c", "-o", obj, "-std=c++17", "-O3", "-DNDEBUG", "-fPIC",
                                                       PREFIX_MAP, "-I" + ROOT, "-DGOOGLE_CUDA=1", "-DTFGPUAUG_CUDA=1"]
            jobs_list.append((src, obj, cmd + ["-I" + d for d in cu12.include_dirs]))
    elif target.use_cuda:
        for src in target.cuda_sources:
            obj = _object_path(target, src)
            cmd = [nvcc, "-c", "-x", "cu", src, "-o", obj, "--expt-relaxed-constexpr",
                   "--fmad=false", "-Xcompiler", "-fPIC", "-Xcompiler", PREFIX_MAP, "-std=c++17", "-O3", "-DNDEBUG",
                   "-I" + ROOT,
                   "-DGOOGLE_CUDA=1", "-DTFGPUAUG_CUDA=1", "-I" + nvjpeg_include()] + cuda_flags
            jobs_list.append((src, obj, cmd))
    os.makedirs(os.path.dirname(_object_path(target, "x")), exist_ok=True)
    os.makedirs(kernel_dir, exist_ok=True)
    # Largest sources first: the pybind11 glue alone takes as long as a dozen kernels, and
    # started last it ran on one core while the other idled.
    todo = sorted((j for j in jobs_list if _needs_build(*j)), key=lambda j: -os.path.getsize(j[0]))
    # Objects another checkout already compiled the same way (TFGPUAUG_OBJECT_CACHE).
    keys = {obj: object_cache.key(cmd, src, obj) for src, obj, cmd in todo} if object_cache.cache_dir() else {}
    fetched = [(obj, cmd) for _, obj, cmd in todo if obj in keys and object_cache.fetch(keys[obj], obj)]
    for obj, cmd in fetched:
        with open(obj + ".cmd", "w") as f:
            f.write(" ".join(cmd))
    if fetched:
        print(f"{len(fetched)} of {len(todo)} objects from {object_cache.cache_dir()}", flush=True)
    todo = [j for j in todo if (j[1], j[2]) not in fetched]
    if pch_job is not None and not any(pch_flags[1] in cmd for _, _, cmd in todo):
        pch_job = None  # nothing left to compile reads it

    def compile_and_store(cmd: list[str], obj: str) -> None:
        _compile(cmd, obj)
        if obj in keys:
            object_cache.store(keys[obj], obj)

    with concurrent.futures.ThreadPoolExecutor(jobs or os.cpu_count() or 2) as pool:
        # The precompiled header first; the sources that include it wait for it (it is queued
        # first, so at most one worker waits while the other compiles it).
        pch = pool.submit(_compile, *pch_job) if pch_job is not None else None

        def compile_after_pch(cmd: list[str], obj: str) -> None:
            if pch is not None and pch_flags[1] in cmd:
                pch.result()
            compile_and_store(cmd, obj)

        for fut in [pool.submit(compile_after_pch, cmd, obj) for _, obj, cmd in todo]:
            fut.result()
        if pch is not None:
            pch.result()
    object_cache.prune()
    objects = [obj for _, obj, _ in jobs_list]
    link = [cxx, "-shared", "-o", target.output] + objects
    # The CUDA 12 build links no CUDA runtime: its runtime calls and fatbin registration bind
    # to the cudart stub in libtensorflow_framework.so.2 (in target.link_flags), that is, to
    # the libcudart.so.12 TensorFlow itself loads.
    if target.use_cuda and cu12 is None:
        # Static cudart before TensorFlow's libraries, whose cudart stub would otherwise
        # satisfy the runtime symbols with whatever libcudart is found at run time.
        home = cuda_home(nvcc)
        link += ["-L" + os.path.join(home, "lib64"), "-l:libcudart_static.a", "-ldl", "-lrt", "-lpthread"]
    if jpeg_v3 is not None:  # its symbols stay inside the library
        link += ["-Wl,--exclude-libs," + os.path.basename(jpeg_v3.archive), jpeg_v3.archive]
    image_libs = IMAGE_LIBS
    if tiff is not None:  # its symbols stay inside the library too
        link += ["-Wl,--exclude-libs,libtiff.a", tiff.archive]
        image_libs = [lib for lib in IMAGE_LIBS if lib != "-ltiff"] + libtiff.LINK_LIBS
    link += target.link_flags + image_libs
    _run(link)
    return target.output


def _precompiled_header_job(target: NativeTarget, compile_prefix: list[str]):
    """The compile job of target.precompiled_header (None when up to date) and the flags that
    force-include it. GCC uses X.gch for `-include X` only when it was built with the same
    flags, so the header is copied beside its .gch in this target's object directory; with
    other flags GCC falls back to parsing the copy (-Winvalid-pch says so)."""
    header = target.precompiled_header
    pch_dir = os.path.join(target.build_dir, os.path.basename(target.output), "pch")
    os.makedirs(pch_dir, exist_ok=True)
    copy = os.path.join(pch_dir, os.path.basename(header))
    with open(header) as f:
        text = f.read()
    if not os.path.exists(copy) or open(copy).read() != text:  # keep the mtime when unchanged
        with open(copy, "w") as f:
            f.write(text)
    gch = copy + ".gch"
    cmd = [compile_prefix[0], "-x", "c++-header", copy, "-o", gch] + compile_prefix[1:]
    job = (cmd, gch) if _needs_build(copy, gch, cmd) else None
    return job, ["-include", copy, "-Winvalid-pch"]


def kernel_sources() -> tuple[list[str], list[str]]:
    cc = sorted(glob.glob(os.path.join(ROOT, "cc", "kernels", "**", "*.cc"), recursive=True))
    cu = [s for s in cc if s.endswith(".cu.cc")]
    return [s for s in cc if not s.endswith(".cu.cc")], cu


if __name__ == "__main__":
    sys.exit("use setup.py or build_tools/build_kernels_module.py")
