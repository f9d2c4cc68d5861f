#include "cc/kernels/augment/pattern_blend_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

// One thread a byte: the shadow.
__global__ void ShadowKernel(const uint8_t* images, int batch, int64_t pixels, int c, const float* patterns,
                             const float* factors, uint8_t* out) {
  const size_t per = size_t(pixels) * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(batch) * per;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per, pixel = (e - b * per) / c;
    out[e] = PlasmaShadowByte(images[e], patterns[b * pixels + pixel], factors[2 * b]);
  }
}

// Blocks of one sample (blockIdx.y) sum its brightened values in fixed point: a block's sum in
// shared memory, then one atomic add (integers: any order gives the same sum).
__global__ void BrightSumKernel(const uint8_t* images, int64_t pixels, int c, const float* patterns,
                                const float* factors, unsigned long long* sums) {
  __shared__ unsigned long long partial[kThreadsPerBlock];
  const size_t b = blockIdx.y, per = size_t(pixels) * c;
  unsigned long long sum = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < per; i += size_t(blockDim.x) * gridDim.x)
    sum +=
        PlasmaFixedPoint(PlasmaBrightened(images[b * per + i], patterns[b * pixels + i / c], factors[2 * b]));
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (int(threadIdx.x) < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(&sums[b], partial[0]);
}

// One thread a byte: the contrast step about the sample's mean.
__global__ void ContrastKernel(const uint8_t* images, int batch, int64_t pixels, int c, const float* patterns,
                               const float* factors, const unsigned long long* sums, uint8_t* out) {
  const size_t per = size_t(pixels) * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(batch) * per;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per;
    const float p = patterns[b * pixels + (e - b * per) / c];
    const float x = PlasmaBrightened(images[e], p, factors[2 * b]);
    out[e] = PlasmaContrastByte(x, p, factors[2 * b + 1], PlasmaMean(sums[b], int64_t(per)));
  }
}

}  // namespace

Status PatternBlendGpu(const uint8_t* images, int batch, int64_t pixels, int c, const float* patterns,
                       const float* factors, PatternBlendMode mode, unsigned long long* sums, uint8_t* out,
                       cudaStream_t stream) {
  const size_t total = size_t(batch) * pixels * c;
  if (total == 0) return Status::Ok();  // nothing to launch
  if (mode == PatternBlendMode::kShadow) {
    ShadowKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, pixels, c, patterns,
                                                                     factors, out);
    return LaunchStatus("plasma shadow kernel");
  }
  TFGPUAUG_RETURN_IF_ERROR(
      CudaStatus(cudaMemsetAsync(sums, 0, sizeof(unsigned long long) * batch, stream), "plasma sums"));
  const size_t per = size_t(pixels) * c;
  const size_t blocks = (per + kThreadsPerBlock - 1) / kThreadsPerBlock;
  for (int first = 0; first < batch; first += 65535) {  // a grid's y extent is at most 65535
    const int samples = batch - first < 65535 ? batch - first : 65535;
    const dim3 grid(static_cast<unsigned>(blocks < 64 ? blocks : 64), static_cast<unsigned>(samples));
    BrightSumKernel<<<grid, kThreadsPerBlock, 0, stream>>>(images + first * per, pixels, c,
                                                           patterns + size_t(first) * pixels,
                                                           factors + 2 * first, sums + first);
  }
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("plasma mean kernel"));
  ContrastKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, pixels, c, patterns,
                                                                     factors, sums, out);
  return LaunchStatus("plasma contrast kernel");
}

}  // namespace tfgpuaug
