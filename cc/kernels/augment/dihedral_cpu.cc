#include "cc/kernels/augment/dihedral_cpu.h"

#include <algorithm>
#include <cstring>

namespace tfgpuaug {
namespace {

// Output rows transposed together: a source row's pixels for the block lie side by side.
constexpr int kBlockRows = 16;

// C channels a pixel (0: `c` at run time); fixed counts let the copies inline.
template <int C>
void DihedralLoop(const DihedralMap& m, const uint8_t* src, int h, int w, int c, uint8_t* dst) {
  const int channels = C > 0 ? C : c;
  const size_t row = size_t(w) * channels;
  if (!m.transpose) {
    for (int y = 0; y < h; ++y) {
      const uint8_t* s = src + size_t(m.flip_y ? h - 1 - y : y) * row;
      uint8_t* o = dst + size_t(y) * row;
      if (!m.flip_x) {
        std::memcpy(o, s, row);
        continue;
      }
      for (int x = 0; x < w; ++x)
        for (int k = 0; k < channels; ++k) o[size_t(x) * channels + k] = s[size_t(w - 1 - x) * channels + k];
    }
    return;
  }
  // Transposed (h == w): output (y, x) is source (fx, fy), fy from y and fx from x alone.
  for (int y0 = 0; y0 < h; y0 += kBlockRows) {
    const int y1 = std::min(h, y0 + kBlockRows);
    for (int x = 0; x < w; ++x) {
      const uint8_t* s = src + size_t(m.flip_x ? w - 1 - x : x) * row;
      for (int y = y0; y < y1; ++y) {
        const uint8_t* from = s + size_t(m.flip_y ? h - 1 - y : y) * channels;
        uint8_t* o = dst + (size_t(y) * w + x) * channels;
        for (int k = 0; k < channels; ++k) o[k] = from[k];
      }
    }
  }
}

}  // namespace

void DihedralCpu(float param, const uint8_t* src, const AugmentImage& image_info, uint8_t* dst) {
  const DihedralMap m = DihedralOf(param, image_info.h, image_info.w);
  const int h = image_info.h, w = image_info.w, c = image_info.c;
  switch (c) {
    case 1:
      return DihedralLoop<1>(m, src, h, w, c, dst);
    case 3:
      return DihedralLoop<3>(m, src, h, w, c, dst);
    case 4:
      return DihedralLoop<4>(m, src, h, w, c, dst);
    default:
      return DihedralLoop<0>(m, src, h, w, c, dst);
  }
}

}  // namespace tfgpuaug
