// CPU loop of GlassBlur's swaps (glass_swaps.h): one image at a time. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_GLASS_SWAPS_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_GLASS_SWAPS_CPU_H_

#include <cstdint>

namespace tfgpuaug {

// `iterations` rounds of swaps of image [h, w, c] into out (which may not alias it), drawn from
// `seed`; `before` [h w c] and `targets` [interior pixels] are scratch.
void GlassSwapsCpu(const uint8_t* image, int h, int w, int c, int max_delta, int iterations, uint32_t seed,
                   uint8_t* before, int64_t* targets, uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_GLASS_SWAPS_CPU_H_
