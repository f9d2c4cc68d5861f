#include "cc/kernels/warp/warp_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

__global__ void FlipKernel(const uint8_t* images, int batch, int h, int w, size_t pixel_bytes,
                           const bool* horizontal, const bool* vertical, uint8_t* out) {
  const size_t per = size_t(h) * w * pixel_bytes, total = per * batch;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    const int b = e / per;
    const size_t r = e % per;
    const int byte = r % pixel_bytes, x = (r / pixel_bytes) % w, y = r / (pixel_bytes * w);
    const int sy = FlipSource(y, h, vertical[b]), sx = FlipSource(x, w, horizontal[b]);
    out[e] = images[b * per + (size_t(sy) * w + sx) * pixel_bytes + byte];
  }
}

__global__ void WarpAffineKernel(const uint8_t* images, int batch, AffineParams p, const float* matrices,
                                 uint8_t* out) {
  const size_t per = size_t(p.out_h) * p.out_w * p.channels;
  const size_t in_per = size_t(p.in_h) * p.in_w * p.channels;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < per * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const int b = e / per;
    const size_t r = e % per;
    const int k = r % p.channels, x = (r / p.channels) % p.out_w, y = r / (size_t(p.channels) * p.out_w);
    out[e] = AffineSample(images + b * in_per, p, matrices + 6 * b, y, x, k);
  }
}

}  // namespace

Status FlipGpu(const uint8_t* images, int batch, int h, int w, int c, size_t element_bytes,
               const bool* horizontal, const bool* vertical, uint8_t* out, cudaStream_t stream) {
  const size_t total = size_t(batch) * h * w * c * element_bytes;
  FlipKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, h, w, c * element_bytes,
                                                                 horizontal, vertical, out);
  return LaunchStatus("flip kernel");
}

Status WarpAffineGpu(const uint8_t* images, int batch, const AffineParams& p, const float* matrices,
                     uint8_t* out, cudaStream_t stream) {
  const size_t total = size_t(batch) * p.out_h * p.out_w * p.channels;
  WarpAffineKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, p, matrices, out);
  return LaunchStatus("warp_affine kernel");
}

}  // namespace tfgpuaug
