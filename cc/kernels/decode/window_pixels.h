// The requested window of a fully decoded image as output pixels, for the formats decoded
// whole (PNG, WebP, GIF): block means for reduced sizes (no DCT scaling there), then the
// channel conversion.
#ifndef TFGPUAUG_CC_KERNELS_DECODE_WINDOW_PIXELS_H_
#define TFGPUAUG_CC_KERNELS_DECODE_WINDOW_PIXELS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cc/kernels/decode/image_decode.h"
#include "cc/kernels/decode/pixel_convert.h"

namespace tfgpuaug {

// The full-size rows and columns a window (in coordinates reduced by `denom`) reads from an
// h x w image: its denom x denom blocks, cut at the image's edge. Decoders that can read part
// of an image decode only this region, then call WriteWindow(region, ..., {0, 0, wh, ww}).
inline Window SourceRegion(const Window& window, int denom, int h, int w) {
  const int y0 = window.y * denom, x0 = window.x * denom;
  const int y1 = std::min(h, (window.y + window.height) * denom);
  const int x1 = std::min(w, (window.x + window.width) * denom);
  return Window{y0, x0, y1 - y0, x1 - x0};
}

// `in` is the whole h x w image of c channels; `window` is in reduced coordinates.
template <typename T>
void BoxReduce(const T* in, int h, int w, int c, int denom, const Window& window, T* out) {
  for (int r = 0; r < window.height; ++r) {
    const int y0 = (window.y + r) * denom, y1 = std::min(y0 + denom, h);
    for (int col = 0; col < window.width; ++col) {
      const int x0 = (window.x + col) * denom, x1 = std::min(x0 + denom, w);
      const int n = (y1 - y0) * (x1 - x0);
      for (int k = 0; k < c; ++k) {
        int64_t sum = 0;
        for (int y = y0; y < y1; ++y)
          for (int x = x0; x < x1; ++x) sum += in[(size_t(y) * w + x) * c + k];
        out[(size_t(r) * window.width + col) * c + k] = static_cast<T>((sum + n / 2) / n);
      }
    }
  }
}

// Writes `window` (in coordinates reduced by `denom`) of the h x w image `in` (c channels)
// to `out` as out_c channels: each output pixel the mean of its denom x denom block.
template <typename T>
void WriteWindow(const T* in, int h, int w, int c, int denom, const Window& window, int out_c, T* out) {
  std::vector<T> reduced;
  const T* src = in;
  int src_w = w, sx = window.x, sy = window.y;
  if (denom > 1) {
    reduced.resize(size_t(window.height) * window.width * c);
    BoxReduce(in, h, w, c, denom, window, reduced.data());
    src = reduced.data();
    src_w = window.width;
    sx = sy = 0;
  }
  for (int r = 0; r < window.height; ++r) {
    const T* row = src + (size_t(sy + r) * src_w + sx) * c;
    T* o = out + size_t(r) * window.width * out_c;
    if (c == out_c && c != 2) {  // no conversion: a row copy
      std::memcpy(o, row, size_t(window.width) * c * sizeof(T));
      continue;
    }
    for (int x = 0; x < window.width; ++x) ConvertPixel(row + x * c, c, o + x * out_c, out_c);
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_DECODE_WINDOW_PIXELS_H_
