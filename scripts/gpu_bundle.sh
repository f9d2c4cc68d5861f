#!/usr/bin/env bash
# One folder, built here, for a lent GPU machine (Python 3.12 with numpy, nvcc and
# compute-sanitizer; no TensorFlow, no apt, no codec headers, so nothing can be built there):
# the kernels module for Python 3.12 with its CUDA kernels, the codec libraries it links,
# libnvjpeg (PyPI's), the GPU self-check, the kernel timing and run.sh, which runs them all:
#
#   bash scripts/gpu_bundle.sh                 # -> build/gpu_bundle (under 64 MiB), prints the command
#   bash scripts/gpu_bundle.sh --emulate DIR   # the same layout around the emulated module
#                                              # (cc/testing/cuda_emu) and fake nvJPEG, for CI
#
# run.sh writes its logs to $OUT when set (the device tool's folder that comes back), else
# to the bundle's out/. Needs: nvcc and pyenv's Python 3.12 (PYTHON312 overrides) for the real
# bundle; the project's .venv for --emulate.
set -euo pipefail
cd "$(dirname "$0")/.."
emulate=0
if [ "${1:-}" = "--emulate" ]; then
  emulate=1
  shift
fi
out=${1:-build/gpu_bundle}
rm -rf "$out" && mkdir -p "$out/module" "$out/lib" "$out/scripts" "$out/tests/data" "$out/tfgpuaug"

if [ "$emulate" = 1 ]; then
  .venv/bin/python build_tools/build_kernels_module.py --emulate-cuda --out "$out/module" > "$out/build.log"
  mv "$out/module/libnvjpeg_fake.so" "$out/lib/libnvjpeg.so"
  nvjpeg=libnvjpeg.so
else
  py312=${PYTHON312:-$(ls -d "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"/versions/3.12*/bin/python3.12 | tail -1)}
  if [ ! -x build/py312/bin/python ]; then
    "$py312" -m venv build/py312
    build/py312/bin/python -m pip install -q pybind11 nvidia-nvjpeg-cu12
  fi
  TFGPUAUG_CUDA=1 build/py312/bin/python build_tools/build_kernels_module.py --out "$out/module" > "$out/build.log"
  # The same kernels as the op library's CUDA 12 build compiles them (clang-19, CUDA 12.5), so
  # the code the wheel ships runs on the GPU too; skipped where clang 17+ is missing.
  if build/py312/bin/python -c "import sys; sys.path.insert(0, '.'); from build_tools import cuda12_toolchain as t; sys.exit(t.find_clang() is None)"; then
    mkdir -p "$out/module_cu12"
    TFGPUAUG_CUDA=1 build/py312/bin/python build_tools/build_kernels_module.py --toolchain cu12 \
      --out "$out/module_cu12" >> "$out/build.log"
    cp build/cuda12/packages/nvidia/cuda_runtime/lib/libcudart.so.12 "$out/lib/"
  fi
  nvjpeg_lib=$(build/py312/bin/python -c "import nvidia.nvjpeg, os; print(os.path.join(list(nvidia.nvjpeg.__path__)[0], 'lib'))")
  cp "$nvjpeg_lib"/libnvjpeg.so.* "$out/lib/"
  nvjpeg=$(basename "$(ls "$out"/lib/libnvjpeg.so.* | head -1)")
fi

# The shared libraries the module links, but glibc's own (the GPU machine has its glibc).
ldd "$out"/module*/tfgpuaug_kernels*.so | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*) ;;
    *) cp -L "$lib" "$out/lib/" ;;
  esac
done

