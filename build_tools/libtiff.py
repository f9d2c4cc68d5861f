"""libtiff built from Debian's source without JBIG, linked statically into the op library.

Debian's libtiff links JBIG-KIT, which is GPL-2+, for its JBIG codec; a wheel that bundles
Debian's libtiff therefore carries a GPL library. This builds the same release (4.5.0, with
every Debian patch: the security fixes) as a static, position-independent archive with JBIG
off and every other codec as Debian has it (zlib, libdeflate, JPEG, old JPEG, LERC, LZMA, ZSTD,
WebP, all permissively licensed), and the op library links it with its symbols kept inside
(`--exclude-libs`), so no other libtiff in the process is interposed on. A JBIG-compressed TIFF
(a fax format) is then refused like any unsupported compression.

    TFGPUAUG_TIFF_STATIC=auto   build when cmake and the sources are at hand (default)
    TFGPUAUG_TIFF_STATIC=1      required: fail the build when it cannot be made (the wheels)
    TFGPUAUG_TIFF_STATIC=0      never: link the system libtiff
    TFGPUAUG_LIBTIFF_SOURCES=DIR   a folder holding the two tarballs (offline builds)

The sources come through apt's own client (`apt-get source --download-only`; deb-src entries,
which scripts/apt_setup.sh adds) and are checked against the SHA-256 digests below.
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tarfile
from dataclasses import dataclass

from build_tools import apt_source

VERSION = "4.5.0"
_DEBIAN_REVISION = "6+deb12u4"
_SOURCE_PACKAGE = f"tiff={VERSION}-{_DEBIAN_REVISION}"
_TARBALLS = {  # file name -> sha256
    f"tiff_{VERSION}.orig.tar.bz2": "638f43d7dea33948d5dee7f39572fc0194d9cc3c74195de9dd26a4388a1f880a",
    f"tiff_{VERSION}-{_DEBIAN_REVISION}.debian.tar.xz":
        "4ee50a8cdf74a184d94e65a04f3c9de466cb0b74ef5393fb5ca65666fccb864b",
}
_CMAKE_OPTIONS = ["-Djbig=OFF", "-Dtiff-tools=OFF", "-Dtiff-tests=OFF", "-Dtiff-contrib=OFF", "-Dtiff-docs=OFF",
                  "-Dcxx=OFF", "-DBUILD_SHARED_LIBS=OFF", "-DCMAKE_POSITION_INDEPENDENT_CODE=ON",
                  "-DCMAKE_BUILD_TYPE=Release"]
# What the archive's codecs link (Debian's -dev packages, which libtiff-dev pulls in).
LINK_LIBS = ["-lwebp", "-lzstd", "-llzma", "-lLerc", "-ljpeg", "-ldeflate", "-lz", "-lm"]


@dataclass
class TiffBuild:
    archive: str              # libtiff.a: static, PIC, no JBIG
    include_dirs: list[str]   # tiffio.h and friends, and this build's tiffconf.h


def _mode() -> str:
    return os.environ.get("TFGPUAUG_TIFF_STATIC", "auto").strip().lower()


def _fetch(downloads: str) -> dict[str, str]:
    return apt_source.fetch(downloads, "TFGPUAUG_LIBTIFF_SOURCES", _SOURCE_PACKAGE, _TARBALLS)


def _run(cmd: list[str], cwd: str) -> None:
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def _build(root: str, out: str) -> None:
    for tool in ("cmake", "patch"):
        if shutil.which(tool) is None:
            raise RuntimeError(f"{tool} not found")
    tarballs = _fetch(os.path.join(root, "build", "downloads"))
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for path in tarballs.values():  # upstream's libtiff-v4.5.0/ and Debian's debian/
        with tarfile.open(path) as t:
            if hasattr(tarfile, "data_filter"):
                t.extractall(out, filter="data")
            else:
                t.extractall(out)
    src = os.path.join(out, "src")
    os.rename(glob.glob(os.path.join(out, "libtiff-v*"))[0], src)
    with open(os.path.join(out, "debian", "patches", "series")) as f:
        for patch in (line.strip() for line in f):
            if patch and not patch.startswith("#"):
                _run(["patch", "-s", "-p1", "-i", os.path.join(out, "debian", "patches", patch)], cwd=src)
    build = os.path.join(out, "cmake")
    os.makedirs(build)
    _run(["cmake", "-G", "Unix Makefiles", *_CMAKE_OPTIONS, src], cwd=build)
    _run(["cmake", "--build", ".", "--target", "tiff", "-j", str(os.cpu_count() or 2)], cwd=build)
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        if "jbig:BOOL=OFF" not in f.read():
            raise RuntimeError("libtiff was configured with JBIG")
    with open(os.path.join(out, "stamp"), "w") as f:
        f.write(" ".join(_CMAKE_OPTIONS) + "\n")


def ensure_built(root: str) -> TiffBuild | None:
    """The static libtiff (built once under build/), or None when it is turned off or cannot be
    built here (printing why: the build then links the system libtiff)."""
    mode = _mode()
    if mode in ("0", "off", "false", "no"):
        return None
    out = os.path.join(os.path.abspath(root), "build", f"libtiff-{VERSION}-nojbig")
    result = TiffBuild(archive=os.path.join(out, "cmake", "libtiff", "libtiff.a"),
                       include_dirs=[os.path.join(out, "cmake", "libtiff"), os.path.join(out, "src", "libtiff")])
    stamp = os.path.join(out, "stamp")
    if os.path.exists(stamp) and os.path.exists(result.archive):
        with open(stamp) as f:
            if f.read().strip() == " ".join(_CMAKE_OPTIONS):
                return result
    try:
        print(f"building libtiff {VERSION} without JBIG in {out}", flush=True)
        _build(root, out)
        return result
    except Exception as e:  # noqa: BLE001 - any failure falls back to the system libtiff
        if mode in ("1", "on", "true", "yes", "required"):
            raise
        print(f"tfgpuaug: static libtiff not built ({e}); linking the system libtiff", flush=True)
        return None
