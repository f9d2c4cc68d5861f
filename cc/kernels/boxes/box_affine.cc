#include "cc/kernels/boxes/box_affine.h"

#include <algorithm>

namespace tfgpuaug {
namespace {

// (u, v) of point (x, y): u = m0 * x + m1 * y + m2 (and v likewise), divided by the third
// row's value for a homography.
inline void MapPoint(const float* m, int rows, float x, float y, float* u, float* v) {
  *u = m[0] * x + m[1] * y + m[2];
  *v = m[3] * x + m[4] * y + m[5];
  if (rows == 3) {
    const float w = m[6] * x + m[7] * y + m[8];
    *u = *u / w;
    *v = *v / w;
  }
}

inline float Clip(float v, float hi) { return std::min(std::max(v, 0.f), hi); }

}  // namespace

int64_t MoveBoxes(const float* boxes, const int64_t* row_splits, int64_t n, const float* matrices,
                  int matrix_rows, const float* out_hw, const BoxFilter& filter, float* out, int64_t* kept,
                  int64_t* out_splits) {
  int64_t k = 0;
  out_splits[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float* m = matrices + i * matrix_rows * 3;
    const float h = out_hw[2 * i], w = out_hw[2 * i + 1];
    for (int64_t r = row_splits[i]; r < row_splits[i + 1]; ++r) {
      const float* b = boxes + 4 * r;
      const float xs[4] = {b[0], b[2], b[0], b[2]}, ys[4] = {b[1], b[1], b[3], b[3]};
      float lo_x, lo_y, hi_x, hi_y;
      MapPoint(m, matrix_rows, xs[0], ys[0], &lo_x, &lo_y);
      hi_x = lo_x;
      hi_y = lo_y;
      for (int c = 1; c < 4; ++c) {
        float u, v;
        MapPoint(m, matrix_rows, xs[c], ys[c], &u, &v);
        lo_x = std::min(lo_x, u);
        lo_y = std::min(lo_y, v);
        hi_x = std::max(hi_x, u);
        hi_y = std::max(hi_y, v);
      }
      const float c0x = Clip(lo_x, w), c0y = Clip(lo_y, h), c1x = Clip(hi_x, w), c1y = Clip(hi_y, h);
      const float before = std::max(hi_x - lo_x, 0.f) * std::max(hi_y - lo_y, 0.f);
      const float after = std::max(c1x - c0x, 0.f) * std::max(c1y - c0y, 0.f);
      if (!(after > filter.min_area && after >= filter.min_visibility * before)) continue;
      float* o = out + 4 * k;
      o[0] = c0x;
      o[1] = c0y;
      o[2] = c1x;
      o[3] = c1y;
      kept[k++] = r;
    }
    out_splits[i + 1] = k;
  }
  return k;
}

}  // namespace tfgpuaug
