#!/usr/bin/env bash
# Installs a tfgpuaug wheel into a fresh venv per TensorFlow minor (with only tensorflow and the
# wheel, by package name) and runs scripts/wheel_smoke.py there: from outside the source tree,
# with PATH holding the venv alone, so no compiler, nvcc or header can be reached.
#
#   bash scripts/check_wheel.sh dist/tfgpuaug-*.whl [2.19 2.20 2.21]
#   TFGPUAUG_CHECK_PYTHON=python3.12 bash scripts/check_wheel.sh ...   # another interpreter
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
WHEEL=$(realpath "$1")
shift
MINORS=${*:-"2.19 2.20 2.21"}
# The licences travel with the wheel: Apache-2.0 in its metadata, LICENSE and the bundled
# libraries' licences in its .dist-info.
"${TFGPUAUG_CHECK_PYTHON:-python3}" - "$WHEEL" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
meta = zipfile.ZipFile(sys.argv[1]).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
assert "License: Apache-2.0" in meta, "the wheel's METADATA has no Apache-2.0 licence"
need = ["LICENSE", "libjpeg-turbo.txt", "libpng.txt", "libtiff.txt", "openjpeg.txt", "libwebp.txt", "giflib.txt"]
missing = [f for f in need if not any(n.endswith("/" + f) and ".dist-info/" in n for n in names)]
assert not missing, f"the wheel's .dist-info lacks {missing}"
carried = [n for n in names if ".dist-info/" in n and (n.endswith(".txt") or n.endswith("/LICENSE"))]
print("licences in the wheel's .dist-info:", len(carried), "files")
# Which CUDA build the wheel carries (README: which build for which driver).
info = {}
exec(zipfile.ZipFile(sys.argv[1]).read("tfgpuaug/_build_info.py").decode(), info)
print("GPU kernels: CUDA", info.get("CUDA_VERSION"), "| runtime:", info.get("CUDA_RUNTIME"))
import os
if os.environ.get("TFGPUAUG_REQUIRE_CUDA12") == "1":
    assert info.get("CUDA_RUNTIME") == "tensorflow" and info.get("CUDA_VERSION") == "12.5", info
PY
for minor in $MINORS; do
  venv=$(mktemp -d)/venv
  trap 'rm -rf "$(dirname "$venv")"' EXIT   # a failed install must not leave 2 GB behind
  "${TFGPUAUG_CHECK_PYTHON:-python3}" -m venv "$venv"
  "$venv/bin/pip" install -q "tensorflow==$minor.*" "$WHEEL"
  echo "== TensorFlow $minor: $("$venv/bin/pip" list 2>/dev/null | grep -E '^(tensorflow|tfgpuaug) ' | tr -s ' ' | tr '\n' ' ')"
  (cd "$(dirname "$venv")" && env -i HOME="$HOME" PATH="$venv/bin" TF_CPP_MIN_LOG_LEVEL=2 \
    "$venv/bin/python" "$ROOT/scripts/wheel_smoke.py")
  rm -rf "$(dirname "$venv")"
done
