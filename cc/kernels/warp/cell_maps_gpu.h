// CUDA launcher of the cell maps (cell_maps.h): one thread per pixel.
#ifndef TFGPUAUG_CC_KERNELS_WARP_CELL_MAPS_GPU_H_
#define TFGPUAUG_CC_KERNELS_WARP_CELL_MAPS_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// owners [batch, h, w], matrices [batch, cells, 9] (device) -> maps [batch, h, w, 2] (device).
Status CellMapsGpu(const int32_t* owners, const double* matrices, int batch, int cells, int h, int w,
                   float* maps, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_CELL_MAPS_GPU_H_
