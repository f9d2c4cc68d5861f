#!/usr/bin/env bash
# Builds the libFuzzer targets over the framework-free decoders in cc/kernels (no TensorFlow),
# with AddressSanitizer and UBSan: build/fuzz/decode_fuzzer (every format) and one
# build/fuzz/decode_fuzzer_<format> per format (fuzz/decode_fuzzer.cc with TFGPUAUG_FUZZ_FORMAT),
# each used with its dictionary fuzz/dict/<format>.dict. Needs Debian's clang and
# libclang-rt-<version>-dev. The decoders are compiled once and linked into every target.
#
#   bash fuzz/build_libfuzzer.sh
#   python fuzz/make_corpus.py --by-format /tmp/corpus
#   build/fuzz/decode_fuzzer_tiff -dict=fuzz/dict/tiff.dict -malloc_limit_mb=512 \
#       -max_total_time=600 /tmp/corpus/tiff
set -euo pipefail
cd "$(dirname "$0")/.."
CLANGXX=${CLANGXX:-clang++}
mkdir -p build/fuzz/obj
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -I. -I/usr/include/openjpeg-2.5
       -fsanitize=address,undefined -fno-sanitize-recover=undefined)
sources=(cc/kernels/decode/image_decode.cc cc/kernels/decode/jpeg_codec.cc
         cc/kernels/decode/jpeg_codec_select.cc cc/kernels/decode/png_codec.cc cc/kernels/decode/webp_codec.cc
         cc/kernels/decode/gif_codec.cc cc/kernels/decode/bmp_codec.cc cc/kernels/decode/pnm_codec.cc
         cc/kernels/decode/tiff_codec.cc cc/kernels/decode/jpeg2000_codec.cc
         cc/kernels/decode/orientation.cc cc/kernels/decode/decode_crop_resize.cc cc/kernels/decode/jpeg_restart.cc
         cc/kernels/resample/resample_cpu.cc cc/kernels/resample/row_sums.cc)
# Parallel jobs; a failed one fails the build.
pids=()
wait_all() {
  for pid in "${pids[@]}"; do wait "$pid"; done
  pids=()
}
objects=()
for src in "${sources[@]}"; do
  obj=build/fuzz/obj/$(echo "$src" | tr / _).o
  objects+=("$obj")
  "$CLANGXX" "${flags[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$obj" &
  pids+=($!)
done
wait_all
libs=(-ljpeg -lpng -lwebpdemux -lwebp -lgif -ltiff -lopenjp2)
# ImageFormat numbers (cc/kernels/decode/image_decode.h).
declare -A formats=([jpeg]=1 [png]=2 [webp]=3 [gif]=4 [bmp]=5 [pnm]=6 [tiff]=7 [jpeg2000]=8)
"$CLANGXX" "${flags[@]}" -fsanitize=fuzzer fuzz/decode_fuzzer.cc "${objects[@]}" "${libs[@]}" \
  -o build/fuzz/decode_fuzzer &
pids+=($!)
for name in "${!formats[@]}"; do
  "$CLANGXX" "${flags[@]}" -fsanitize=fuzzer -DTFGPUAUG_FUZZ_FORMAT="${formats[$name]}" fuzz/decode_fuzzer.cc \
    "${objects[@]}" "${libs[@]}" -o "build/fuzz/decode_fuzzer_$name" &
  pids+=($!)
done
wait_all
echo "built build/fuzz/decode_fuzzer and 8 per-format targets"
