// The CPU loop of the augment kernel's box_blur stage (Albumentations' Blur, OpenCV's blur):
// running sums of the window's rows per byte (one row in, one out per output row), then the
// window's columns, 16 bytes a step with AVX2 (flat loops otherwise). The bytes are
// BoxBlurPixel's (augment.h), which the CUDA kernel runs. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_BOX_BLUR_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_BOX_BLUR_CPU_H_

#include <cstdint>

#include "cc/kernels/augment/augment.h"

namespace tfgpuaug {

// side: odd, 3 .. kMaxBoxSide (BoxSide of the stage's parameter).
void BoxBlurCpu(const uint8_t* src, const AugmentImage& image_info, int side, uint8_t* dst);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_BOX_BLUR_CPU_H_
