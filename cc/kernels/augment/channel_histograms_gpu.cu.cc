#include "cc/kernels/augment/channel_histograms_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

constexpr int kSharedChannels = 4;  // up to this many channels count in shared memory
constexpr int kBlocksPerImage = 32;

__global__ void ZeroCountsKernel(int32_t* counts, size_t total) {
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    counts[e] = 0;
  }
}

// Blocks (x: a share of the image's pixels, y: the image): the block's counts in shared memory,
// added to the image's counts once per bin, instead of one global atomic per byte.
__global__ void SharedCountsKernel(const uint8_t* images, int64_t pixels, int c, int32_t* counts) {
  __shared__ uint32_t hist[kSharedChannels * 256];
  for (int i = threadIdx.x; i < kSharedChannels * 256; i += blockDim.x) hist[i] = 0;
  __syncthreads();
  const size_t b = blockIdx.y;
  const uint8_t* image = images + b * size_t(pixels) * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(pixels);
       e += size_t(blockDim.x) * gridDim.x) {
    for (int k = 0; k < c; ++k) atomicAdd(&hist[k * 256 + image[e * c + k]], 1u);
  }
  __syncthreads();
  uint32_t* out = reinterpret_cast<uint32_t*>(counts) + b * size_t(c) * 256;
  for (int i = threadIdx.x; i < c * 256; i += blockDim.x) {
    if (hist[i] != 0) atomicAdd(&out[i], hist[i]);
  }
}

// More channels than shared memory holds: one global atomic per byte.
__global__ void GlobalCountsKernel(const uint8_t* images, int batch, int64_t pixels, int c, int32_t* counts) {
  const size_t per = size_t(pixels) * c;
  uint32_t* out = reinterpret_cast<uint32_t*>(counts);
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < per * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per, k = (e - b * per) % c;
    atomicAdd(&out[(b * c + k) * 256 + images[e]], 1u);
  }
}

}  // namespace

Status ChannelHistogramsGpu(const uint8_t* images, int batch, int64_t pixels, int c, int32_t* counts,
                            cudaStream_t stream) {
  const size_t bins = size_t(batch) * c * 256;
  if (bins == 0) return Status::Ok();  // nothing to launch (a grid of no blocks is an error)
  ZeroCountsKernel<<<GridBlocks(bins), kThreadsPerBlock, 0, stream>>>(counts, bins);
  if (pixels > 0 && c <= kSharedChannels) {
    for (int first = 0; first < batch; first += 65535) {  // grid y holds at most 65535 images
      const int images_now = batch - first < 65535 ? batch - first : 65535;
      SharedCountsKernel<<<dim3(kBlocksPerImage, images_now), kThreadsPerBlock, 0, stream>>>(
          images + size_t(first) * pixels * c, pixels, c, counts + size_t(first) * c * 256);
    }
  } else if (pixels > 0) {
    GlobalCountsKernel<<<GridBlocks(size_t(batch) * pixels * c), kThreadsPerBlock, 0, stream>>>(
        images, batch, pixels, c, counts);
  }
  return LaunchStatus("channel histograms kernels");
}

}  // namespace tfgpuaug
