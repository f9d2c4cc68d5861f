// The reduced-size decode of formats without DCT scaling (PNG, WebP): each output pixel is
// the mean of the in-bounds pixels of its denom x denom block.
#ifndef TFGPUAUG_CC_KERNELS_DECODE_BOX_REDUCE_H_
#define TFGPUAUG_CC_KERNELS_DECODE_BOX_REDUCE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cc/kernels/decode/image_decode.h"

namespace tfgpuaug {

// `in` is the whole h x w image of c channels; `window` is in reduced coordinates.
inline void BoxReduce(const uint8_t* in, int h, int w, int c, int denom, const Window& window, uint8_t* out) {
  for (int r = 0; r < window.height; ++r) {
    const int y0 = (window.y + r) * denom, y1 = std::min(y0 + denom, h);
    for (int col = 0; col < window.width; ++col) {
      const int x0 = (window.x + col) * denom, x1 = std::min(x0 + denom, w);
      const int n = (y1 - y0) * (x1 - x0);
      for (int k = 0; k < c; ++k) {
        int sum = 0;
        for (int y = y0; y < y1; ++y)
          for (int x = x0; x < x1; ++x) sum += in[(size_t(y) * w + x) * c + k];
        out[(size_t(r) * window.width + col) * c + k] = static_cast<uint8_t>((sum + n / 2) / n);
      }
    }
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_DECODE_BOX_REDUCE_H_
