// CUDA launcher of GlassBlur's swaps (glass_swaps.h): a batch of images.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_GLASS_SWAPS_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_GLASS_SWAPS_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// images [batch, h, w, c] (device) swapped into out (device, not aliasing them) where apply[b]
// (device bools) says, copied elsewhere; seeds [batch] (device). `before` [batch h w c] and
// `last` [batch h w] are device scratch.
Status GlassSwapsGpu(const uint8_t* images, const int32_t* seeds, const bool* apply, int batch, int h, int w,
                     int c, int max_delta, int iterations, uint8_t* before, int32_t* last, uint8_t* out,
                     cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_GLASS_SWAPS_GPU_H_
