"""libjpeg-turbo built from source for x86-64-v3 CPUs, linked beside the system libjpeg.

The same libjpeg-turbo release as Debian's package (2.1.5, with Debian's SIMD-init patch),
compiled with -march=x86-64-v3 (BMI2, LZCNT, MOVBE, AVX2): its Huffman decoder, which is
most of a JPEG decode, runs ~8% faster than the generic x86-64 build, and the output is the
same (its SIMD kernels are chosen at run time either way; no float contraction). Every
symbol gets the prefix `tfgpuaug_v3_`, so the archive links into the op library next to
-ljpeg, and cc/kernels/decode/jpeg_codec_select.cc uses it only on CPUs that have x86-64-v3.

    TFGPUAUG_JPEG_V3=auto   build when cmake, nasm and the sources are at hand (default)
    TFGPUAUG_JPEG_V3=1      required: fail the build when it cannot be made
    TFGPUAUG_JPEG_V3=0      never: the system libjpeg only
    TFGPUAUG_LIBJPEG_TURBO_SOURCES=DIR   a folder holding the two tarballs (offline builds)

The sources come through apt's own client (`apt-get source --download-only`, which needs
deb-src entries in apt's sources; scripts/apt_setup.sh adds them) and are checked against
the SHA-256 digests below.
"""
from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import tarfile
from dataclasses import dataclass

VERSION = "2.1.5"
_SOURCE_PACKAGE = f"libjpeg-turbo=1:{VERSION}-2"
_TARBALLS = {  # file name -> sha256
    f"libjpeg-turbo_{VERSION}.orig.tar.gz":
        "254f3642b04e309fee775123133c6464181addc150499561020312ec61c1bf7c",
    f"libjpeg-turbo_{VERSION}-2.debian.tar.xz":
        "cdb2433c2f7101345c1ffa14efb943787c675b86354691a32490845fe4bc9237",
}
_PATCH = "debian/patches/0001_initialize-simd-support-before-every-use.patch"
SYMBOL_PREFIX = "tfgpuaug_v3_"
_C_FLAGS = "-O2 -march=x86-64-v3 -ffp-contract=off -DNDEBUG"


@dataclass
class JpegV3Build:
    archive: str              # static, PIC, every defined symbol prefixed
    include_dirs: list[str]   # jpeglib.h, jerror.h, jmorecfg.h and this build's jconfig.h
    rename_header: str        # '#define jpeg_x tfgpuaug_v3_jpeg_x' for the public API


def _mode() -> str:
    return os.environ.get("TFGPUAUG_JPEG_V3", "auto").strip().lower()


def _fetch(downloads: str) -> dict[str, str]:
    """The tarballs' paths, downloaded (and checked) when not already present."""
    source_dir = os.environ.get("TFGPUAUG_LIBJPEG_TURBO_SOURCES")
    folder = source_dir or downloads
    missing = [n for n in _TARBALLS if not os.path.exists(os.path.join(folder, n))]
    if missing and source_dir:
        raise RuntimeError(f"{os.path.join(source_dir, missing[0])} not found")
    if missing:
        if shutil.which("apt-get") is None:
            raise RuntimeError("apt-get not found; set TFGPUAUG_LIBJPEG_TURBO_SOURCES")
        os.makedirs(downloads, exist_ok=True)
        done = subprocess.run(["apt-get", "source", "--download-only", "-qq", _SOURCE_PACKAGE],
                              cwd=downloads, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"apt-get source {_SOURCE_PACKAGE} failed (are deb-src entries "
                               f"configured? see scripts/apt_setup.sh): {done.stderr.strip()}")
    paths = {}
    for name, digest in _TARBALLS.items():
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            if hashlib.sha256(f.read()).hexdigest() != digest:
                raise RuntimeError(f"{path}: sha256 mismatch")
        paths[name] = path
    return paths


