#include "cc/kernels/warp/cell_maps_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/common/cuda_launch.h"
#include "cc/kernels/warp/cell_maps.h"

namespace tfgpuaug {
namespace {

__global__ void CellMapsKernel(const int32_t* owners, const double* matrices, int batch, int cells, int h,
                               int w, float* maps) {
  const size_t plane = size_t(h) * w;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < plane * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / plane, p = i - b * plane;
    const int y = static_cast<int>(p / w), x = static_cast<int>(p - size_t(y) * w);
    CellMapAt(owners + b * plane, matrices + b * size_t(cells) * 9, cells, w, x, y, maps + 2 * i);
  }
}

}  // namespace

Status CellMapsGpu(const int32_t* owners, const double* matrices, int batch, int cells, int h, int w,
                   float* maps, cudaStream_t stream) {
  const size_t pixels = size_t(h) * w * batch;
  CellMapsKernel<<<GridBlocks(pixels), kThreadsPerBlock, 0, stream>>>(owners, matrices, batch, cells, h, w,
                                                                      maps);
  return LaunchStatus("cell maps kernel");
}

}  // namespace tfgpuaug
