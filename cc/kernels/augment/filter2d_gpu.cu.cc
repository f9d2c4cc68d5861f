#include "cc/kernels/augment/filter2d_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/filter2d.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

// Each image's kernel plan once, a thread per image, not a scan of the kernel per output
// element: its reach (Filter2DReach), then for the symmetric path its plateau (Filter2DPlateau).
__global__ void Filter2DPlanKernel(const float* kernels, int batch, int side, bool symmetric, int* plans) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float* kernel = kernels + size_t(b) * side * side;
  int* plan = plans + size_t(b) * kFilter2DPlanInts;
  plan[0] = Filter2DReach(kernel, side);
  if (symmetric) Filter2DPlateau(kernel, side, plan[0], plan + 1);
}

__global__ void Filter2DKernel(const uint8_t* images, int batch, int h, int w, int c, const float* kernels,
                               int side, bool ties_up, bool symmetric, const int* plans, uint8_t* out) {
  const size_t per = size_t(h) * w * c, stride = size_t(w) * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < per * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per, i = e - b * per;
    const int y = static_cast<int>(i / stride);
    const size_t within = i % stride;
    const int x = static_cast<int>(within / c), k = static_cast<int>(within % c);
    const float* kernel = kernels + b * size_t(side) * side;
    const uint8_t* image = images + b * per;
    const int* plan = plans + b * kFilter2DPlanInts;
    const float sum = symmetric
                          ? Filter2DSymmetricSum(image, h, w, c, y, x, k, kernel, side, plan[0], plan + 1)
                          : Filter2DSum(image, h, w, c, y, x, k, kernel, side, plan[0]);
    out[e] = Filter2DByte(sum, ties_up);
  }
}

}  // namespace

Status Filter2DGpu(const uint8_t* images, int batch, int h, int w, int c, const float* kernels, int side,
                   bool ties_up, bool symmetric, int* plans, uint8_t* out, cudaStream_t stream) {
  if (batch == 0) return Status::Ok();  // nothing to launch (a grid of no blocks is an error)
  Filter2DPlanKernel<<<(batch + kThreadsPerBlock - 1) / kThreadsPerBlock, kThreadsPerBlock, 0, stream>>>(
      kernels, batch, side, symmetric, plans);
  const size_t total = size_t(batch) * h * w * c;
  Filter2DKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, h, w, c, kernels, side,
                                                                     ties_up, symmetric, plans, out);
  return LaunchStatus("filter2d kernels");
}

}  // namespace tfgpuaug
