// Writing a placed resize's resampled rectangle into its padded output (CPU).
#ifndef TFGPUAUG_CC_KERNELS_RESAMPLE_PLACEMENT_CPU_H_
#define TFGPUAUG_CC_KERNELS_RESAMPLE_PLACEMENT_CPU_H_

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "cc/kernels/resample/placement.h"

namespace tfgpuaug {

// Writes `visible` ([y1 - y0, x1 - x0, c], already mirrored if wanted) into out [out_h, out_w, c]
// at the rectangle, and `pad` everywhere else.
template <typename T>
void PlaceRows(const T* visible, const VisibleRect& v, int out_h, int out_w, int c, T pad, T* out) {
  const size_t row = size_t(out_w) * c, vis_row = size_t(v.x1 - v.x0) * c;
  for (int y = 0; y < out_h; ++y) {
    T* o = out + y * row;
    if (y < v.y0 || y >= v.y1) {
      std::fill(o, o + row, pad);
      continue;
    }
    std::fill(o, o + size_t(v.x0) * c, pad);
    std::memcpy(o + size_t(v.x0) * c, visible + size_t(y - v.y0) * vis_row, vis_row * sizeof(T));
    std::fill(o + size_t(v.x1) * c, o + row, pad);
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_RESAMPLE_PLACEMENT_CPU_H_
