// Grid-stride launch geometry and CUDA error statuses shared by the CUDA launchers.
#ifndef TFGPUAUG_CC_KERNELS_COMMON_CUDA_LAUNCH_H_
#define TFGPUAUG_CC_KERNELS_COMMON_CUDA_LAUNCH_H_

#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

constexpr int kThreadsPerBlock = 256;

// Blocks for `total` grid-stride items, capped: each thread loops over the rest.
inline int GridBlocks(size_t total) {
  const size_t b = (total + kThreadsPerBlock - 1) / kThreadsPerBlock;
  return static_cast<int>(b == 0 ? 1 : (b < 4096 ? b : 4096));
}

// "12.8" for CUDA's version numbers (12080).
inline std::string CudaVersionName(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

// What to do about errors that mean this build cannot run on this machine at all.
inline std::string CudaErrorAdvice(cudaError_t e) {
  if (e == cudaErrorInsufficientDriver) {
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    return " (tfgpuaug's GPU kernels run on the CUDA " + CudaVersionName(runtime) +
           " runtime, and this machine's NVIDIA driver supports CUDA " + CudaVersionName(driver) +
           " at most: update the driver (CUDA 12 needs R525 or newer, CUDA 13 R580), use tfgpuaug's CUDA 12 "
           "build (tfgpuaug._build_info.CUDA_RUNTIME == 'tensorflow': it runs wherever TensorFlow's GPU "
           "support does), or run the stage on the CPU with gpu_augment(..., device=\"/cpu:0\"))";
  }
  if (e == cudaErrorNoKernelImageForDevice) {
    return " (this build has no kernels for this GPU's architecture: rebuild from source with a compiler "
           "that "
           "supports it)";
  }
  if (e == cudaErrorUnsupportedPtxVersion) {
    return " (this build has no machine code for this GPU, and the driver is too old to compile the build's "
           "PTX: "
           "update the driver, or rebuild from source for this GPU)";
  }
  return "";
}

// A failed CUDA call: out of memory, or a device error (never the input's fault).
inline Status CudaError(cudaError_t e, const char* what) {
  std::string message = std::string(what) + ": " + cudaGetErrorString(e) + CudaErrorAdvice(e);
  return e == cudaErrorMemoryAllocation ? Status::OutOfMemory(std::move(message))
                                        : Status::Device(std::move(message));
}

// Ok, or the error of a CUDA call.
inline Status CudaStatus(cudaError_t e, const char* what) {
  return e == cudaSuccess ? Status::Ok() : CudaError(e, what);
}

// Ok, or the error of the last kernel launch on this thread.
inline Status LaunchStatus(const char* what) { return CudaStatus(cudaGetLastError(), what); }

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_CUDA_LAUNCH_H_
