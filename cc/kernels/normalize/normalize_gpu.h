// CUDA launcher for crop-mirror-normalize: one grid-stride kernel over the per-element
// math (normalize.h) the CPU driver runs.
#ifndef TFGPUAUG_CC_KERNELS_NORMALIZE_NORMALIZE_GPU_H_
#define TFGPUAUG_CC_KERNELS_NORMALIZE_NORMALIZE_GPU_H_

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"
#include "cc/kernels/normalize/normalize.h"

namespace tfgpuaug {

// Per-sample parameters live in device memory: offsets [B, 2] (y0, x0) and mirror [B].
Status CropMirrorNormalizeGpu(const uint8_t* images, int batch, const CropMirrorNormalizeParams& p,
                              const int32_t* offsets, const bool* mirror, const float* mean4,
                              const float* inv_std4, void* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_NORMALIZE_NORMALIZE_GPU_H_
