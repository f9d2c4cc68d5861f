// CLAHE's conversion back to RGB on sixteen pixels a step (AVX-512 F, BW and VBMI): the same
// integer and float operations as the AVX2 pass of clahe_avx2.cc, so the same bytes. Called
// from that pass on CPUs where CpuHasAvx512Vbmi(); CPU only. (The conversion to L*a*b* was
// tried the same way and measured slower than its AVX2 passes on Zen 4.)
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_CLAHE_AVX512_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_CLAHE_AVX512_H_

#include <cstdint>

#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {

#if TFGPUAUG_HAVE_AVX2_LOOPS
// L*a*b* back to RGB up to the inverse gamma's index: for n pixels (a multiple of 16) of an
// interleaved L*a*b* row (its L* replaced by the blended lightness's table word Y << 16 | f(Y)),
// the three channels' indices, planes `stride` apart.
void ClaheRgbIndicesAvx512(const uint8_t* lab_row, const int* light_y_f, int n, int stride, int* rgb_index);
#endif

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_CLAHE_AVX512_H_
