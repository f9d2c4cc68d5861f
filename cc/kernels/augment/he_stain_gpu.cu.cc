#include "cc/kernels/augment/he_stain_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/he_stain.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

__global__ void HeStainKernel(const uint8_t* images, int batch, size_t pixels, HeStainBatch j, uint8_t* out) {
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(batch) * pixels;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / pixels;
    if (!j.apply[b]) {
      for (int k = 0; k < 3; ++k) out[3 * e + k] = images[3 * e + k];
      continue;
    }
    const HeStainPlan plan{j.projections + 6 * b, j.matrices + 6 * b, j.scales + 2 * b, j.shifts + 2 * b};
    HeStainPixel(images + 3 * e, j.densities, j.thresholds, j.cells, plan, j.background, out + 3 * e);
  }
}

}  // namespace

Status HeStainGpu(const uint8_t* images, int batch, size_t pixels, const HeStainBatch& jitter, uint8_t* out,
                  cudaStream_t stream) {
  const size_t total = size_t(batch) * pixels;
  if (total == 0) return Status::Ok();  // a grid of no blocks is an error
  HeStainKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, pixels, jitter, out);
  return LaunchStatus("he stain kernel");
}

}  // namespace tfgpuaug
