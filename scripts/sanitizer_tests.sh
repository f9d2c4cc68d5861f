#!/usr/bin/env bash
# Runs test files under an AddressSanitizer build of the op library (plus UBSan on
# cc/kernels): builds it into build/sanitized (CPU only, objects in build/obj-sanitize),
# preloads GCC's ASan runtime into Python and runs pytest against that copy.
#
#   bash scripts/sanitizer_tests.sh                        # the decode/geometry/augment tests, and
#                                                          # the GPU self-check on the emulated CUDA kernels
#                                                          # under ASan+UBSan and under TSan
#   bash scripts/sanitizer_tests.sh tests/test_decode.py   # chosen files
# Leak detection is off: Python and TensorFlow keep allocations alive at exit by design
# (scripts/leak_check.py measures leaks of the ops instead).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
out=build/sanitized
t0=$(date +%s)
step() { echo "sanitizers: $1 at $(( $(date +%s) - t0 ))s"; }
rm -rf "$out" && mkdir -p "$out"
if [ "$#" -eq 0 ]; then
  # ThreadSanitizer: every CUDA thread on its own fiber (TFGPUAUG_CUDA_EMU_FIBERS=1), ordered only
  # by the block's barriers, so two threads of a block touching the same memory between
  # barriers (a non-atomic shared histogram) is a reported race.
  LD_PRELOAD= "$PY" build_tools/build_kernels_module.py --emulate-cuda --tsan > "$out/emu_tsan_build.log" 2>&1 \
    || { tail -30 "$out/emu_tsan_build.log"; exit 1; }
  step "TSan kernels module built"
  # The TSan self-check is one single-threaded process of four minutes: it starts first and
  # runs beside everything below, so neither core waits for it at the end.
  ( LD_PRELOAD="$(gcc -print-file-name=libtsan.so)" TSAN_OPTIONS=halt_on_error=1:report_signal_unsafe=0 \
      TFGPUAUG_CUDA_EMU_FIBERS=1 TFGPUAUG_NVJPEG_PATH="$PWD/build/kernels_module_emu_tsan/libnvjpeg_fake.so" \
      "$PY" scripts/gpu_selfcheck.py --module-dir build/kernels_module_emu_tsan --quick --small > "$out/emu_tsan.log" 2>&1 ) &
  tsan_pid=$!
  trap 'kill "$tsan_pid" 2> /dev/null || true' EXIT  # a failed step below stops it too
fi
cp -r tfgpuaug "$out/" && rm -f "$out"/tfgpuaug/_tfgpuaug_ops*.so
TFGPUAUG_SANITIZE=1 TFGPUAUG_CUDA=0 "$PY" setup.py -q build_ext --build-lib "$out" > "$out/build.log" 2>&1 \
  || { tail -30 "$out/build.log"; exit 1; }
step "op library built"
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=(tests/test_library.py tests/test_exception_barrier.py tests/test_decode.py tests/test_webp.py tests/test_gif.py tests/test_formats.py tests/test_webdataset.py tests/test_coco.py tests/test_color_jitter.py tests/test_grid_mask.py tests/test_jpeg_quality.py tests/test_jpeg_restart.py tests/test_bad_input.py tests/test_limits.py
         tests/test_geometry.py tests/test_augment.py tests/test_transforms.py tests/test_threads.py
         tests/test_distortions.py tests/test_crop_and_pad.py tests/test_grid_shuffle.py tests/test_additive_noise.py
         tests/test_unsharp_mask.py tests/test_illumination.py tests/test_planckian_jitter.py
         tests/test_chromatic_aberration.py tests/test_kernel_blurs.py tests/test_weather.py tests/test_span_raster.py
         tests/test_histogram_matching.py tests/test_glass_blur.py tests/test_plasma.py tests/test_zoom_blur.py
         tests/test_sun_flare.py tests/test_spatter.py tests/test_grid_elastic.py tests/test_superpixels.py tests/test_he_stain.py
         tests/test_sun_flare_physics.py tests/test_host_pool.py
         # the placed resizes (DecodeResizePad, ResizePad) and annotations, encoded and decoded;
         # the whole detection file passes too but takes ~9 minutes under the sanitizers
         tests/test_detection.py::test_scale_jitter_matches_model_garden_steps
         "tests/test_detection.py::test_boxes_follow_the_pixels[scale_jitter+mirror-encoded]"
         "tests/test_detection.py::test_boxes_follow_the_pixels[letterbox-decoded]"
         "tests/test_detection.py::test_boxes_follow_the_pixels[mosaic-decoded]")
fi
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=0:detect_odr_violation=0:alloc_dealloc_mismatch=0:new_delete_type_mismatch=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TFGPUAUG_SANITIZED=1
if [ "$#" -eq 0 ]; then
  # Every CUDA kernel under ASan + UBSan: the GPU self-check on the emulated kernels module
  # (cc/testing/cuda_emu) built with both; an out-of-bounds access in a kernel stops it.
  LD_PRELOAD= "$PY" build_tools/build_kernels_module.py --emulate-cuda --sanitize > "$out/emu_build.log" 2>&1 \
    || { tail -30 "$out/emu_build.log"; exit 1; }
  step "ASan+UBSan kernels module built"
  TFGPUAUG_NVJPEG_PATH="$PWD/build/kernels_module_emu_asan/libnvjpeg_fake.so" \
    "$PY" scripts/gpu_selfcheck.py --module-dir build/kernels_module_emu_asan > "$out/emu_selfcheck.log" 2>&1 \
    || { grep -v " ok$" "$out/emu_selfcheck.log" | tail -40; exit 1; }
  tail -1 "$out/emu_selfcheck.log"
  step "ASan+UBSan self-check done"
fi
# PYTHONSAFEPATH: keep the checkout (cwd) off sys.path so the sanitized copy is the one imported,
# in pytest-xdist's workers too (python -P would not reach them).
tests_rc=0
PYTHONSAFEPATH=1 PYTHONPATH="$PWD/$out" "$PY" -m pytest -q -p no:cacheprovider "${files[@]}" -k "not shared_sample" \
  || tests_rc=$?
step "ASan tests done"
if [ -n "${tsan_pid:-}" ]; then
  if ! wait "$tsan_pid"; then
    grep -v " ok$" "$out/emu_tsan.log" | head -60
    exit 1
  fi
  echo "ThreadSanitizer: $(tail -1 "$out/emu_tsan.log")"
  step "TSan self-check done"
fi
exit "$tests_rc"
