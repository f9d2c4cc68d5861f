// CPU blurs of Spatter's layers (spatter.h's SpatterBlurAt for every element, in its order):
// along rows padded with their replicated ends, and down columns a row of sums at a time; AVX2
// register blocks where the CPU has them, vectorised passes a tap elsewhere. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_BLUR_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_BLUR_CPU_H_

#include <cstdint>

#include "cc/kernels/augment/spatter.h"

namespace tfgpuaug {

// out[x] = SpatterBlurAt along a row of w for every x, from the row with its ends replicated r
// times (padded[i] = row[clamp(i - r)], i in [0, w + 2 r)).
void BlurPaddedRowDouble(const double* centre, int r, const double* padded, int w, double* out);
void BlurPaddedRowFloat(const float* centre, int r, const float* padded, int w, float* out);

// Row y of the column blur of an h x w plane: sums[x] over the rows y - r .. y + r (clamped).
void ColumnsDouble(const double* centre, int r, const double* plane, int h, int w, int y, double* sums);
void ColumnsFloat(const float* centre, int r, const float* plane, int h, int w, int y, float* sums);

// Spatter's liquid layer blurred along its rows into blurred [h][w] (float64): mean + std z of
// the seed's counter-hash normals (AVX2 where the CPU has it) through the frame of t taps;
// noise: h w floats, padded: w + kMaxSpatterTaps doubles of scratch.
void SpatterLiquidRows(const SpatterParams& p, uint32_t seed, const double* taps, int t, int h, int w,
                       float* noise, double* padded, double* blurred);

// Fills row[-r .. -1] and row[w .. w + r - 1] with the row's end values.
template <typename T>
void PadEnds(T* row, int w, int r) {
  for (int i = 1; i <= r; ++i) {
    row[-i] = row[0];
    row[w - 1 + i] = row[w - 1];
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_BLUR_CPU_H_
