#include "cc/kernels/augment/sun_flare_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

// One thread a pixel: its bytes through the flare circles, then through the sun discs that
// cover it, step by step (the CPU looks the same steps up in tables built from them).
__global__ void SunFlareKernel(const uint8_t* images, int batch, int h, int w, int c, SunFlareBatch f,
                               uint8_t* out) {
  const size_t pixels = size_t(h) * w;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(batch) * pixels;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / pixels, i = e - b * pixels;
    const int y = static_cast<int>(i / w), x = static_cast<int>(i % w);
    uint8_t* px = out + e * c;
    for (int k = 0; k < c; ++k) px[k] = images[e * c + k];
    FlareCirclesPixel(f.circles + b * f.n * 3, f.circle_weights + b * f.n * 2, f.colours + b * f.n * c, f.n,
                      c, x, y, px);
    const int64_t dx = int64_t{x} - f.suns[2 * b], dy = int64_t{y} - f.suns[2 * b + 1];
    const int first = SunDiscsMissing(dx * dx + dy * dy, f.radii, f.m);
    for (int k = 0; k < c; ++k) px[k] = SunSteps(px[k], first, f.m, f.weights + b * f.m * 2, f.sun_colour[k]);
  }
}

}  // namespace

Status SunFlareGpu(const uint8_t* images, int batch, int h, int w, int c, const SunFlareBatch& flares,
                   uint8_t* out, cudaStream_t stream) {
  const size_t pixels = size_t(batch) * h * w;
  if (pixels == 0 || c == 0) return Status::Ok();  // nothing to launch (a grid of no blocks is an error)
  SunFlareKernel<<<GridBlocks(pixels), kThreadsPerBlock, 0, stream>>>(images, batch, h, w, c, flares, out);
  return LaunchStatus("sun flare kernel");
}

}  // namespace tfgpuaug
