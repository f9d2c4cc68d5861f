#!/usr/bin/env bash
# Builds fuzz/decode_fuzzer.cc with clang's libFuzzer, AddressSanitizer and UBSan over the
# framework-free decoders in cc/kernels (no TensorFlow). Needs Debian's clang and
# libclang-rt-<version>-dev. Output: build/fuzz/decode_fuzzer.
#
#   bash fuzz/build_libfuzzer.sh
#   python fuzz/make_corpus.py /tmp/corpus && build/fuzz/decode_fuzzer -max_total_time=600 /tmp/corpus
set -euo pipefail
cd "$(dirname "$0")/.."
CLANGXX=${CLANGXX:-clang++}
mkdir -p build/fuzz
sources=(fuzz/decode_fuzzer.cc cc/kernels/decode/image_decode.cc cc/kernels/decode/jpeg_codec.cc
         cc/kernels/decode/jpeg_codec_select.cc cc/kernels/decode/png_codec.cc cc/kernels/decode/webp_codec.cc
         cc/kernels/decode/gif_codec.cc cc/kernels/decode/bmp_codec.cc cc/kernels/decode/pnm_codec.cc
         cc/kernels/decode/tiff_codec.cc cc/kernels/decode/jpeg2000_codec.cc
         cc/kernels/decode/orientation.cc cc/kernels/decode/decode_crop_resize.cc
         cc/kernels/resample/resample_cpu.cc cc/kernels/resample/row_sums.cc)
"$CLANGXX" -std=c++17 -O1 -g -fno-omit-frame-pointer -I. -I/usr/include/openjpeg-2.5 \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  "${sources[@]}" -ljpeg -lpng -lwebpdemux -lwebp -lgif -ltiff -lopenjp2 -o build/fuzz/decode_fuzzer
echo "built build/fuzz/decode_fuzzer"
