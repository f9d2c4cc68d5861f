// CUDA launcher of the separable float blur (separable_blur.h): a row pass and a column pass,
// one thread an output value each.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SEPARABLE_BLUR_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SEPARABLE_BLUR_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// planes [p, h, w] (device), each blurred by kernels[plane % kernel_count] ([kernel_count,
// taps], device) through `across` (p * h * w floats of device scratch) into out.
Status SeparableBlurGpu(const float* planes, int p, int h, int w, const float* kernels, int kernel_count,
                        int taps, float* across, float* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SEPARABLE_BLUR_GPU_H_
