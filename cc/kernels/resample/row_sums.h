// Weighted sums of rows, the inner loop of separable filters (the resize's vertical pass,
// the blur's two passes). CPU only.
#ifndef TFGPUAUG_CC_KERNELS_RESAMPLE_ROW_SUMS_H_
#define TFGPUAUG_CC_KERNELS_RESAMPLE_ROW_SUMS_H_

#include <cstddef>
#include <cstdint>

namespace tfgpuaug {

// acc[e] = w[0] * rows[0][e] + w[1] * rows[1][e] + ... (taps >= 1), each element's
// products added left to right, as the per-pixel (GPU) functions add them. The first
// product is assigned rather than added to +0: the same value but for the sign of a zero.
// In: uint8_t (AVX2 loop where the CPU has it) or float.
template <typename In>
void WeightedRowSum(const In* const* rows, const float* w, int taps, size_t n, float* acc);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_RESAMPLE_ROW_SUMS_H_
