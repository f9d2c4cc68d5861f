// CPU driver for separable resampling of one image (the batch loop lives in the caller,
// which spreads images over a thread pool).
#ifndef TFGPUAUG_CC_KERNELS_RESAMPLE_RESAMPLE_CPU_H_
#define TFGPUAUG_CC_KERNELS_RESAMPLE_RESAMPLE_CPU_H_

#include <vector>

#include "cc/kernels/resample/resample.h"

namespace tfgpuaug {

// Normalised taps of every output pixel along one axis, from the shared inline math.
struct AxisTable {
  std::vector<int> offsets;  // taps of output i are [offsets[i], offsets[i + 1])
  std::vector<int> index;
  std::vector<float> weight;
  int min_index = 0, max_index = -1;
};

AxisTable BuildAxisTable(const ResampleAxis& axis, int out_size);

// Resamples `src` ([src_h, src_w, c], rows `src_row_stride` elements apart) to
// [out_h, out_w, c] (rows `out_row_stride` elements apart; 0: out_w * c), then applies
// `epilogue` (mirror; normalisation for float output).
// The axes' in_size must be src_h and src_w. In/Out: uint8_t or float; uint8 output is
// rounded and saturated.
template <typename In, typename Out>
void ResampleImageCpu(const In* src, int src_h, int src_w, int c, long src_row_stride, const ResampleAxis& ay,
                      const ResampleAxis& ax, int out_h, int out_w, Out* out,
                      const Epilogue& epilogue = Epilogue(), long out_row_stride = 0);

// The input rows and columns an output window needs: [first, last] per axis, clamped.
void NeededRange(const ResampleAxis& axis, int out_size, int* first, int* last);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_RESAMPLE_RESAMPLE_CPU_H_
