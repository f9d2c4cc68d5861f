// CUDA launcher of the unsharp mask (unsharp_mask.h): four passes, one thread an element.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_UNSHARP_MASK_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_UNSHARP_MASK_GPU_H_

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// Floats of device scratch UnsharpMaskGpu needs for a batch.
inline size_t UnsharpScratchFloatsGpu(int batch, int h, int w, int c) {
  return 2 * size_t(batch) * h * w * c;
}

// images [batch, h, w, c]; weights [batch, taps] (taps odd), alpha [batch], threshold [batch]
// (device) -> out [batch, h, w, c]; scratch of UnsharpScratchFloatsGpu.
Status UnsharpMaskGpu(const uint8_t* images, int batch, int h, int w, int c, const float* weights, int taps,
                      const float* alpha, const float* threshold, float* scratch, uint8_t* out,
                      cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_UNSHARP_MASK_GPU_H_
