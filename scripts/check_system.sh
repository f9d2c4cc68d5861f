#!/usr/bin/env bash
# Prints what the build needs from the system and does not find, one line each ("" when
# nothing is missing): a C++ compiler, Python's venv module, the codec headers, and, for the
# x86-64-v3 libjpeg-turbo (TFGPUAUG_JPEG_V3 not 0), cmake, nasm, patch and dpkg-source.
# scripts/bootstrap.sh runs it first, so a missing header stops the set-up at once with the
# command that installs it, not after minutes of compiler output.
# TFGPUAUG_SYSROOT=<dir> looks for the headers under <dir> instead of / (the tests use it).
set -uo pipefail
root=${TFGPUAUG_SYSROOT:-}
PYTHON=${PYTHON:-python3}
header() {  # header <path under /usr/include> <what it is>
  [ -f "$root/usr/include/$1" ] || echo "header $1 ($2)"
}
tool() {  # tool <command> <what it is for>
  command -v "$1" > /dev/null 2>&1 || echo "command $1 ($2)"
}
tool g++ "the C++ compiler"
"$PYTHON" -c "import venv, ensurepip" > /dev/null 2>&1 || echo "python module venv/ensurepip (python3-venv)"
header jpeglib.h "libjpeg-turbo"
header png.h "libpng"
header webp/demux.h "libwebp"
header gif_lib.h "giflib"
header x86_64-linux-gnu/tiffio.h "libtiff"
header openjpeg-2.5/openjpeg.h "OpenJPEG"
if [ "${TFGPUAUG_JPEG_V3:-auto}" != 0 ]; then
  for t in cmake nasm patch dpkg-source; do tool "$t" "the x86-64-v3 libjpeg-turbo build"; done
fi
if [ "${TFGPUAUG_CUDA_TOOLCHAIN:-auto}" = cu12 ] || [ "${TFGPUAUG_REQUIRE_CUDA12:-0}" = 1 ]; then
  tool clang++-19 "the CUDA compiler of the CUDA 12 build"
fi
exit 0
