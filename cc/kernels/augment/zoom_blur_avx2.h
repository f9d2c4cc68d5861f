// ZoomBlur (zoom_blur.h) on AVX2 lanes: the image as float planes, each zoom's rows resampled
// eight columns a step (the taps' source columns gathered by in-register permutes), operation
// for operation the scalar math, so the bytes are the same. CPU only; callers check
// CpuHasAvx2() first.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_ZOOM_BLUR_AVX2_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_ZOOM_BLUR_AVX2_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {

// Floats of scratch ZoomBlurAvx2 needs for an image of h x w x c.
size_t ZoomBlurAvx2ScratchFloats(int h, int w, int c);

#if TFGPUAUG_HAVE_AVX2_LOOPS
// As ZoomBlurScalar; false (out untouched) where a zoom's taps do not fit the eight-column
// permutes (factors below 1, which arange(1, ...) never makes), for the caller to fall back.
bool ZoomBlurAvx2(const uint8_t* image, int h, int w, int c, double max_factor, double step, float* scratch,
                  uint8_t* out);
#endif

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_ZOOM_BLUR_AVX2_H_
