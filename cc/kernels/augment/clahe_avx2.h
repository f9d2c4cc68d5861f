// AVX2 loops of the CPU CLAHE driver, eight pixels a step, bit-identical to the per-pixel
// functions of clahe.h and opencv_lab.h (which the CUDA kernels run). Callers check
// CpuHasAvx2() first. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_CLAHE_AVX2_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_CLAHE_AVX2_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/augment/clahe.h"
#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {

#if TFGPUAUG_HAVE_AVX2_LOOPS
// LabFromRgbOpenCv of n pixels of c >= 3 channels into lab (3 bytes a pixel).
void LabFromRgbAvx2(const uint8_t* src, size_t n, int c, uint8_t* lab);

// The equalised RGB(A) image: each pixel's L through ClaheValue's blend of the tables `luts`,
// back with RgbFromLabOpenCv and its own a and b; alpha copied. `lab` is LabFromRgbAvx2's output for the
// whole image.
void ClaheApplyRgbAvx2(const uint8_t* lab, const uint8_t* luts, const ClaheGrid& g, const uint8_t* src, int h,
                       int w, int c, uint8_t* dst);
#endif

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_CLAHE_AVX2_H_
