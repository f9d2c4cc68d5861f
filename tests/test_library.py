"""Library loading: namespaced ops registered once, TF version check, lazy GPU libraries."""
import os
import subprocess
import sys

import pytest
import tensorflow as tf

import tfgpuaug
from tfgpuaug import _build_info, _loader


def test_ops_are_namespaced_and_registered_once():
    ops = _loader.ops()
    assert ops is _loader.ops()  # cached: the library is loaded once
    names = {"TfGpuAug>DecodeImage", "TfGpuAug>DecodeImageBatch", "TfGpuAug>ImageShape",
             "TfGpuAug>CropResize", "TfGpuAug>DecodeCropResize", "TfGpuAug>CropMirrorNormalize",
             "TfGpuAug>Flip", "TfGpuAug>WarpAffine", "TfGpuAug>Augment"}
    graph = tf.Graph()
    with graph.as_default():
        tfgpuaug.decode_image(tf.constant(b""))
    assert "TfGpuAug>DecodeImage" in {op.type for op in graph.get_operations()}
    from tensorflow.python.framework import op_def_registry
    assert all(op_def_registry.get(n) is not None for n in names)


def test_version_mismatch_says_to_rebuild(monkeypatch):
    monkeypatch.setattr(_build_info, "TF_MAJOR_MINOR", (2, 99))
    monkeypatch.setattr(_build_info, "TF_VERSION", "2.99.0")
    with pytest.raises(ImportError, match="rebuild"):
        _loader._check_tf_version()


def test_wheel_library_per_tf_minor_is_chosen_and_checked(monkeypatch, tmp_path):
    """A wheel carries _tfgpuaug_ops_tf<major>_<minor>.so per supported minor: the running
    TensorFlow's is loaded, before any source-build library; an unsupported minor is refused
    naming the supported ones."""
    major, minor = (int(x) for x in tf.__version__.split(".")[:2])
    for name in (f"_tfgpuaug_ops_tf{major}_{minor - 1}.so", "_tfgpuaug_ops.cpython-311-x86_64-linux-gnu.so"):
        (tmp_path / name).write_bytes(b"")
    monkeypatch.setattr(_loader, "_LIBRARY", str(tmp_path / "_tfgpuaug_ops.so"))
    assert _loader._library_path().endswith("_tfgpuaug_ops.cpython-311-x86_64-linux-gnu.so")
    (tmp_path / f"_tfgpuaug_ops_tf{major}_{minor}.so").write_bytes(b"")
    assert _loader._library_path().endswith(f"_tfgpuaug_ops_tf{major}_{minor}.so")
    monkeypatch.setattr(_build_info, "TF_MINORS", ((major, minor - 1), (major, minor)), raising=False)
    _loader._check_tf_version()  # supported: no error
    monkeypatch.setattr(_build_info, "TF_MINORS", ((2, 19), (2, 20)), raising=False)
    with pytest.raises(ImportError, match=r"built against TensorFlow 2\.19, 2\.20"):
        _loader._check_tf_version()


def test_x86_64_v3_libjpeg_linked_when_required():
    # CI builds with TFGPUAUG_JPEG_V3=1, which must fail the build rather than fall back.
    if os.environ.get("TFGPUAUG_JPEG_V3") != "1":
        pytest.skip("TFGPUAUG_JPEG_V3=1 not set")
    assert _build_info.JPEG_X86_64_V3


def test_import_in_fresh_process_without_gpu_libraries():
    code = ("import tfgpuaug, tensorflow as tf; "
            "print(tfgpuaug.decode_image(tf.io.encode_png(tf.zeros([2,3,3],tf.uint8))).shape)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "(2, 3, 3)" in out.stdout


def test_sanitized_runs_load_the_sanitized_library():
    # scripts/sanitizer_tests.sh sets TFGPUAUG_SANITIZED: the ops must come from its build.
    if not os.environ.get("TFGPUAUG_SANITIZED"):
        pytest.skip("not a sanitizer run")
    with open("/proc/self/maps") as f:
        libs = {line.split()[-1] for line in f if "_tfgpuaug_ops" in line}
    assert libs and all("/build/sanitized/" in lib for lib in libs), libs


def test_public_api_is_typed():
    """Every public function and public method of every exported class annotates its
    parameters and return value (`__init__` its parameters). Mutant: drop one annotation."""
    import inspect

    import tfgpuaug as tga
    from tfgpuaug import augment, data, service

    missing = []
    for module in (tga, augment, data, service):
        names = getattr(module, "__all__", [n for n in dir(module) if not n.startswith("_")])
        for name in names:
            obj = getattr(module, name)
            if inspect.isfunction(obj) and obj.__module__.startswith("tfgpuaug"):
                funcs = [(name, obj)]
            elif inspect.isclass(obj) and obj.__module__.startswith("tfgpuaug"):
                funcs = [(f"{name}.{m}", f) for m, f in vars(obj).items()
                         if inspect.isfunction(f) and (not m.startswith("_") or m == "__init__")]
            else:
                continue
            for qualname, f in funcs:
                sig = inspect.signature(f)
                for p in sig.parameters.values():
                    if (p.name not in ("self", "cls") and p.annotation is inspect.Parameter.empty
                            and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)):
                        missing.append(f"{qualname}({p.name})")
                if not qualname.endswith("__init__") and sig.return_annotation is inspect.Signature.empty:
                    missing.append(f"{qualname} -> ?")
    assert not missing, missing
