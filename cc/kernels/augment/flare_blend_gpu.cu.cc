#include "cc/kernels/augment/flare_blend_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/flare_blend.h"
#include "cc/kernels/augment/separable_blur_gpu.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

__global__ void FlareUnpackKernel(const int32_t* layer, int n, int h, int w, float* planes) {
  const size_t per = size_t(h) * w, total = size_t(n) * 3 * per;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t s = e / (3 * per), i = e % per;
    planes[e] = FlareLayerChannel(layer[s * per + i], static_cast<int>((e / per) % 3));
  }
}

// In place: the three blurred planes of each pixel times its fade, computed once a pixel (a
// float64 square root; a thread a plane value took it three times).
__global__ void FlareFadeKernel(int n, int h, int w, const int32_t* sun, float* planes) {
  const size_t per = size_t(h) * w, pixels = size_t(n) * per;
  const double reach = FlareFadeReach(h, w);
  for (size_t p = blockIdx.x * size_t(blockDim.x) + threadIdx.x; p < pixels;
       p += size_t(blockDim.x) * gridDim.x) {
    const size_t s = p / per, i = p - s * per;
    const int y = static_cast<int>(i / w), x = static_cast<int>(i - size_t(y) * w);
    const float fade = FlareFade(x, y, sun[2 * s], sun[2 * s + 1], reach);
    float* value = planes + s * 3 * per + i;
    for (int c = 0; c < 3; ++c) value[c * per] *= fade;
  }
}

__global__ void FlareScreenKernel(const uint8_t* images, int n, int h, int w, const float* blurred,
                                  const bool* apply, uint8_t* out) {
  const size_t per = size_t(h) * w, total = size_t(n) * per * 3;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t s = e / (3 * per), within = e - s * 3 * per, i = within / 3;
    const int c = static_cast<int>(within - 3 * i);
    out[e] = apply[s] ? FlareScreenByte(images[e], blurred[(s * 3 + c) * per + i]) : images[e];
  }
}

}  // namespace

Status FlareBlendGpu(const uint8_t* images, int n, int h, int w, const int32_t* layer, const int32_t* sun,
                     const bool* apply, const float* flare_kernel, int flare_taps, const float* kernels,
                     int taps, float* planes, float* across, uint8_t* out, cudaStream_t stream) {
  const size_t total = size_t(n) * 3 * h * w;
  if (total == 0) return Status::Ok();  // nothing to launch (a grid of no blocks is an error)
  FlareUnpackKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(layer, n, h, w, planes);
  Status status = LaunchStatus("flare unpack kernel");
  if (!status.ok()) return status;
  // Each blur's column pass writes over the planes, which its row pass has read.
  status = SeparableBlurGpu(planes, 3 * n, h, w, flare_kernel, 1, flare_taps, across, planes, stream);
  if (!status.ok()) return status;
  FlareFadeKernel<<<GridBlocks(total / 3), kThreadsPerBlock, 0, stream>>>(n, h, w, sun, planes);
  status = LaunchStatus("flare fade kernel");
  if (!status.ok()) return status;
  status = SeparableBlurGpu(planes, 3 * n, h, w, kernels, 3, taps, across, planes, stream);
  if (!status.ok()) return status;
  FlareScreenKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, n, h, w, planes, apply, out);
  return LaunchStatus("flare screen kernel");
}

}  // namespace tfgpuaug
