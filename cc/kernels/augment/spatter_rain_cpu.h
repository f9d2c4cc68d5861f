// CPU driver of Spatter's "rain" mode (spatter_rain.h): one image per call, the liquid as the
// mud mode makes it (spatter_blur_cpu.h's blurs), then the Canny edges, the distance transform,
// the equalised relief and the drops, in the per-element functions' order. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_RAIN_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_RAIN_CPU_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/augment/spatter.h"

namespace tfgpuaug {

// One sample's rain: its draws, its noise seed, the liquid's blur frame (float64, odd length
// t1), the colour [3] in levels.
struct SpatterRainPlan {
  SpatterParams params;
  uint32_t seed;
  const double* taps1;
  int t1;
  const double* colour;
};

// Bytes of scratch SpatterRainCpu needs for an h x w image.
size_t SpatterRainScratchBytes(int h, int w);

// Image [h, w, 3] through the plan into out (which may not alias it).
void SpatterRainCpu(const uint8_t* image, int h, int w, const SpatterRainPlan& plan, uint8_t* scratch,
                    uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_RAIN_CPU_H_