cp scripts/gpu_selfcheck.py scripts/gpu_bad_jpegs.py scripts/gpu_kernel_timing.py scripts/gpu_restart_probe.py "$out/scripts/"
cp tests/data/*.jpg "$out/tests/data/"
cp tfgpuaug/_nvjpeg_path.py "$out/tfgpuaug/"

cat > "$out/run.sh" <<EOF
#!/usr/bin/env bash
# Runs on the GPU machine from the bundle's folder: the self-check, compute-sanitizer's
# memcheck, racecheck, synccheck and initcheck over it (--quick), and the kernel timing. Exit status:
# the self-check's. Logs in \$OUT (or out/).
cd "\$(dirname "\$0")"
logs=\${OUT:-\$PWD/out}
mkdir -p "\$logs"
export LD_LIBRARY_PATH="\$PWD/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export TFGPUAUG_NVJPEG_PATH="\$PWD/lib/$nvjpeg"
PY=\${PYTHON:-python3}
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || echo "no nvidia-smi"
  "\$PY" --version; ldd module/*.so | grep -i "not found" || echo "every linked library found"; } | tee "\$logs/machine.txt"
"\$PY" scripts/gpu_selfcheck.py --module-dir module > "\$logs/selfcheck.txt" 2>&1
status=\$?
grep -v " ok\$" "\$logs/selfcheck.txt" | tail -40
echo "selfcheck exit \$status"
if [ -d module_cu12 ]; then  # the CUDA 12.5 build (clang), as the op library's wheel ships it
  "\$PY" scripts/gpu_selfcheck.py --module-dir module_cu12 > "\$logs/selfcheck_cu12.txt" 2>&1
  status_cu12=\$?
  grep -v " ok\$" "\$logs/selfcheck_cu12.txt" | tail -20
  echo "selfcheck (CUDA 12 build) exit \$status_cu12"
  [ "\$status" = 0 ] && status=\$status_cu12
fi
# TFGPUAUG_TIMING_REPEATS: fewer timed calls (the emulated bundle's test takes 1)
"\$PY" scripts/gpu_kernel_timing.py --module-dir module --repeats \${TFGPUAUG_TIMING_REPEATS:-20} > "\$logs/timing.txt" 2>&1
cat "\$logs/timing.txt"
if [ -d module_cu12 ]; then
  "\$PY" scripts/gpu_kernel_timing.py --module-dir module_cu12 --repeats \${TFGPUAUG_TIMING_REPEATS:-20} \
    > "\$logs/timing_cu12.txt" 2>&1
  echo "CUDA 12 build:"; cat "\$logs/timing_cu12.txt"
fi
# Each sanitizer run is bounded (TFGPUAUG_SANITIZER_TIMEOUT seconds), so one slow tool cannot
# take the others' logs with it when the device call runs out of time.
if command -v compute-sanitizer > /dev/null; then
  for tool in memcheck racecheck synccheck initcheck; do
    timeout \${TFGPUAUG_SANITIZER_TIMEOUT:-240} compute-sanitizer --tool \$tool --error-exitcode 3 "\$PY" scripts/gpu_selfcheck.py --module-dir module --quick \\
      > "\$logs/sanitizer_\$tool.txt" 2>&1
    echo "compute-sanitizer \$tool exit \$? (\$(grep -c "=========" "\$logs/sanitizer_\$tool.txt") report lines)"
    grep "SUMMARY" "\$logs/sanitizer_\$tool.txt" | tail -1
  done
  if [ -d module_cu12 ]; then
    timeout \${TFGPUAUG_SANITIZER_TIMEOUT:-240} compute-sanitizer --tool memcheck --error-exitcode 3 "\$PY" scripts/gpu_selfcheck.py \\
      --module-dir module_cu12 --quick > "\$logs/sanitizer_memcheck_cu12.txt" 2>&1
    echo "compute-sanitizer memcheck (CUDA 12 build) exit \$?"
    grep "SUMMARY" "\$logs/sanitizer_memcheck_cu12.txt" | tail -1
  fi
else
  echo "compute-sanitizer not found: sanitizer runs skipped"
fi
exit \$status
EOF
chmod +x "$out/run.sh"
size=$(du -sm "$out" | cut -f1)
echo "bundle: $out (${size} MiB; the device tool carries 64 MiB at most)"
if [ "$size" -ge 64 ]; then
  echo "the bundle is over 64 MiB" >&2
  exit 1
fi
echo "on the GPU machine (device tool, carry [\"$out\"]): bash $out/run.sh"
