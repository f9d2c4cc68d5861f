// CUDA launcher of the plasma fractal (plasma.h): a batch of samples.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_PLASMA_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_PLASMA_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// Struct of the step scales, passed by value (no device copy): roughness^s as float, s < steps.
struct PlasmaScales {
  float value[16];
};

// The fractals of seeds [batch] (device) into out [batch, h, w] (device), `steps` =
// PlasmaSteps(h, w) steps. grid_a and grid_b are device scratch of batch side^2 floats each
// (side = 2^(steps + 1) + 1), bounds of batch 2 floats.
Status PlasmaPatternGpu(const int32_t* seeds, int batch, int h, int w, const PlasmaScales& scales, int steps,
                        float* grid_a, float* grid_b, float* bounds, float* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_PLASMA_GPU_H_
