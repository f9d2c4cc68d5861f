#include "cc/kernels/augment/filter2d_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/filter2d.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

__global__ void Filter2DKernel(const uint8_t* images, int batch, int h, int w, int c, const float* kernels,
                               int side, uint8_t* out) {
  const size_t per = size_t(h) * w * c, stride = size_t(w) * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < per * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per, i = e - b * per;
    const int y = static_cast<int>(i / stride);
    const size_t within = i % stride;
    const int x = static_cast<int>(within / c), k = static_cast<int>(within % c);
    const float* kernel = kernels + b * size_t(side) * side;
    const int r = Filter2DReach(kernel, side);
    out[e] = Filter2DByte(Filter2DSum(images + b * per, h, w, c, y, x, k, kernel, side, r));
  }
}

}  // namespace

Status Filter2DGpu(const uint8_t* images, int batch, int h, int w, int c, const float* kernels, int side,
                   uint8_t* out, cudaStream_t stream) {
  const size_t total = size_t(batch) * h * w * c;
  Filter2DKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, h, w, c, kernels, side,
                                                                     out);
  return LaunchStatus("filter2d kernel");
}

}  // namespace tfgpuaug
