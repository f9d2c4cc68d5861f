#include "cc/kernels/augment/unsharp_mask_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/unsharp_mask.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

// The row pass over the levels (mask == false) or over the mask of the levels and their blur:
// the CPU's row sums, the value at each tap computed in place of a plane read.
__global__ void UnsharpRowKernel(const uint8_t* images, int batch, int h, int w, int c, const float* weights,
                                 int taps, const float* blur, const float* threshold, float* out) {
  const size_t per = size_t(h) * w * c, stride = size_t(w) * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < per * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per, i = e - b * per;
    const size_t row_at = b * per + (i / stride) * stride;
    const size_t within = i % stride;
    const int x = static_cast<int>(within / c), k = static_cast<int>(within % c);
    const int r = UnsharpReach(weights + b * taps, taps);
    const float* wb = weights + b * taps + taps / 2 - r;
    const auto value = [&](int xx) {
      const size_t at = row_at + size_t(xx) * c + k;
      const float level = UnitLevel(images[at]);
      return blur == nullptr ? level : UnsharpMaskBit(level, blur[at], threshold[b]);
    };
    float acc = wb[r] * value(x);
    for (int d = 1; d <= r; ++d) {
      const float pair = value(Reflect101(x - d, w)) + value(Reflect101(x + d, w));
      acc = acc + wb[r + d] * pair;
    }
    out[e] = acc;
  }
}

// The column pass of `rows` into the blur (images == nullptr), or into the soft mask combined
// with the levels and their blur into the output bytes.
__global__ void UnsharpColumnKernel(const float* rows, int batch, int h, int w, int c, const float* weights,
                                    int taps, const uint8_t* images, const float* blur, const float* alpha,
                                    float* blur_out, uint8_t* out) {
  const size_t per = size_t(h) * w * c, stride = size_t(w) * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < per * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per, i = e - b * per;
    const int y = static_cast<int>(i / stride);
    const int r = UnsharpReach(weights + b * taps, taps);
    const float sum =
        UnsharpColumnSum(rows + b * per, h, stride, i % stride, y, weights + b * taps + taps / 2 - r, r);
    if (images == nullptr) {
      blur_out[e] = sum;
    } else {
      out[e] = UnsharpByte(images[e], blur[e], sum, alpha[b]);
    }
  }
}

}  // namespace

Status UnsharpMaskGpu(const uint8_t* images, int batch, int h, int w, int c, const float* weights, int taps,
                      const float* alpha, const float* threshold, float* scratch, uint8_t* out,
                      cudaStream_t stream) {
  const size_t total = size_t(batch) * h * w * c;
  float* rows = scratch;
  float* blur = scratch + total;
  const int blocks = GridBlocks(total);
  UnsharpRowKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(images, batch, h, w, c, weights, taps, nullptr,
                                                            threshold, rows);
  UnsharpColumnKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(rows, batch, h, w, c, weights, taps, nullptr,
                                                               nullptr, alpha, blur, nullptr);
  UnsharpRowKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(images, batch, h, w, c, weights, taps, blur,
                                                            threshold, rows);
  UnsharpColumnKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(rows, batch, h, w, c, weights, taps, images,
                                                               blur, alpha, nullptr, out);
  return LaunchStatus("unsharp mask kernels");
}

}  // namespace tfgpuaug
