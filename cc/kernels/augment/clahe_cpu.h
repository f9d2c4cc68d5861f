// The CPU driver of the augment kernel's clahe stage (clahe.h): the equalised plane once (L of
// L*a*b* for RGB(A), else the first channel), the tiles' histograms and tables, then every
// pixel through ClahePixel's blend and conversion back. The bytes are the per-pixel functions'
// (which the CUDA kernels run); AVX2 loops where the CPU has them. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_CLAHE_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_CLAHE_CPU_H_

#include <cstdint>

#include "cc/kernels/augment/augment.h"

namespace tfgpuaug {

// clip_limit: the stage's parameter (ClaheClipCount); g: ClaheGridOf the image.
void ClaheCpu(const uint8_t* src, const AugmentImage& image_info, const ClaheGrid& g, float clip_limit,
              uint8_t* dst);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_CLAHE_CPU_H_
