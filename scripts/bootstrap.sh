#!/usr/bin/env bash
# Creates .venv, installs the build/test dependencies, builds and installs tfgpuaug (op
# library with CPU objects, plus CUDA objects when nvcc is found or TFGPUAUG_CUDA=1), and
# builds the TensorFlow-free kernels module. Safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
# The system's part first: as root, apt installs what is missing (scripts/apt_setup.sh);
# otherwise stop now with the one command to run, before any download or compile.
missing=$(PYTHON="$PYTHON" bash scripts/check_system.sh)
if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && [ -z "${TFGPUAUG_SYSROOT:-}" ] && command -v apt-get > /dev/null; then
  echo "bootstrap: installing the system packages the build needs (scripts/apt_setup.sh)"
  bash scripts/apt_setup.sh
  missing=$(PYTHON="$PYTHON" bash scripts/check_system.sh)
fi
if [ -n "$missing" ]; then
  echo "bootstrap: the build needs these, which this machine lacks:" >&2
  while IFS= read -r line; do echo "  - $line" >&2; done <<< "$missing"
  echo "On Debian or Ubuntu, install them with:  sudo bash scripts/apt_setup.sh" >&2
  echo "then run this command again (TFGPUAUG_JPEG_V3=0 skips cmake, nasm, patch and dpkg-source)." >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -r requirements-dev.txt
# --no-build-isolation: the op library must be compiled against the installed TensorFlow.
.venv/bin/python -m pip install -q --no-build-isolation --force-reinstall --no-deps .
# Also link the library into the source tree (objects are reused), so that commands run
# from the checkout import a working package too.
.venv/bin/python setup.py -q build_ext --inplace > /dev/null
.venv/bin/python build_tools/build_kernels_module.py > /dev/null
# The same module with every CUDA kernel run by the CPU emulation (cc/testing/cuda_emu), which
# tests/test_cuda_emulation.py runs the GPU self-check and the GPU tests on.
.venv/bin/python build_tools/build_kernels_module.py --emulate-cuda > /dev/null
(cd / && "$OLDPWD/.venv/bin/python" -c "import tfgpuaug, tfgpuaug._build_info as b; print('tfgpuaug built for TF', b.TF_VERSION, '| CUDA objects:', b.CUDA_BUILT, '(CUDA', str(b.CUDA_VERSION) + ')', '| x86-64-v3 libjpeg-turbo:', b.JPEG_X86_64_V3, '| libtiff without JBIG, static:', b.TIFF_STATIC)")
