#include "cc/kernels/augment/glass_swaps_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/glass_swaps.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

// One round of one batch: which samples swap, their seeds, the geometry.
struct GlassRound {
  const int32_t* seeds;
  const bool* apply;
  int h, w, c, max_delta, iteration;
  int64_t rows, choosers;
};

// Grid item e's sample b and chooser k, the chooser's pixel p and its target t (in the sample's
// pixels); false for a sample left alone.
__device__ bool ChooserAt(const GlassRound& r, size_t e, size_t* b, int64_t* k, int64_t* p, int64_t* t) {
  *b = e / r.choosers;
  if (!r.apply[*b]) return false;
  *k = int64_t(e - *b * r.choosers);
  *p = GlassChooserPixel(*k, r.rows, r.h, r.w, r.max_delta);
  *t =
      GlassTargetPixel(static_cast<uint32_t>(r.seeds[*b]), r.iteration, r.choosers, *k, *p, r.w, r.max_delta);
  return true;
}

__device__ void CopyPixel(const uint8_t* from, int c, uint8_t* to) {
  for (int ch = 0; ch < c; ++ch) to[ch] = from[ch];
}

// One thread a chooser: it takes its target's pixel and bids its position for the target (the
// largest position is numpy's last write there).
__global__ void TakeKernel(GlassRound r, int batch, const uint8_t* before, int32_t* last, uint8_t* out) {
  const size_t pixels = size_t(r.h) * r.w;
  size_t b;
  int64_t k, p, t;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(batch) * r.choosers;
       e += size_t(blockDim.x) * gridDim.x) {
    if (!ChooserAt(r, e, &b, &k, &p, &t)) continue;
    CopyPixel(before + (b * pixels + t) * r.c, r.c, out + (b * pixels + p) * r.c);
    atomicMax(&last[b * pixels + t], static_cast<int32_t>(k));
  }
}

// One thread a chooser: where it is its target's last chooser, the target takes its pixel.
__global__ void GiveKernel(GlassRound r, int batch, const uint8_t* before, const int32_t* last,
                           uint8_t* out) {
  const size_t pixels = size_t(r.h) * r.w;
  size_t b;
  int64_t k, p, t;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(batch) * r.choosers;
       e += size_t(blockDim.x) * gridDim.x) {
    if (!ChooserAt(r, e, &b, &k, &p, &t) || last[b * pixels + t] != static_cast<int32_t>(k)) continue;
    CopyPixel(before + (b * pixels + p) * r.c, r.c, out + (b * pixels + t) * r.c);
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
    const GlassRound round{seeds, apply, h, w, c, max_delta, it, rows, choosers};
    TakeKernel<<<GridBlocks(threads), kThreadsPerBlock, 0, stream>>>(round, batch, before, last, out);
    TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("glass swap take kernel"));
    GiveKernel<<<GridBlocks(threads), kThreadsPerBlock, 0, stream>>>(round, batch, before, last, out);
  }
  return LaunchStatus("glass swap kernels");
}

}  // namespace tfgpuaug
