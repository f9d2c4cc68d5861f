"""Builds tfgpuaug's op library against the installed TensorFlow.

    pip install --no-build-isolation .      # builds against the TensorFlow already installed
    TFGPUAUG_CUDA=auto|0|1                  # CUDA kernels: when a toolchain is found | never | required
    TFGPUAUG_CUDA_TOOLCHAIN=auto|cu12|nvcc  # CUDA 12 via clang + PyPI (default when clang 17+ is
                                            # found) | the found nvcc (CUDA 13: driver R580+)
"""
import glob
import os
import sys

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_tools import native_build  # noqa: E402

# scripts/build_wheels.sh: TFGPUAUG_STAGE_ONLY=1 builds the library into --build-lib only (the
# source tree's tfgpuaug/ is left alone), objects in TFGPUAUG_OBJ_DIR when set (one folder per
# TensorFlow minor: their headers differ); TFGPUAUG_PREBUILT_LIBS=DIR packages the per-minor
# libraries built there (_tfgpuaug_ops_tf2_21.so, ...) instead of compiling.
STAGE_ONLY = os.environ.get("TFGPUAUG_STAGE_ONLY", "") == "1"
PREBUILT_LIBS = os.environ.get("TFGPUAUG_PREBUILT_LIBS", "")
LIBRARY = "tfgpuaug._tfgpuaug_ops"


class BuildOpLibrary(build_ext):
    """Compiles cc/kernels and cc/ops with TensorFlow's flags and records the TF version."""

    def build_extension(self, ext):
        if PREBUILT_LIBS:
            self._package_prebuilt()
            return
        import tensorflow as tf

        # TFGPUAUG_SANITIZE=1: an ASan + UBSan CPU build for the test suite
        # (scripts/sanitizer_tests.sh); its objects are kept apart from the normal build's.
        # UBSan only on cc/kernels: GCC rejects TensorFlow's absl headers under it.
        sanitize = os.environ.get("TFGPUAUG_SANITIZE", "") not in ("", "0")
        toolchain = native_build.op_library_toolchain()
        use_cuda = native_build.want_cuda(toolchain) and not sanitize
        sanitizer_flags = (["-fsanitize=address", "-fno-omit-frame-pointer", "-g", "-O1"]
                           if sanitize else [])
        tf_flags = list(tf.sysconfig.get_compile_flags())
        abi = [f for f in tf_flags if f.startswith("-D_GLIBCXX_USE_CXX11_ABI")] or [native_build.CXX11_ABI_DEFAULT]
        kernels, kernels_cu = native_build.kernel_sources()
        ops = sorted(glob.glob(os.path.join(native_build.ROOT, "cc", "ops", "*.cc")))
        if not use_cuda:
            ops = [s for s in ops if not s.endswith("_gpu.cc")]
        output = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(output), exist_ok=True)
        target = native_build.NativeTarget(
            output=output,
            sources=kernels + ops,
            cuda_sources=kernels_cu,
            cxx_flags=tf_flags + ["-Wno-deprecated-declarations"] + sanitizer_flags,
            # cc/kernels: ASan and UBSan; the op adapters ASan only (sanitizer_flags)
            kernel_cxx_flags=abi + (native_build.ASAN_UBSAN_FLAGS if sanitize else []),
            link_flags=list(tf.sysconfig.get_link_flags()) + (native_build.ASAN_UBSAN_FLAGS if sanitize else []),
            use_cuda=use_cuda,
            cuda_toolchain=toolchain,
            precompiled_header=os.path.join(native_build.ROOT, "cc", "ops", "tf_headers.h"),
        )
        if sanitize:
            target.build_dir = os.path.join(native_build.ROOT, "build", "obj-sanitize")
        elif os.environ.get("TFGPUAUG_OBJ_DIR"):
            target.build_dir = os.path.abspath(os.environ["TFGPUAUG_OBJ_DIR"])
        native_build.build(target)
        major, minor = tf.__version__.split(".")[:2]
        cuda_version = native_build.cuda_release(toolchain) if use_cuda else None
        # Next to the built library, and in the source tree for in-place use (setuptools
        # builds in-place extensions under build/ and copies only the library over; it
        # hides the --inplace flag from this method). The sanitized build has its own copy.
        package_dirs = {os.path.dirname(output)}
        if not sanitize and not STAGE_ONLY:
            package_dirs.add(os.path.join(native_build.ROOT, "tfgpuaug"))
        for package_dir in package_dirs:
            with open(os.path.join(package_dir, "_build_info.py"), "w") as f:
                f.write('"""Written by setup.py: what this op library was compiled against."""\n')
                f.write(f"TF_VERSION = {tf.__version__!r}\n")
                f.write(f"TF_MAJOR_MINOR = ({major}, {minor})\n")
                f.write(f"CUDA_BUILT = {use_cuda}\n")
                _write_cuda_info(f, use_cuda, cuda_version, toolchain)
                f.write("# libjpeg-turbo built for x86-64-v3 linked in (used on CPUs that have it).\n")
                f.write(f"JPEG_X86_64_V3 = {target.jpeg_x86_64_v3}\n")
                f.write("# libtiff built without JBIG (GPL) and linked statically (build_tools/libtiff.py).\n")
                f.write(f"TIFF_STATIC = {target.tiff_static}\n")


    def _package_prebuilt(self):
        """Copies the per-TF-minor libraries into the wheel, with a _build_info naming them."""
        import shutil

        package_dir = os.path.join(self.build_lib, "tfgpuaug")
        os.makedirs(package_dir, exist_ok=True)
        libs = sorted(glob.glob(os.path.join(PREBUILT_LIBS, "_tfgpuaug_ops_tf*.so")))
        if not libs:
            raise RuntimeError(f"no _tfgpuaug_ops_tf*.so in {PREBUILT_LIBS}")
        for lib in libs:
            shutil.copy2(lib, package_dir)
        minors = sorted({tuple(int(v) for v in m.split(".")) for m in _wheel_minors()})
        with open(os.path.join(package_dir, "_build_info.py"), "w") as f:
            f.write('"""Written by setup.py: a wheel with one op library per TensorFlow minor."""\n')
            f.write(f"TF_MINORS = {tuple(minors)!r}\n")
            f.write(f"TF_VERSION = {'/'.join(f'{a}.{b}' for a, b in minors)!r}\n")
            f.write(f"TF_MAJOR_MINOR = {minors[-1]!r}\n")
            # scripts/build_wheels.sh requires both by default (TFGPUAUG_CUDA=1, TFGPUAUG_JPEG_V3=1).
            f.write(f"CUDA_BUILT = {os.environ.get('TFGPUAUG_CUDA') == '1'}\n")
            cuda_built = os.environ.get("TFGPUAUG_CUDA") == "1"
            toolchain = native_build.op_library_toolchain()
            _write_cuda_info(f, cuda_built, native_build.cuda_release(toolchain) if cuda_built else None, toolchain)
            f.write(f"JPEG_X86_64_V3 = {os.environ.get('TFGPUAUG_JPEG_V3') == '1'}\n")
            f.write(f"TIFF_STATIC = {os.environ.get('TFGPUAUG_TIFF_STATIC') == '1'}\n")


