// CPU loop of RandomSunFlare's "overlay" method (sun_flare.h): one image at a time. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SUN_FLARE_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SUN_FLARE_CPU_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/augment/sun_flare.h"

namespace tfgpuaug {

// One sample's flare: n circles ([n, 3] x, y, radius; weights [n, 2]; colours [n, c]), the sun's
// centre, its m discs' radii (ascending) and weights [m, 2], the sun colour [c].
struct SunFlarePlan {
  const int32_t* circles;
  const float* circle_weights;
  const uint8_t* colours;
  int n;
  int sun_x, sun_y;
  const int* radii;
  const float* weights;
  int m;
  const uint8_t* sun_colour;
};

// Bytes of scratch SunFlareCpu needs: the sun's tables, one per disc count and channel.
size_t SunFlareScratchBytes(int m, int c);

// Image [h, w, c] through the plan into out (which may not alias it).
void SunFlareCpu(const uint8_t* image, int h, int w, int c, const SunFlarePlan& plan, uint8_t* tables,
                 uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SUN_FLARE_CPU_H_
