// CUDA launcher of the physics-based flare's fade, per-channel blur and screen (flare_blend.h):
// a fade kernel, the separable blur's two passes and a screen kernel, a thread an element each.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// images [n, h, w, 3], layer [n, 3, h, w], sun [n, 2] (x, y), apply [n], kernels [3, taps]: all
// on the device; `faded` and `across` hold n * 3 * h * w floats each. Samples whose apply is
// false are copied.
Status FlareBlendGpu(const uint8_t* images, int n, int h, int w, const float* layer, const int32_t* sun,
                     const bool* apply, const float* kernels, int taps, float* faded, float* across,
                     uint8_t* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_GPU_H_
