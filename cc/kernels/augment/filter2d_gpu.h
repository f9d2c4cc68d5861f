// CUDA launcher of the per-image filter (filter2d.h): each kernel's plan (reach, plateau) once,
// then one thread an output element.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_FILTER2D_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_FILTER2D_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// images [batch, h, w, c] and kernels [batch, side, side] (device, side odd) -> out; `plans`
// device scratch of batch x kFilter2DPlanInts ints (filter2d.h); ties_up: Filter2DByte's rounding; symmetric:
// the kernels read in their octant (Filter2DSymmetricSum).
Status Filter2DGpu(const uint8_t* images, int batch, int h, int w, int c, const float* kernels, int side,
                   bool ties_up, bool symmetric, int* plans, uint8_t* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_FILTER2D_GPU_H_