def _run(cmd: list[str], cwd: str) -> None:
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def _build(root: str, out: str) -> None:
    for tool in ("cmake", "nasm", "patch", "nm", "objcopy"):
        if shutil.which(tool) is None:
            raise RuntimeError(f"{tool} not found")
    tarballs = _fetch(os.path.join(root, "build", "downloads"))
    shutil.rmtree(out, ignore_errors=True)
    src, build = os.path.join(out, "src"), os.path.join(out, "cmake")
    os.makedirs(build)
    for path in tarballs.values():  # upstream's libjpeg-turbo-VERSION/ and Debian's debian/
        with tarfile.open(path) as t:
            if hasattr(tarfile, "data_filter"):
                t.extractall(out, filter="data")
            else:
                t.extractall(out)
    os.rename(os.path.join(out, f"libjpeg-turbo-{VERSION}"), src)
    _run(["patch", "-s", "-p1", "-i", os.path.join(out, _PATCH)], cwd=src)
    _run(["cmake", "-G", "Unix Makefiles", "-DCMAKE_BUILD_TYPE=Release",
          f"-DCMAKE_C_FLAGS_RELEASE={_C_FLAGS}", "-DCMAKE_POSITION_INDEPENDENT_CODE=ON",
          "-DENABLE_SHARED=0", "-DENABLE_STATIC=1", "-DWITH_TURBOJPEG=0", src], cwd=build)
    _run(["cmake", "--build", ".", "--target", "jpeg-static", "-j", str(os.cpu_count() or 2)],
         cwd=build)
    # Rename every symbol the archive defines (internal references follow), and give the
    # public API names to the compiler through a forced include.
    listing = subprocess.run(["nm", "--defined-only", "-g", "-P", "libjpeg.a"], cwd=build,
                             check=True, capture_output=True, text=True).stdout
    symbols = sorted({line.split()[0] for line in listing.splitlines()
                      if len(line.split()) >= 2 and not line.endswith(":")})
    with open(os.path.join(out, "rename.syms"), "w") as f:
        f.writelines(f"{s} {SYMBOL_PREFIX}{s}\n" for s in symbols)
    _run(["objcopy", f"--redefine-syms={os.path.join(out, 'rename.syms')}", "libjpeg.a",
          os.path.join(out, "libjpeg_x86_64_v3.a")], cwd=build)
    with open(os.path.join(out, "jpeg_x86_64_v3_names.h"), "w") as f:
        f.write("// Generated by build_tools/libjpeg_turbo.py: libjpeg's API under its prefixed names.\n")
        f.writelines(f"#define {s} {SYMBOL_PREFIX}{s}\n" for s in symbols if s.startswith("jpeg_"))
    with open(os.path.join(out, "stamp"), "w") as f:
        f.write(_C_FLAGS + "\n")


def ensure_built(root: str) -> JpegV3Build | None:
    """The x86-64-v3 libjpeg-turbo (built once under build/), or None when it is turned off,
    cannot be built here (printing why), or the machine is not x86-64."""
    mode = _mode()
    if mode in ("0", "off", "false", "no"):
        return None
    out = os.path.join(os.path.abspath(root), "build", f"libjpeg-turbo-{VERSION}-x86_64-v3")
    result = JpegV3Build(archive=os.path.join(out, "libjpeg_x86_64_v3.a"),
                         include_dirs=[os.path.join(out, "cmake"), os.path.join(out, "src")],
                         rename_header=os.path.join(out, "jpeg_x86_64_v3_names.h"))
    stamp = os.path.join(out, "stamp")
    if os.path.exists(stamp):
        with open(stamp) as f:
            if f.read().strip() == _C_FLAGS:
                return result
    try:
        if platform.machine() not in ("x86_64", "AMD64"):
            raise RuntimeError(f"not an x86-64 machine ({platform.machine()})")
        print(f"building libjpeg-turbo {VERSION} for x86-64-v3 in {out}", flush=True)
        _build(root, out)
        return result
    except Exception as e:  # noqa: BLE001 - any failure falls back to the system libjpeg
        if mode in ("1", "on", "true", "yes", "required"):
            raise
        print(f"tfgpuaug: x86-64-v3 libjpeg-turbo not built ({e}); using the system libjpeg only",
              flush=True)
        return None
