// CUDA launcher of the Macenko fit's tissue plane (tissue_plane.h): one block an image.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_TISSUE_PLANE_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_TISSUE_PLANE_GPU_H_

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// images [batch, pixels, 3], densities [256] -> planes [batch, 3, 2], coordinates [batch,
// pixels, 2], keys and tissue [batch, pixels], counts [batch] (int32): all on the device. A
// thread a lane of the sums: the CPU loop's bits.
Status TissuePlaneGpu(const uint8_t* images, int batch, size_t pixels, const float* densities, double* planes,
                      double* coordinates, float* keys, bool* tissue, int32_t* counts, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_TISSUE_PLANE_GPU_H_
