#include "cc/kernels/augment/glass_swaps_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/glass_swaps.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

// One thread a chooser: it takes its target's pixel and bids its position for the target (the
// largest position is numpy's last write there).
__global__ void TakeKernel(const uint8_t* before, const int32_t* seeds, const bool* apply, int batch, int h,
                           int w, int c, int max_delta, int iteration, int64_t rows, int64_t choosers,
                           int32_t* last, uint8_t* out) {
  const size_t pixels = size_t(h) * w;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(batch) * choosers;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / choosers;
    if (!apply[b]) continue;
    const int64_t k = int64_t(e - b * choosers);
    const int64_t p = GlassChooserPixel(k, rows, h, w, max_delta);
    const int64_t t =
        GlassTargetPixel(static_cast<uint32_t>(seeds[b]), iteration, choosers, k, p, w, max_delta);
    const uint8_t* from = before + (b * pixels + t) * c;
    uint8_t* to = out + (b * pixels + p) * c;
    for (int ch = 0; ch < c; ++ch) to[ch] = from[ch];
    atomicMax(&last[b * pixels + t], static_cast<int32_t>(k));
  }
}

// One thread a chooser: where it is its target's last chooser, the target takes its pixel.
__global__ void GiveKernel(const uint8_t* before, const int32_t* seeds, const bool* apply, int batch, int h,
                           int w, int c, int max_delta, int iteration, int64_t rows, int64_t choosers,
                           const int32_t* last, uint8_t* out) {
  const size_t pixels = size_t(h) * w;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(batch) * choosers;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / choosers;
    if (!apply[b]) continue;
    const int64_t k = int64_t(e - b * choosers);
    const int64_t p = GlassChooserPixel(k, rows, h, w, max_delta);
    const int64_t t =
        GlassTargetPixel(static_cast<uint32_t>(seeds[b]), iteration, choosers, k, p, w, max_delta);
    if (last[b * pixels + t] != static_cast<int32_t>(k)) continue;
    const uint8_t* from = before + (b * pixels + p) * c;
    uint8_t* to = out + (b * pixels + t) * c;
    for (int ch = 0; ch < c; ++ch) to[ch] = from[ch];
  }
}

}  // namespace

Status GlassSwapsGpu(const uint8_t* images, const int32_t* seeds, const bool* apply, int batch, int h, int w,
                     int c, int max_delta, int iterations, uint8_t* before, int32_t* last, uint8_t* out,
                     cudaStream_t stream) {
  const size_t pixels = size_t(batch) * h * w, bytes = pixels * c;
  if (bytes == 0) return Status::Ok();  // nothing to launch (a grid of no blocks is an error)
  TFGPUAUG_RETURN_IF_ERROR(
      CudaStatus(cudaMemcpyAsync(out, images, bytes, cudaMemcpyDeviceToDevice, stream), "glass swap copy"));
  const int64_t rows = GlassInteriorRows(h, max_delta), choosers = rows * GlassInteriorRows(w, max_delta);
  const size_t threads = size_t(batch) * choosers;
  for (int it = 0; threads > 0 && it < iterations; ++it) {
    TFGPUAUG_RETURN_IF_ERROR(
        CudaStatus(cudaMemcpyAsync(before, out, bytes, cudaMemcpyDeviceToDevice, stream), "glass swap copy"));
    // -1 everywhere: no chooser yet
    TFGPUAUG_RETURN_IF_ERROR(
        CudaStatus(cudaMemsetAsync(last, 0xFF, pixels * sizeof(int32_t), stream), "glass swap bids"));
    TakeKernel<<<GridBlocks(threads), kThreadsPerBlock, 0, stream>>>(
        before, seeds, apply, batch, h, w, c, max_delta, it, rows, choosers, last, out);
    TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("glass swap take kernel"));
    GiveKernel<<<GridBlocks(threads), kThreadsPerBlock, 0, stream>>>(
        before, seeds, apply, batch, h, w, c, max_delta, it, rows, choosers, last, out);
  }
  return LaunchStatus("glass swap kernels");
}

}  // namespace tfgpuaug
