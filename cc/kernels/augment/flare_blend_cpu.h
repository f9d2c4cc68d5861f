// CPU loop of the physics-based flare's blurs, fade and screen (flare_blend.h). CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_CPU_H_

#include <cstddef>
#include <cstdint>

namespace tfgpuaug {

// Floats of scratch one sample needs: the fade, a plane, the three channels' flares, and the blurs' own.
size_t FlareBlendScratchFloats(int h, int w, int flare_taps, int taps);

// One RGB sample `image` [h, w, 3] and its packed flare `layer` [h, w]: each channel of the layer
// blurred by flare_kernel (flare_taps, odd), faded around (sun_x, sun_y), blurred by kernels[c]
// ([3, taps], taps odd) and screened over the image's channel c into `out` [h, w, 3].
void FlareBlendCpu(const uint8_t* image, int h, int w, const int32_t* layer, int sun_x, int sun_y,
                   const float* flare_kernel, int flare_taps, const float* kernels, int taps, float* scratch,
                   uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_CPU_H_
