// CPU loops of the separable float blur (separable_blur.h). CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SEPARABLE_BLUR_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SEPARABLE_BLUR_CPU_H_

#include <cstddef>

namespace tfgpuaug {

// Floats of scratch one plane's blur needs (the row pass's plane and one reflected row).
size_t SeparableBlurScratchFloats(int h, int w, int taps);

// One h x w plane blurred along its rows, then its columns, by the `taps`-long kernel (odd);
// `scratch` holds SeparableBlurScratchFloats(h, w, taps) floats.
void SeparableBlurCpu(const float* plane, int h, int w, const float* kernel, int taps, float* scratch,
                      float* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SEPARABLE_BLUR_CPU_H_
