#include "cc/kernels/warp/warp_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

// One thread per pixel, which it moves as whole words (4-, 2- or 1-byte: the widest that
// divides the pixel, so every access is aligned: buffers are, and pixels start at multiples
// of their size).
template <typename Word>
__global__ void FlipKernel(const Word* images, int batch, int h, int w, int words_per_pixel,
                           const bool* horizontal, const bool* vertical, Word* out) {
  const size_t pixels = size_t(h) * w, total = pixels * batch;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    const int b = e / pixels;
    const size_t r = e % pixels;
    const int x = r % w, y = r / w;
    const int sy = FlipSource(y, h, vertical[b]), sx = FlipSource(x, w, horizontal[b]);
    const Word* src = images + (b * pixels + size_t(sy) * w + sx) * words_per_pixel;
    Word* dst = out + e * words_per_pixel;
    for (int k = 0; k < words_per_pixel; ++k) dst[k] = src[k];
  }
}

template <typename Word>
void LaunchFlip(const uint8_t* images, int batch, int h, int w, size_t pixel_bytes, const bool* horizontal,
                const bool* vertical, uint8_t* out, cudaStream_t stream) {
  FlipKernel<Word><<<GridBlocks(size_t(batch) * h * w), kThreadsPerBlock, 0, stream>>>(
      reinterpret_cast<const Word*>(images), batch, h, w, int(pixel_bytes / sizeof(Word)), horizontal,
      vertical, reinterpret_cast<Word*>(out));
}

__global__ void WarpAffineKernel(const uint8_t* images, int batch, AffineParams p, const float* matrices,
                                 uint8_t* out) {
  const size_t per = size_t(p.out_h) * p.out_w * p.channels;
  const size_t in_per = size_t(p.in_h) * p.in_w * p.channels;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < per * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const int b = e / per;
    const size_t r = e % per;
    const int k = r % p.channels, x = (r / p.channels) % p.out_w, y = r / (size_t(p.channels) * p.out_w);
    out[e] = AffineSample(images + b * in_per, p, matrices + 6 * b, y, x, k);
  }
}

}  // namespace

Status FlipGpu(const uint8_t* images, int batch, int h, int w, int c, size_t element_bytes,
               const bool* horizontal, const bool* vertical, uint8_t* out, cudaStream_t stream) {
  const size_t pixel_bytes = size_t(c) * element_bytes;
  if (pixel_bytes % 4 == 0) {
    LaunchFlip<uint32_t>(images, batch, h, w, pixel_bytes, horizontal, vertical, out, stream);
  } else if (pixel_bytes % 2 == 0) {
    LaunchFlip<uint16_t>(images, batch, h, w, pixel_bytes, horizontal, vertical, out, stream);
  } else {
    LaunchFlip<uint8_t>(images, batch, h, w, pixel_bytes, horizontal, vertical, out, stream);
  }
  return LaunchStatus("flip kernel");
}

Status WarpAffineGpu(const uint8_t* images, int batch, const AffineParams& p, const float* matrices,
                     uint8_t* out, cudaStream_t stream) {
  const size_t total = size_t(batch) * p.out_h * p.out_w * p.channels;
  WarpAffineKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, p, matrices, out);
  return LaunchStatus("warp_affine kernel");
}

}  // namespace tfgpuaug
