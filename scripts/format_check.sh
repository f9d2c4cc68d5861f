#!/usr/bin/env bash
# Fails when C++/CUDA sources are not clang-format clean (.clang-format); `--fix` rewrites them.
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG_FORMAT=${CLANG_FORMAT:-.venv/bin/clang-format}
mapfile -t files < <(git ls-files 'cc/*.h' 'cc/*.cc' 'fuzz/*.h' 'fuzz/*.cc')
if [[ "${1:-}" == "--fix" ]]; then
  "$CLANG_FORMAT" -i "${files[@]}"
else
  "$CLANG_FORMAT" --dry-run --Werror "${files[@]}"
  echo "clang-format: ${#files[@]} files clean"
fi
