"""Repository rule exposing the installed TensorFlow wheel's headers and framework library."""

def _tf_local_impl(ctx):
    python = ctx.os.environ.get("PYTHON_BIN_PATH", "python3")
    result = ctx.execute([python, "-c", "import tensorflow as tf; print(tf.sysconfig.get_include()); print(tf.sysconfig.get_lib())"])
    if result.return_code != 0:
        fail("cannot import tensorflow with %s (set PYTHON_BIN_PATH): %s" % (python, result.stderr))
    include, lib = result.stdout.strip().split("\n")[-2:]
    ctx.symlink(include, "include")
    ctx.symlink(lib + "/libtensorflow_framework.so.2", "libtensorflow_framework.so.2")
    ctx.file("BUILD", """
cc_library(
    name = "tf_headers",
    hdrs = glob(["include/**"]),
    includes = ["include"],
    defines = ["EIGEN_MAX_ALIGN_BYTES=64", "_GLIBCXX_USE_CXX11_ABI=1"],
    visibility = ["//visibility:public"],
)

cc_library(
    name = "tf_framework",
    srcs = ["libtensorflow_framework.so.2"],
    visibility = ["//visibility:public"],
)
""")

tf_local = repository_rule(
    implementation = _tf_local_impl,
    environ = ["PYTHON_BIN_PATH"],
    local = True,
)
