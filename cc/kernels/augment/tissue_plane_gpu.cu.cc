#include "cc/kernels/augment/tissue_plane_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/tissue_plane.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

static_assert(kTissueLanes == kThreadsPerBlock, "a thread a lane");

__global__ void TissuePlaneKernel(const uint8_t* images, size_t pixels, const float* densities,
                                  double* planes, double* coordinates, float* keys, bool* tissue,
                                  int32_t* counts) {
  __shared__ float table[256];
  __shared__ double lanes[kTissueLanes][kTissueSums];
  __shared__ double plane[6];
  const int t = threadIdx.x;
  const size_t first = size_t(blockIdx.x) * pixels;
  const uint8_t* image = images + first * 3;
  table[t] = densities[t];
  __syncthreads();
  double lane[kTissueSums] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  for (size_t p = t; p < pixels; p += kTissueLanes) {
    const float d[3] = {table[image[3 * p]], table[image[3 * p + 1]], table[image[3 * p + 2]]};
    tissue[first + p] = TissueAdd(d, lane);
  }
  for (int k = 0; k < kTissueSums; ++k) lanes[t][k] = lane[k];
  __syncthreads();
  for (int half = kTissueLanes / 2; half >= 1; half /= 2) {
    if (t < half) {
      for (int k = 0; k < kTissueSums; ++k) lanes[t][k] += lanes[t + half][k];
    }
    __syncthreads();
  }
  if (t == 0) {
    double cov[9];
    TissueCovariance(lanes[0], cov);
    TissuePlane(cov, plane);
    for (int i = 0; i < 6; ++i) planes[6 * blockIdx.x + i] = plane[i];
    counts[blockIdx.x] = static_cast<int32_t>(lanes[0][0]);
  }
  __syncthreads();
  for (size_t p = t; p < pixels; p += kTissueLanes) {
    const float d[3] = {table[image[3 * p]], table[image[3 * p + 1]], table[image[3 * p + 2]]};
    TissueCoordinates(d, tissue[first + p], plane, coordinates + 2 * (first + p), keys + first + p);
  }
}

}  // namespace

Status TissuePlaneGpu(const uint8_t* images, int batch, size_t pixels, const float* densities, double* planes,
                      double* coordinates, float* keys, bool* tissue, int32_t* counts, cudaStream_t stream) {
  if (batch == 0) return Status::Ok();  // a grid of no blocks is an error
  TissuePlaneKernel<<<batch, kTissueLanes, 0, stream>>>(images, pixels, densities, planes, coordinates, keys,
                                                        tissue, counts);
  return LaunchStatus("tissue plane kernel");
}

}  // namespace tfgpuaug
