// CUDA launcher of RandomSunFlare's "overlay" method (sun_flare.h): a batch of images.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SUN_FLARE_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SUN_FLARE_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/augment/sun_flare.h"
#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// The batch's flares, every array on the device: circles [batch, n, 3] (x, y, radius), their
// weights [batch, n, 2] and colours [batch, n, c], suns [batch, 2] (x, y), radii [m]
// (ascending), weights [batch, m, 2], sun colour [c].
struct SunFlareBatch {
  const int32_t* circles;
  const float* circle_weights;
  const uint8_t* colours;
  int n;
  const int32_t* suns;
  const int32_t* radii;
  const float* weights;
  int m;
  const uint8_t* sun_colour;
};

// images [batch, h, w, c] (device) -> out (device, not aliasing them): one thread a pixel.
Status SunFlareGpu(const uint8_t* images, int batch, int h, int w, int c, const SunFlareBatch& flares,
                   uint8_t* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SUN_FLARE_GPU_H_
