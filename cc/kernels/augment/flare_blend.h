// RandomSunFlare "physics_based" once its flare layer is painted, as Albumentations'
// add_sun_flare_physics_based runs it: the layer (packed r + 256 g + 65536 b a pixel, as SpanRaster
// paints it) as float32 planes, blurred (sigma 15, separable_blur.h); the radial fade
// 1 - clip(|p - sun| / (0.7 max(H, W)), 0, 1) in float64 (numpy's), applied in float32; each
// channel blurred by its own kernel; the screen 255 - (255 - x)(255 - f) / 255 in float32, clipped
// to [0, 255] and truncated. Inline math shared by the CPU loops and the CUDA kernels.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// Channel c of a packed layer pixel, as a float.
TFGPUAUG_HD float FlareLayerChannel(int32_t packed, int c) {
  return static_cast<float>((static_cast<uint32_t>(packed) >> (8 * c)) & 255u);
}

// 0.7 max(h, w): where the fade reaches zero.
TFGPUAUG_HD double FlareFadeReach(int h, int w) { return double(h > w ? h : w) * 0.7; }

TFGPUAUG_HD float FlareFade(int x, int y, int sun_x, int sun_y, double reach) {
  const double dx = double(x) - double(sun_x), dy = double(y) - double(sun_y);
  double d = sqrt(dx * dx + dy * dy) / reach;
  d = d < 0.0 ? 0.0 : (d > 1.0 ? 1.0 : d);
  return static_cast<float>(1.0 - d);
}

TFGPUAUG_HD uint8_t FlareScreenByte(uint8_t v, float flare) {
  const float out = 255.f - (static_cast<float>(255 - v) * (255.f - flare)) / 255.f;
  return static_cast<uint8_t>(out > 0.f ? (out < 255.f ? out : 255.f) : 0.f);  // truncated, as a cast
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_H_
