// CUDA launcher of the plasma blends (pattern_blend.h): a batch of images.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_PATTERN_BLEND_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_PATTERN_BLEND_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/augment/pattern_blend.h"
#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// images [batch, pixels, c] blended with patterns [batch, pixels] by factors [batch, 2] (all
// device) into out; sums [batch] is device scratch (brightness-contrast's means).
Status PatternBlendGpu(const uint8_t* images, int batch, int64_t pixels, int c, const float* patterns,
                       const float* factors, PatternBlendMode mode, unsigned long long* sums, uint8_t* out,
                       cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_PATTERN_BLEND_GPU_H_