def _write_cuda_info(f, use_cuda: bool, cuda_version, toolchain: str) -> None:
    runtime = None
    if use_cuda:
        runtime = "tensorflow" if toolchain == "cu12" else "static"
    f.write("# The CUDA release the kernels were compiled for, and whose runtime they call: \"tensorflow\"\n"
            "# (the libcudart.so.12 TensorFlow loads; driver R525+ as TensorFlow) or \"static\" (linked\n"
            "# in; CUDA 13 needs driver R580+).\n")
    f.write(f"CUDA_VERSION = {cuda_version if use_cuda else None!r}\n")
    f.write(f"CUDA_RUNTIME = {runtime!r}\n")


try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel


class AnyPythonWheel(bdist_wheel):
    """The op library links TensorFlow, not CPython (it is loaded with tf.load_op_library):
    one wheel serves every Python the TensorFlow minors support (py3-none-<platform>)."""

    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", platform


def _wheel_minors():
    return os.environ.get("TFGPUAUG_TF_MINORS", "").split()


def _wheel_local_version() -> str:
    """"+cu13" for a wheel whose GPU kernels were built with nvcc 13 and link its runtime
    (driver R580+); the default wheel (CUDA 12, TensorFlow's runtime) has no label."""
    if not PREBUILT_LIBS or os.environ.get("TFGPUAUG_CUDA") != "1" or native_build.op_library_toolchain() != "nvcc":
        return ""
    release = native_build.nvcc_version()
    return "+cu" + release.split(".")[0] if release else ""


def tf_requirement():
    if PREBUILT_LIBS:  # the wheel supports exactly the minors it carries a library for
        minors = sorted(tuple(int(v) for v in m.split(".")) for m in _wheel_minors())
        (lo_major, lo_minor), (hi_major, hi_minor) = minors[0], minors[-1]
        return f"tensorflow>={lo_major}.{lo_minor},<{hi_major}.{hi_minor + 1}"
    try:
        import tensorflow as tf

        major, minor = (int(x) for x in tf.__version__.split(".")[:2])
        return f"tensorflow>={major}.{minor},<{major}.{minor + 1}"
    except ImportError:
        return "tensorflow>=2.21,<2.22"


setup(
    name="tfgpuaug",
    version="0.1.0" + _wheel_local_version(),
    description="Fast TensorFlow image input pipelines: C++/CUDA decode, geometry and batched augmentation ops",
    long_description=open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "README.md")).read(),
    long_description_content_type="text/markdown",
    license="Apache-2.0",
    # The wheel's .dist-info carries these: tfgpuaug's licence and those of the libraries it bundles.
    license_files=["LICENSE", "third_party/licenses/*.txt", "third_party/licenses/README.md"],
    classifiers=[
        "License :: OSI Approved :: Apache Software License",
        "Programming Language :: Python :: 3",
        "Programming Language :: C++",
        "Operating System :: POSIX :: Linux",
        "Topic :: Scientific/Engineering :: Artificial Intelligence",
    ],
    packages=find_packages(include=["tfgpuaug", "tfgpuaug.*"]),
    ext_modules=[Extension(LIBRARY, sources=[])],
    cmdclass={"build_ext": BuildOpLibrary, **({"bdist_wheel": AnyPythonWheel} if PREBUILT_LIBS else {})},
    python_requires=">=3.9",
    install_requires=[tf_requirement(), "numpy", "absl-py"],
    extras_require={"test": ["pytest", "pillow"], "gpu": ["nvidia-nvjpeg-cu12"]},
    zip_safe=False,
)
