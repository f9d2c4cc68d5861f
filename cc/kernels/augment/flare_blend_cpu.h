// CPU loop of the physics-based flare's fade, per-channel blur and screen (flare_blend.h). CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_CPU_H_

#include <cstddef>
#include <cstdint>

namespace tfgpuaug {

// Floats of scratch one sample needs: the fade, the faded and the blurred plane, the blur's own.
size_t FlareBlendScratchFloats(int h, int w, int taps);

// One RGB sample `image` [h, w, 3]: its blurred flare `layer` [3, h, w] faded around (sun_x,
// sun_y), channel c blurred by kernels[c] ([3, taps], taps odd) and screened over the image's
// channel c into `out` [h, w, 3].
void FlareBlendCpu(const uint8_t* image, int h, int w, const float* layer, int sun_x, int sun_y,
                   const float* kernels, int taps, float* scratch, uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_FLARE_BLEND_CPU_H_
