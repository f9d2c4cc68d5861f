#include "cc/kernels/augment/separable_blur_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/separable_blur.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

// One pass: along rows (stride 1, lines of w) or columns (stride w, lines of h).
__global__ void SeparableBlurPassKernel(const float* src, int p, int h, int w, const float* kernels,
                                        int kernel_count, int taps, bool columns, float* out) {
  const size_t per = size_t(h) * w;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < per * p;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t plane = e / per, i = e - plane * per;
    const int y = static_cast<int>(i / w), x = static_cast<int>(i - size_t(y) * w);
    const float* kernel = kernels + size_t(plane % kernel_count) * taps;
    const BlurExtent extent = BlurExtentOf(kernel, taps);
    const float* base = src + plane * per;
    out[e] = columns ? BlurAt(base + x, size_t(w), h, y, kernel, taps, extent)
                     : BlurAt(base + size_t(y) * w, 1, w, x, kernel, taps, extent);
  }
}

}  // namespace

Status SeparableBlurGpu(const float* planes, int p, int h, int w, const float* kernels, int kernel_count,
                        int taps, float* across, float* out, cudaStream_t stream) {
  const size_t total = size_t(p) * h * w;
  if (total == 0) return Status::Ok();  // nothing to launch (a grid of no blocks is an error)
  SeparableBlurPassKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(
      planes, p, h, w, kernels, kernel_count, taps, false, across);
  Status status = LaunchStatus("separable blur row kernel");
  if (!status.ok()) return status;
  SeparableBlurPassKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(across, p, h, w, kernels,
                                                                              kernel_count, taps, true, out);
  return LaunchStatus("separable blur column kernel");
}

}  // namespace tfgpuaug
