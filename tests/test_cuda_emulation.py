"""Every CUDA kernel runs in CI (issue #32): the kernels module built against the CPU emulation
of CUDA (cc/testing/cuda_emu, `build_kernels_module.py --emulate-cuda`) passes the GPU self-check
and the GPU tests of test_kernels_module.py, which skip on a plain CPU build. nvJPEG there is
cc/testing/fake_nvjpeg (libjpeg behind nvJPEG's entry points), so the nvJPEG route, its
allocator hooks, its refusals and the window copy kernel run too; without it the self-check
fails (a baseline JPEG decoded on the CPU proves nothing about the GPU path).

Planted bugs the emulated self-check caught (each on its own, checked by hand on 2026-11-25):
a grid-stride start one thread off in FlipKernel (226 of 230 pass), StatsKernel's first
__syncthreads removed (192 of 230), 2048 threads per block (the launch is refused:
cudaErrorInvalidConfiguration), a thread returning before StatsKernel's barriers
(cudaErrorLaunchFailure: threads passed different numbers of barriers).
"""
import glob
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EMU_DIR = os.path.join(ROOT, "build", "kernels_module_emu")


def with_fake_nvjpeg(module_dir: str, **extra) -> dict:
    return dict(os.environ, TFGPUAUG_NVJPEG_PATH=os.path.join(module_dir, "libnvjpeg_fake.so"), **extra)


@pytest.fixture(scope="module")
def emulated_module():
    if not glob.glob(os.path.join(EMU_DIR, "tfgpuaug_kernels*.so")):
        if os.environ.get("TFGPUAUG_REQUIRE_KERNELS_MODULE"):
            pytest.fail("the emulated kernels module was not built (scripts/bootstrap.sh builds it)")
        build = subprocess.run([sys.executable, os.path.join(ROOT, "build_tools", "build_kernels_module.py"),
                                "--emulate-cuda"], capture_output=True, text=True, timeout=900)
        if build.returncode != 0:
            pytest.skip("cannot build the emulated kernels module here: " + build.stderr[-500:])
    return EMU_DIR


def test_gpu_selfcheck_passes_on_the_emulator(emulated_module):
    run = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gpu_selfcheck.py"), "--module-dir",
                          emulated_module], capture_output=True, text=True, timeout=600,
                         env=with_fake_nvjpeg(emulated_module))
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "the CPU emulation of CUDA" in run.stdout and "libnvjpeg_fake.so" in run.stdout
    passed = re.search(r"gpu_selfcheck: (\d+) of \1 checks passed", run.stdout)
    assert passed and int(passed.group(1)) >= 230, run.stdout[-2000:]


def test_selfcheck_fails_when_nvjpeg_did_not_decode(emulated_module):
    """The self-check cannot pass by accident: with no libnvjpeg, every baseline JPEG goes to
    the CPU decoder, and each is a failed check (it used to pass, comparing the CPU with itself)."""
    env = dict(os.environ, TFGPUAUG_NVJPEG_PATH=os.path.join(emulated_module, "no_such_libnvjpeg.so"))
    run = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gpu_selfcheck.py"), "--module-dir",
                          emulated_module], capture_output=True, text=True, timeout=600, env=env)
    assert run.returncode == 1, run.stdout[-2000:]
    failed = [line for line in run.stdout.splitlines() if line.rstrip().endswith("FAIL")]
    assert failed and all("route host" in line for line in failed), failed
    assert sum("went through nvJPEG" in line for line in failed) >= 6, failed


def test_selfcheck_fails_with_the_error_when_the_driver_is_too_old(emulated_module):
    """A driver older than the runtime (TensorFlow's CUDA 12 drivers under a CUDA 13 runtime)
    is a failure with the error and both versions, not "no GPU found" (exit 2, as before)."""
    env = with_fake_nvjpeg(emulated_module, TFGPUAUG_CUDA_EMU_DRIVER="12040", TFGPUAUG_CUDA_EMU_QUIET="1")
    run = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gpu_selfcheck.py"), "--module-dir",
                          emulated_module], capture_output=True, text=True, timeout=600, env=env)
    assert run.returncode == 1, run.stdout
    assert "cudaErrorInsufficientDriver" in run.stdout and "driver 12040, runtime 13000" in run.stdout


def test_a_too_old_driver_fails_every_gpu_kernel_saying_what_to_do(emulated_module):
    """On a driver older than the linked runtime (CUDA 12 drivers, a CUDA 13 build), a GPU
    kernel's error names both versions and the fix, not a bare CUDA code (issue #33)."""
    code = ("import numpy as np, tfgpuaug_kernels as k\n"
            "k.flip_gpu(np.zeros((2, 3, 4, 3), np.uint8), np.ones(2, bool), np.zeros(2, bool))\n")
    env = with_fake_nvjpeg(emulated_module, TFGPUAUG_CUDA_EMU_DRIVER="12040", TFGPUAUG_CUDA_EMU_QUIET="1",
                           PYTHONPATH=emulated_module)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode != 0
    assert "cudaErrorInsufficientDriver" in run.stderr, run.stderr[-1500:]
    for part in ("CUDA 13.0 runtime", "supports CUDA 12.4", "update the driver"):
        assert part in run.stderr, run.stderr[-1500:]


def test_gpu_tests_pass_on_the_emulator(emulated_module):
    env = with_fake_nvjpeg(emulated_module, TFGPUAUG_KERNELS_MODULE_DIR=emulated_module)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", "-n", "0",
                          os.path.join(ROOT, "tests", "test_kernels_module.py")],
                         capture_output=True, text=True, timeout=900, env=env, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-4000:]
    assert "needs a CUDA GPU" not in run.stdout and "nvJPEG not loaded" not in run.stdout  # all ran


def test_gpu_bundle_runs_on_the_emulated_module(emulated_module, tmp_path):
    """scripts/gpu_bundle.sh --emulate: the bundle a lent GPU machine runs, with its layout,
    library path and nvJPEG path, around the emulated module; run.sh passes and stays small."""
    bundle = tmp_path / "bundle"
    build = subprocess.run(["bash", os.path.join(ROOT, "scripts", "gpu_bundle.sh"), "--emulate", str(bundle)],
                           capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    assert "bash " + str(bundle) + "/run.sh" in build.stdout
    env = dict(os.environ, OUT=str(tmp_path / "out"), TFGPUAUG_TIMING_REPEATS="1")  # emulated: timing is moot
    env.pop("TFGPUAUG_NVJPEG_PATH", None)
    run = subprocess.run(["bash", str(bundle / "run.sh")], capture_output=True, text=True, timeout=900, env=env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "every linked library found" in run.stdout and "selfcheck exit 0" in run.stdout
    assert re.search(r"gpu_selfcheck: (\d+) of \1 checks passed", (tmp_path / "out" / "selfcheck.txt").read_text())
    assert "flip x32" in (tmp_path / "out" / "timing.txt").read_text()
