// CUDA launcher of the physics-based flare's blurs, fade and screen (flare_blend.h): an unpacking
// kernel, the separable blur's two passes, a fade kernel, the two passes again and a screen
// kernel, a thread an element each.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// images [n, h, w, 3], the packed layer [n, h, w], sun [n, 2] (x, y), apply [n], flare_kernel
// [flare_taps], kernels [3, taps]: all on the device; `planes` and `across` hold n * 3 * h * w
// floats each. Samples whose apply is false are copied.
Status FlareBlendGpu(const uint8_t* images, int n, int h, int w, const int32_t* layer, const int32_t* sun,
                     const bool* apply, const float* flare_kernel, int flare_taps, const float* kernels,
                     int taps, float* planes, float* across, uint8_t* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_GPU_H_
