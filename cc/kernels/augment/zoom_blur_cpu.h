// CPU loops of ZoomBlur (zoom_blur.h): one image at a time. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_ZOOM_BLUR_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_ZOOM_BLUR_CPU_H_

#include <cstddef>
#include <cstdint>

namespace tfgpuaug {

// Floats of scratch ZoomBlurCpu needs for an image of h x w x c.
size_t ZoomBlurScratchFloats(int h, int w, int c);

// ZoomBlur of image [h, w, c] over the factors arange(1, max_factor, step) into out (which may
// not alias it); the caller has checked step > 0 and at most kMostZooms factors. With AVX2 the
// image is resampled as float planes eight columns a step, the same bytes as the scalar loop.
void ZoomBlurCpu(const uint8_t* image, int h, int w, int c, double max_factor, double step, float* scratch,
                 uint8_t* out);

// The scalar loop alone (what CPUs without AVX2 run; tests compare the two).
void ZoomBlurScalar(const uint8_t* image, int h, int w, int c, double max_factor, double step, float* sums,
                    uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_ZOOM_BLUR_CPU_H_
