#include "cc/kernels/augment/filter2d_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/filter2d.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

// Each image's kernel reach (Filter2DReach), once: a thread per image, not a scan of the
// kernel's zero rings per output element.
__global__ void Filter2DReachKernel(const float* kernels, int batch, int side, int* reach) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < batch) reach[b] = Filter2DReach(kernels + size_t(b) * side * side, side);
}

__global__ void Filter2DKernel(const uint8_t* images, int batch, int h, int w, int c, const float* kernels,
                               int side, bool ties_up, bool symmetric, const int* reach, uint8_t* out) {
  const size_t per = size_t(h) * w * c, stride = size_t(w) * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < per * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per, i = e - b * per;
    const int y = static_cast<int>(i / stride);
    const size_t within = i % stride;
    const int x = static_cast<int>(within / c), k = static_cast<int>(within % c);
    const float* kernel = kernels + b * size_t(side) * side;
    const uint8_t* image = images + b * per;
    const float sum = symmetric ? Filter2DSymmetricSum(image, h, w, c, y, x, k, kernel, side, reach[b])
                                : Filter2DSum(image, h, w, c, y, x, k, kernel, side, reach[b]);
    out[e] = Filter2DByte(sum, ties_up);
  }
}

}  // namespace

Status Filter2DGpu(const uint8_t* images, int batch, int h, int w, int c, const float* kernels, int side,
                   bool ties_up, bool symmetric, int* reach, uint8_t* out, cudaStream_t stream) {
  if (batch == 0) return Status::Ok();  // nothing to launch (a grid of no blocks is an error)
  Filter2DReachKernel<<<(batch + kThreadsPerBlock - 1) / kThreadsPerBlock, kThreadsPerBlock, 0, stream>>>(
      kernels, batch, side, reach);
  const size_t total = size_t(batch) * h * w * c;
  Filter2DKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, h, w, c, kernels, side,
                                                                     ties_up, symmetric, reach, out);
  return LaunchStatus("filter2d kernels");
}

}  // namespace tfgpuaug
