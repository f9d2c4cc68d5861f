#include "cc/kernels/augment/stain_nmf_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/stain_nmf.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

static_assert(kNmfLanes == kThreadsPerBlock, "a thread a lane");

// Thread t keeps lane t: pixels t, t + kNmfLanes, ... in order, then the halving fold.
__global__ void StainNmfKernel(const uint8_t* images, size_t pixels, const float* densities, float* scratch,
                               float* rows) {
  __shared__ float table[256];
  __shared__ double lanes[kNmfSums][kNmfLanes];
  __shared__ double c[6], g[4];
  const int t = threadIdx.x;
  const uint8_t* image = images + blockIdx.x * pixels * 3;
  float* s = scratch + blockIdx.x * pixels * 2;
  table[t] = densities[t];
  if (t < 6) c[t] = NmfStartColour(t);
  double unit[6];
  for (int i = 0; i < 6; ++i) unit[i] = NmfStartColour(i);
  NmfUnitRows(unit);
  __syncthreads();
  for (size_t p = t; p < pixels; p += kNmfLanes) {
    const float d[3] = {table[image[3 * p]], table[image[3 * p + 1]], table[image[3 * p + 2]]};
    NmfStart(d, unit, s + 2 * p);
  }
  for (int round = 0; round < kNmfRounds; ++round) {
    if (t == 0) NmfGram(c, g);
    __syncthreads();
    double lane[kNmfSums] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    for (size_t p = t; p < pixels; p += kNmfLanes) {
      NmfPixel(table[image[3 * p]], table[image[3 * p + 1]], table[image[3 * p + 2]], c, g, s[2 * p],
               s[2 * p + 1], lane);
    }
    for (int k = 0; k < kNmfSums; ++k) lanes[k][t] = lane[k];
    __syncthreads();
    for (int half = kNmfLanes / 2; half >= 1; half /= 2) {
      if (t < half) {
        for (int k = 0; k < kNmfSums; ++k) lanes[k][t] += lanes[k][t + half];
      }
      __syncthreads();
    }
    if (t == 0) {
      double sums[kNmfSums];
      for (int k = 0; k < kNmfSums; ++k) sums[k] = lanes[k][0];
      NmfColours(sums, c);
    }
    __syncthreads();
  }
  if (t < 6) rows[blockIdx.x * 6 + t] = static_cast<float>(c[t]);
}

}  // namespace

size_t StainNmfGpuScratchFloats(int batch, size_t pixels) { return size_t(batch) * pixels * 2 + 1; }

Status StainNmfGpu(const uint8_t* images, int batch, size_t pixels, const float* densities, float* scratch,
                   float* rows, cudaStream_t stream) {
  if (batch == 0) return Status::Ok();  // a grid of no blocks is an error
  StainNmfKernel<<<batch, kNmfLanes, 0, stream>>>(images, pixels, densities, scratch, rows);
  return LaunchStatus("stain nmf kernel");
}

}  // namespace tfgpuaug
