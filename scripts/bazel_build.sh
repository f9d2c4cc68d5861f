#!/usr/bin/env bash
# Builds //:_tfgpuaug_ops.so with Debian's bazel-bootstrap (Bazel 4), offline: rules_cc and
# rules_java, which Bazel 4 would download, are replaced by local forwarding repositories.
# Then checks that the Bazel-built library loads and decodes.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="$PWD/.venv/bin/python"
offline="$PWD/third_party/bazel_offline"
export PYTHON_BIN_PATH="$PY"
log=$(mktemp)
if ! bazel --batch build //:_tfgpuaug_ops.so \
    --override_repository=rules_cc="$offline/rules_cc" \
    --override_repository=rules_java="$offline/rules_java" \
    --repo_env=PYTHON_BIN_PATH="$PY" --spawn_strategy=local --noshow_progress > "$log" 2>&1; then
  tail -40 "$log"
  exit 1
fi
tail -3 "$log"
"$PY" - <<PYEOF
import tensorflow as tf
ops = tf.load_op_library("$PWD/bazel-bin/_tfgpuaug_ops.so")
png = tf.io.encode_png(tf.fill([3, 5, 3], tf.constant(7, tf.uint8)))
img = ops.tf_gpu_aug_decode_image(png, tf.zeros([0], tf.int32))
assert img.shape == (3, 5, 3) and int(tf.reduce_max(img)) == 7, img
print("bazel-built op library loads and decodes:", img.shape)
PYEOF
