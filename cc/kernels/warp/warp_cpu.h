// CPU drivers for one sample of flip and affine warp.
#ifndef TFGPUAUG_CC_KERNELS_WARP_WARP_CPU_H_
#define TFGPUAUG_CC_KERNELS_WARP_WARP_CPU_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/warp/warp.h"

namespace tfgpuaug {

// Flips one [h, w, c] sample of `element_bytes`-sized elements.
void FlipCpu(const uint8_t* image, int h, int w, int c, size_t element_bytes, bool horizontal, bool vertical,
             uint8_t* out);

// Picks a specialised loop for matrices that keep rows or columns (shears, translations)
// and blends channels with SSE2; the outputs are bit-identical to WarpAffineGeneralCpu,
// the plain per-pixel loop the CUDA kernel runs.
void WarpAffineCpu(const uint8_t* image, const AffineParams& p, const float* matrix, uint8_t* out);
void WarpAffineGeneralCpu(const uint8_t* image, const AffineParams& p, const float* matrix, uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_WARP_CPU_H_
