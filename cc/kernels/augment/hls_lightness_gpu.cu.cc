#include "cc/kernels/augment/hls_lightness_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/hls8.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

__global__ void HlsLightnessKernel(const uint8_t* images, int batch, int64_t pixels, const int32_t* tables,
                                   int table_sets, const int32_t* levels, uint8_t* out) {
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(pixels) * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / pixels;
    HlsLightnessPixel(images + 3 * e, tables + (table_sets == 1 ? 0 : b * 256),
                      levels == nullptr ? -1 : levels[e], out + 3 * e);
  }
}

}  // namespace

Status HlsLightnessGpu(const uint8_t* images, int batch, int64_t pixels, const int32_t* tables,
                       int table_sets, const int32_t* levels, uint8_t* out, cudaStream_t stream) {
  const size_t total = size_t(batch) * pixels;
  if (total == 0) return Status::Ok();  // nothing to launch (a grid of no blocks is an error)
  HlsLightnessKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, pixels, tables,
                                                                         table_sets, levels, out);
  return LaunchStatus("hls lightness kernel");
}

}  // namespace tfgpuaug
