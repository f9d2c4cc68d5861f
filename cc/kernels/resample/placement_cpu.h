// The padding of a placed resize's output (CPU); the resampler writes the visible rectangle.
#ifndef TFGPUAUG_CC_KERNELS_RESAMPLE_PLACEMENT_CPU_H_
#define TFGPUAUG_CC_KERNELS_RESAMPLE_PLACEMENT_CPU_H_

#include <algorithm>
#include <cstddef>

#include "cc/kernels/common/stream_store.h"
#include "cc/kernels/resample/placement.h"

namespace tfgpuaug {

// Fills the output [out_h, out_w, c] with `pad` outside the visible rectangle (which the
// resampler writes in place, rows out_w * c elements apart).
// Large outputs are written with streaming stores (see stream_store.h).
template <typename T>
void FillPadding(const VisibleRect& v, int out_h, int out_w, int c, T pad, T* out) {
  const size_t row = size_t(out_w) * c;
  const bool stream = UseStreamStores(row * out_h * sizeof(T));
  auto fill = [&](T* first, T* last) {
    if (stream) {
      StreamFill(first, pad, size_t(last - first));
    } else {
      std::fill(first, last, pad);
    }
  };
  for (int y = 0; y < out_h; ++y) {
    T* o = out + y * row;
    if (y < v.y0 || y >= v.y1) {
      fill(o, o + row);
      continue;
    }
    fill(o, o + size_t(v.x0) * c);
    fill(o + size_t(v.x1) * c, o + row);
  }
  if (stream) StreamFence();
}

// Where the visible rectangle starts in the output.
template <typename T>
T* VisibleOrigin(const VisibleRect& v, int out_w, int c, T* out) {
  return out + (size_t(v.y0) * out_w + v.x0) * c;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_RESAMPLE_PLACEMENT_CPU_H_
