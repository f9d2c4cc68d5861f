#include "cc/kernels/warp/elastic_maps_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

// Noise [batch][fields][h][w] into the maps' memory (planar: each sample's maps hold two
// planes); each sample's largest magnitude into peaks[b] as float bits (non-negative floats
// order as their bits).
__global__ void ElasticNoiseKernel(ElasticShape s, int batch, const int32_t* seeds, float* noise,
                                   unsigned int* peaks) {
  const size_t per = size_t(s.fields) * s.h * s.w, maps_per = size_t(2) * s.h * s.w;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < per * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / per, e = i - b * per;
    const float v = ElasticNoise(static_cast<uint32_t>(seeds[b]), static_cast<uint32_t>(e), s.gaussian);
    noise[b * maps_per + e] = v;
    atomicMax(peaks + b, __float_as_uint(fabsf(v)));
  }
}

// The row blur: rows of the noise planes into the scratch's planes.
__global__ void ElasticRowKernel(ElasticShape s, int batch, const float* kernel, const float* noise,
                                 float* blurred) {
  const size_t per = size_t(s.fields) * s.h * s.w, maps_per = size_t(2) * s.h * s.w;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < per * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / per, e = i - b * per;
    const size_t row = e / s.w;
    const int x = static_cast<int>(e - row * s.w);
    const float left = ElasticLeftWeight(kernel, s.taps, s.w, x);
    const float right = ElasticRightWeight(kernel, s.taps, s.w, x);
    blurred[i] = ElasticBlurAt(kernel, s.taps, noise + b * maps_per + row * s.w, 1, s.w, x, left, right);
  }
}

// The column blur of each field, scaled and added to the pixel grid: maps [batch][h][w][2].
__global__ void ElasticColumnKernel(ElasticShape s, int batch, const float* kernel, const float* blurred,
                                    const unsigned int* peaks, const float* alphas, float* maps) {
  const size_t plane = size_t(s.h) * s.w, per = size_t(s.fields) * plane;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < plane * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / plane, p = i - b * plane;
    const int y = static_cast<int>(p / s.w), x = static_cast<int>(p - size_t(y) * s.w);
    const float left = ElasticLeftWeight(kernel, s.taps, s.h, y);
    const float right = ElasticRightWeight(kernel, s.taps, s.h, y);
    const float scale = ElasticScale(alphas[b], __uint_as_float(peaks[b]), s.gaussian);
    const float* column = blurred + b * per + x;
    const float dx = ElasticBlurAt(kernel, s.taps, column, s.w, s.h, y, left, right);
    const float dy =
        s.fields == 2 ? ElasticBlurAt(kernel, s.taps, column + plane, s.w, s.h, y, left, right) : dx;
    maps[2 * i] = float(x) + dx * scale;
    maps[2 * i + 1] = float(y) + dy * scale;
  }
}

}  // namespace

Status ElasticMapsGpu(const ElasticShape& s, int batch, const float* kernel, const int32_t* seeds,
                      const float* alphas, float* scratch, float* maps, cudaStream_t stream) {
  const size_t per = size_t(s.fields) * s.h * s.w;
  float* blurred = scratch;
  unsigned int* peaks = reinterpret_cast<unsigned int*>(scratch + per * batch);
  TFGPUAUG_RETURN_IF_ERROR(
      CudaStatus(cudaMemsetAsync(peaks, 0, sizeof(unsigned int) * batch, stream), "elastic peaks"));
  ElasticNoiseKernel<<<GridBlocks(per * batch), kThreadsPerBlock, 0, stream>>>(s, batch, seeds, maps, peaks);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("elastic noise kernel"));
  ElasticRowKernel<<<GridBlocks(per * batch), kThreadsPerBlock, 0, stream>>>(s, batch, kernel, maps, blurred);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("elastic row blur kernel"));
  const size_t pixels = size_t(s.h) * s.w * batch;
  ElasticColumnKernel<<<GridBlocks(pixels), kThreadsPerBlock, 0, stream>>>(s, batch, kernel, blurred, peaks,
                                                                           alphas, maps);
  return LaunchStatus("elastic column blur kernel");
}

}  // namespace tfgpuaug
