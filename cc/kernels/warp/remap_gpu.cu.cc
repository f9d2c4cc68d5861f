#include "cc/kernels/warp/remap_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

__global__ void RemapKernel(const uint8_t* images, int batch, RemapParams p, const float* maps,
                            uint8_t* out) {
  const size_t pixels = size_t(p.out_h) * p.out_w;
  const size_t in_per = size_t(p.in_h) * p.in_w * p.channels;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < pixels * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / pixels;
    RemapPixel(images + b * in_per, p, maps[2 * e], maps[2 * e + 1], out + e * p.channels);
  }
}

// The map entries the affine and radial remaps compute in place of reading them (AffineMapEntry
// and RadialMapEntry, as RemapAffineCpu and RemapRadialCpu): `params` per sample, `stride` floats each.
struct AffineEntry {
  static constexpr int stride = 6;
  __device__ static void At(const float* m, const RemapParams&, int x, int y, float* mx, float* my) {
    AffineMapEntry(m, x, y, mx, my);
  }
};
struct RadialEntry {
  static constexpr int stride = 2;
  __device__ static void At(const float* k, const RemapParams& p, int x, int y, float* mx, float* my) {
    RadialMapEntry(k, x, y, p.in_w, p.in_h, mx, my);
  }
};

template <typename Entry>
__global__ void ComputedMapRemapKernel(const uint8_t* images, int batch, RemapParams p, const float* params,
                                       uint8_t* out) {
  const size_t pixels = size_t(p.out_h) * p.out_w;
  const size_t in_per = size_t(p.in_h) * p.in_w * p.channels;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < pixels * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / pixels, i = e - b * pixels;
    const int y = static_cast<int>(i / p.out_w), x = static_cast<int>(i - size_t(y) * p.out_w);
    float mx, my;
    Entry::At(params + Entry::stride * b, p, x, y, &mx, &my);
    RemapPixel(images + b * in_per, p, mx, my, out + e * p.channels);
  }
}

// Each channel of each sample through its own radial map (coefficients [batch, c, 2]): a thread
// an output element, its map entry and its one channel's site.
__global__ void RadialChannelsKernel(const uint8_t* images, int batch, RemapParams p,
                                     const float* coefficients, uint8_t* out) {
  const int c = p.channels;
  const size_t per = size_t(p.out_h) * p.out_w * c, in_per = size_t(p.in_h) * p.in_w * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < per * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per, i = e - b * per, pixel = i / c;
    const int k = static_cast<int>(i - pixel * c);
    const int y = static_cast<int>(pixel / p.out_w), x = static_cast<int>(pixel - size_t(y) * p.out_w);
    float mx, my;
    RadialMapEntry(coefficients + (b * c + k) * 2, x, y, p.in_w, p.in_h, &mx, &my);
    out[e] = RemapSiteValue(images + b * in_per, p, RemapSiteOf(p, mx, my), k);
  }
}

__global__ void SeparableResampleKernel(const uint8_t* images, int batch, int in_h, int in_w, int c,
                                        SeparableTaps rows, int out_h, SeparableTaps cols, int out_w,
                                        uint8_t fill, uint8_t* out) {
  const size_t pixels = size_t(out_h) * out_w;
  const size_t in_per = size_t(in_h) * in_w * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < pixels * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / pixels, i = e - b * pixels;
    const size_t y = i / out_w, x = i - y * out_w;
    const size_t ry = b * out_h + y, cx = b * out_w + x;
    SeparablePixel(images + b * in_per, in_h, in_w, c, rows.index + 2 * ry, rows.weight[ry],
                   cols.index + 2 * cx, cols.weight[cx], fill, out + e * c);
  }
}

}  // namespace

Status RemapGpu(const uint8_t* images, int batch, const RemapParams& p, const float* maps, uint8_t* out,
                cudaStream_t stream) {
  const size_t total = size_t(batch) * p.out_h * p.out_w;
  RemapKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, p, maps, out);
  return LaunchStatus("remap kernel");
}

Status RemapAffineGpu(const uint8_t* images, int batch, const RemapParams& p, const float* matrices,
                      uint8_t* out, cudaStream_t stream) {
  const size_t total = size_t(batch) * p.out_h * p.out_w;
  ComputedMapRemapKernel<AffineEntry>
      <<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, p, matrices, out);
  return LaunchStatus("affine remap kernel");
}

Status RemapRadialGpu(const uint8_t* images, int batch, const RemapParams& p, const float* coefficients,
                      uint8_t* out, cudaStream_t stream) {
  const size_t total = size_t(batch) * p.out_h * p.out_w;
  ComputedMapRemapKernel<RadialEntry>
      <<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, p, coefficients, out);
  return LaunchStatus("radial remap kernel");
}

Status RemapRadialChannelsGpu(const uint8_t* images, int batch, const RemapParams& p,
                              const float* coefficients, uint8_t* out, cudaStream_t stream) {
  const size_t total = size_t(batch) * p.out_h * p.out_w * p.channels;
  if (total == 0) return Status::Ok();
  RadialChannelsKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, p, coefficients,
                                                                           out);
  return LaunchStatus("radial remap per channel kernel");
}

Status SeparableResampleGpu(const uint8_t* images, int batch, int in_h, int in_w, int c, SeparableTaps rows,
                            int out_h, SeparableTaps cols, int out_w, uint8_t fill, uint8_t* out,
                            cudaStream_t stream) {
  const size_t total = size_t(batch) * out_h * out_w;
  SeparableResampleKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(
      images, batch, in_h, in_w, c, rows, out_h, cols, out_w, fill, out);
  return LaunchStatus("separable resample kernel");
}

}  // namespace tfgpuaug
