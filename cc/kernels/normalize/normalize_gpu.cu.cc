#include "cc/kernels/normalize/normalize_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

struct Mean4 {
  float v[4];
};

__global__ void CropMirrorNormalizeKernel(const uint8_t* images, int batch, CropMirrorNormalizeParams p,
                                          const int32_t* offsets, const bool* mirror, Mean4 mean,
                                          Mean4 inv_std, void* out) {
  const size_t per = size_t(p.crop_h) * p.crop_w * p.out_channels;
  const size_t in_per = size_t(p.in_h) * p.in_w * p.channels;
  const size_t total = per * batch;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    const int b = e / per;
    const size_t r = e % per;  // NHWC order of the element; stored at its layout's index
    const int k = r % p.out_channels, x = (r / p.out_channels) % p.crop_w,
              y = r / (size_t(p.out_channels) * p.crop_w);
    const float v = CropMirrorNormalizeValue(images + b * in_per, p, offsets[2 * b], offsets[2 * b + 1],
                                             mirror[b], mean.v, inv_std.v, y, x, k);
    CropMirrorNormalizeStore(out, b * per + CropMirrorNormalizeOutputIndex(p, y, x, k), p.type, v);
  }
}

}  // namespace

Status CropMirrorNormalizeGpu(const uint8_t* images, int batch, const CropMirrorNormalizeParams& p,
                              const int32_t* offsets, const bool* mirror, const float* mean4,
                              const float* inv_std4, void* out, cudaStream_t stream) {
  Mean4 mean, inv;
  for (int k = 0; k < 4; ++k) {
    mean.v[k] = mean4[k];
    inv.v[k] = inv_std4[k];
  }
  const size_t total = size_t(batch) * p.crop_h * p.crop_w * p.out_channels;
  CropMirrorNormalizeKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, p, offsets,
                                                                                mirror, mean, inv, out);
  return LaunchStatus("crop_mirror_normalize kernel");
}

}  // namespace tfgpuaug
