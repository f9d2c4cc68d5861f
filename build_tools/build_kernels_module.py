"""Builds tfgpuaug_kernels, the TensorFlow-free pybind11 module over cc/kernels.

    python build_tools/build_kernels_module.py [--out DIR]   # TFGPUAUG_CUDA=auto|0|1 as setup.py
    python build_tools/build_kernels_module.py --emulate-cuda  # CUDA kernels on the CPU emulator:
                                                               # build/kernels_module_emu
    python build_tools/build_kernels_module.py --toolchain cu12 --out DIR  # the kernels compiled as the
                                                               # op library's CUDA 12 build compiles them,
                                                               # linked to PyPI's libcudart.so.12
"""
import argparse
import os
import sys
import sysconfig

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from build_tools import native_build  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=None)
    parser.add_argument("--sanitize", action="store_true",
                        help="AddressSanitizer and UBSan (run Python with libasan preloaded; with --emulate-cuda: "
                             "build/kernels_module_emu_asan)")
    parser.add_argument("--tsan", action="store_true",
                        help="ThreadSanitizer (with --emulate-cuda: build/kernels_module_emu_tsan; run with "
                             "TFGPUAUG_CUDA_EMU_FIBERS=1 and libtsan preloaded)")
    parser.add_argument("--emulate-cuda", action="store_true",
                        help="compile the CUDA sources against cc/testing/cuda_emu (also TFGPUAUG_CUDA=emulate)")
    parser.add_argument("--toolchain", choices=["nvcc", "cu12"], default="nvcc",
                        help="the CUDA compiler: nvcc (CUDA 13, static cudart) or cu12 (clang with CUDA 12.5 from "
                             "PyPI, as the op library's default build; the module links libcudart.so.12 from "
                             "build/cuda12, since it has no TensorFlow to bind to)")
    args = parser.parse_args()
    emulate = args.emulate_cuda or os.environ.get("TFGPUAUG_CUDA", "").lower() == "emulate"
    if args.out is None:
        args.out = os.path.join(native_build.ROOT, "build", ("kernels_module_emu" if emulate else "kernels_module")
                                + ("_asan" if args.sanitize else "_tsan" if args.tsan else ""))
    import pybind11

    os.makedirs(args.out, exist_ok=True)
    kernels, kernels_cu = native_build.kernel_sources()
    output = os.path.join(args.out, "tfgpuaug_kernels" + sysconfig.get_config_var("EXT_SUFFIX"))
    target = native_build.NativeTarget(
        output=output,
        sources=kernels + [os.path.join(native_build.ROOT, "cc", "python", "kernels_module.cc")],
        cuda_sources=kernels_cu,
        cxx_flags=["-I" + pybind11.get_include(), "-I" + sysconfig.get_paths()["include"],
                   "-fvisibility=hidden"],
        kernel_cxx_flags=[native_build.CXX11_ABI_DEFAULT],
        use_cuda=not emulate and native_build.want_cuda(),
        emulate_cuda=emulate,
        cuda_toolchain=args.toolchain,
    )
    if args.toolchain == "cu12" and target.use_cuda:
        # The op library binds to TensorFlow's cudart stub; this module has no TensorFlow, so it
        # links the CUDA 12.5 runtime the toolchain installed (found at run time on the library path).
        from build_tools import cuda12_toolchain
        target.link_flags += ["-L" + cuda12_toolchain.ensure().runtime_lib_dir, "-l:libcudart.so.12"]
        target.build_dir += "_cu12"
    if emulate:
        target.build_dir = os.path.join(native_build.ROOT, "build", "obj_emu")
    if args.sanitize:
        target.cxx_flags += native_build.ASAN_UBSAN_FLAGS
        target.kernel_cxx_flags += native_build.ASAN_UBSAN_FLAGS
        target.link_flags += native_build.ASAN_UBSAN_FLAGS
        target.build_dir += "_asan"
    if args.tsan:
        target.cxx_flags += native_build.TSAN_FLAGS
        target.kernel_cxx_flags += native_build.TSAN_FLAGS
        target.link_flags += ["-fsanitize=thread"]
        target.build_dir += "_tsan"
    native_build.build(target)
    if emulate:
        print(build_fake_nvjpeg(args.out, target.cxx_flags if args.sanitize or args.tsan else []))
    print(output)


def build_fake_nvjpeg(out_dir: str, extra_flags: list[str]) -> str:
    """cc/testing/fake_nvjpeg as OUT_DIR/libnvjpeg_fake.so, for TFGPUAUG_NVJPEG_PATH under the
    emulation (the nvJPEG route of a GPU decode, run on the CPU)."""
    root = native_build.ROOT
    output = os.path.join(out_dir, "libnvjpeg_fake.so")
    cmd = [os.environ.get("CXX", "g++"), "-shared", "-fPIC", "-std=c++17", "-O2",
           os.path.join(root, "cc", "testing", "fake_nvjpeg", "fake_nvjpeg.cc"), "-o", output,
           "-I" + os.path.join(root, "cc", "testing", "cuda_emu"), "-I" + native_build.nvjpeg_include()]
    nvcc = native_build.find_nvcc()
    if nvcc is not None:
        cmd.append("-idirafter" + os.path.join(native_build.cuda_home(nvcc), "include"))
    cmd += [f for f in extra_flags if f.startswith("-fsanitize") or f.startswith("-fno-sanitize")] + ["-ljpeg"]
    native_build._run(cmd)
    return output


if __name__ == "__main__":
    main()
