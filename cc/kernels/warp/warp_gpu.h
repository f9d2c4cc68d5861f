// CUDA launchers for flip and affine warp: grid-stride kernels over the per-pixel
// source mapping (warp.h) the CPU drivers run.
#ifndef TFGPUAUG_CC_KERNELS_WARP_WARP_GPU_H_
#define TFGPUAUG_CC_KERNELS_WARP_WARP_GPU_H_

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"
#include "cc/kernels/warp/warp.h"

namespace tfgpuaug {

Status FlipGpu(const uint8_t* images, int batch, int h, int w, int c, size_t element_bytes,
               const bool* horizontal, const bool* vertical, uint8_t* out, cudaStream_t stream);

Status WarpAffineGpu(const uint8_t* images, int batch, const AffineParams& p, const float* matrices,
                     uint8_t* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_WARP_GPU_H_
