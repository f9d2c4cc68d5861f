// The additive noise stages (AdditiveNoisePixel of augment.h) on AVX2 lanes: sixteen stream
// values a step, operation for operation the scalar functions (which the CUDA kernel runs).
// CPU only; callers check CpuHasAvx2() first.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_ADDITIVE_NOISE_AVX2_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_ADDITIVE_NOISE_AVX2_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {

#if TFGPUAUG_HAVE_AVX2_LOOPS
// Additive noise stage `op` over n pixels of c channels (a value a byte, or one a pixel in the
// shared forms): the bytes of AdditiveNoisePixel.
void AdditiveNoiseAvx2(int op, uint32_t seed, float scale, float location, const uint8_t* src, size_t n,
                       int c, uint8_t* dst);
#endif

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_ADDITIVE_NOISE_AVX2_H_
