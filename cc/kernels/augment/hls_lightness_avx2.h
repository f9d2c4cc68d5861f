// The HLS lightness edit (HlsLightnessPixel of hls8.h) on AVX2 lanes: eight pixels a step,
// operation for operation the scalar functions (which the CUDA kernel runs), so the bytes are
// the same. CPU only; callers check CpuHasAvx2() first.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_HLS_LIGHTNESS_AVX2_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_HLS_LIGHTNESS_AVX2_H_

#include <cstdint>

#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {

#if TFGPUAUG_HAVE_AVX2_LOOPS
// Pixels [0, n) of an RGB image, n a multiple of 8, through HlsLightnessPixel. table_keeps_all
// (every entry below 0) lets eight pixels with no level be copied without converting them.
void HlsLightnessAvx2(const uint8_t* image, int64_t n, const int32_t* table, const int32_t* levels,
                      bool table_keeps_all, uint8_t* out);
#endif

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_HLS_LIGHTNESS_AVX2_H_
