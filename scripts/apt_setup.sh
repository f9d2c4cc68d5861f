#!/usr/bin/env bash
# System packages for the build, through apt by package name: libjpeg/libpng/libwebp/giflib/libtiff/OpenJPEG headers; cmake,
# nasm and patch for the x86-64-v3 libjpeg-turbo (whose source package apt-get source fetches,
# so deb-src entries are enabled beside the deb ones); clang + its libFuzzer/ASan runtime for
# fuzz/; clang-19, the CUDA compiler of the op library's CUDA 12 build (build_tools/cuda12_toolchain.py);
# Debian's bazel-bootstrap for scripts/bazel_build.sh; libjpeg-turbo-progs (cjpeg, jpegtran) for the
# restart-marker tests' fixtures in every chroma subsampling. Safe to re-run.
set -euo pipefail
sources=/etc/apt/sources.list.d/debian.sources
need_update=0
if [ -f "$sources" ] && grep -q '^Types: deb$' "$sources"; then
  sed -i 's/^Types: deb$/Types: deb deb-src/' "$sources"
  need_update=1
fi
if [ ! -f /usr/include/jpeglib.h ] || [ ! -f /usr/include/png.h ] || [ ! -f /usr/include/webp/demux.h ] \
   || [ ! -f /usr/include/gif_lib.h ] || [ ! -f /usr/include/x86_64-linux-gnu/tiffio.h ] \
   || [ ! -f /usr/include/openjpeg-2.5/openjpeg.h ] \
   || ! command -v clang++ > /dev/null || ! command -v clang++-19 > /dev/null \
   || ! command -v cmake > /dev/null || ! command -v nasm > /dev/null || ! command -v patch > /dev/null \
   || ! command -v bazel > /dev/null || ! command -v dpkg-source > /dev/null || ! command -v cjpeg > /dev/null \
   || [ ! -f "$(clang++ -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ]; then
  need_update=2
fi
[ "$need_update" = 0 ] && exit 0
apt-get update -qq
if [ "$need_update" = 2 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libjpeg62-turbo-dev libpng-dev libwebp-dev libgif-dev libtiff-dev libopenjp2-7-dev cmake nasm \
    patch dpkg-dev clang libclang-rt-14-dev clang-19 bazel-bootstrap libjpeg-turbo-progs > /dev/null
fi
