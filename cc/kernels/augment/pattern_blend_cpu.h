// CPU loop of the plasma blends (pattern_blend.h): one image at a time. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_PATTERN_BLEND_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_PATTERN_BLEND_CPU_H_

#include <cstdint>

#include "cc/kernels/augment/pattern_blend.h"

namespace tfgpuaug {

// Image [h, w, c] blended with pattern [h, w] into out: the shadow of intensity factors[0], or
// the brightness-contrast of factors[0] (brightness) and factors[1] (contrast). Rows of w c
// bytes fit an int.
void PatternBlendCpu(const uint8_t* image, int64_t h, int64_t w, int c, const float* pattern,
                     const float* factors, PatternBlendMode mode, uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_PATTERN_BLEND_CPU_H_
