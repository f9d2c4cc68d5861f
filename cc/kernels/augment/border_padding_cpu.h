// Rows and images copied with their borders laid out beside them, so that neighbourhood loops
// (blurs, medians) run the interior's loop over the border too. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_BORDER_PADDING_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_BORDER_PADDING_CPU_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cc/kernels/common/border.h"

namespace tfgpuaug {

// A row of w pixels of c interleaved channels with r pixels more on each side, reflected 101
// (as Reflect101 reads), into out (w + 2 r pixels).
inline void PadRowReflect101(const uint8_t* row, int w, int c, int r, uint8_t* out) {
  std::memcpy(out + size_t(r) * c, row, size_t(w) * c);
  for (int x = -r; x < 0; ++x) std::memcpy(out + size_t(x + r) * c, row + size_t(Reflect101(x, w)) * c, c);
  for (int x = w; x < w + r; ++x) std::memcpy(out + size_t(x + r) * c, row + size_t(Reflect101(x, w)) * c, c);
}

// The same row with its edge pixels repeated r times on each side instead.
inline void PadRowReplicate(const uint8_t* row, int w, int c, int r, uint8_t* out) {
  std::memcpy(out + size_t(r) * c, row, size_t(w) * c);
  for (int x = 0; x < r; ++x) {
    std::memcpy(out + size_t(x) * c, row, c);
    std::memcpy(out + size_t(r + w + x) * c, row + size_t(w - 1) * c, c);
  }
}

// An h x w x c image with rx columns and ry rows more on each side, reflected 101, into out
// ((h + 2 ry) x (w + 2 rx) x c).
inline void PadImageReflect101(const uint8_t* src, int h, int w, int c, int ry, int rx, uint8_t* out) {
  const size_t row = size_t(w) * c, padded_row = size_t(w + 2 * rx) * c;
  for (int y = -ry; y < h + ry; ++y)
    PadRowReflect101(src + size_t(Reflect101(y, h)) * row, w, c, rx, out + size_t(y + ry) * padded_row);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_BORDER_PADDING_CPU_H_
