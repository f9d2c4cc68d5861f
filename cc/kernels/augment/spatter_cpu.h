// CPU driver of Spatter's "mud" mode (spatter.h): one image per call, the noise eight lanes at
// a time with AVX2 where the CPU has it, both blurs as vectorised multiply-adds along rows (then
// down columns, a row of sums at a time) in the order SpatterBlurAt sums. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_CPU_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/augment/spatter.h"

namespace tfgpuaug {

// One sample's mud: its draws, its noise seed, the liquid's blur frame (taps1 float64, odd
// length t1) and the mask's (taps2 float32, odd length t2), the colour [3] in levels.
struct SpatterMudPlan {
  SpatterParams params;
  uint32_t seed;
  const double* taps1;
  int t1;
  const float* taps2;
  int t2;
  const double* colour;
};

// Bytes of scratch SpatterMudCpu needs for an h x w image.
size_t SpatterScratchBytes(int h, int w);

// Image [h, w, 3] through the plan into out (which may not alias it).
void SpatterMudCpu(const uint8_t* image, int h, int w, const SpatterMudPlan& plan, uint8_t* scratch,
                   uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_CPU_H_
