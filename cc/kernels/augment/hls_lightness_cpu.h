// CPU loop of the HLS lightness edit (hls8.h). CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_HLS_LIGHTNESS_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_HLS_LIGHTNESS_CPU_H_

#include <cstdint>

namespace tfgpuaug {

// One RGB image of `pixels` pixels through its lightness table (256 entries) and, unless null,
// a lightness level per pixel (HlsLightnessPixel) into out.
void HlsLightnessCpu(const uint8_t* image, int64_t pixels, const int32_t* table, const int32_t* levels,
                     uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_HLS_LIGHTNESS_CPU_H_
