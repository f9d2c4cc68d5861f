#include "cc/kernels/warp/remap_cpu.h"

#include <algorithm>
#include <cmath>

namespace tfgpuaug {
namespace {

// The input pixel index nearest to map value v, or a value outside every image.
int NearestIndex(float v) { return RemapCoordinateUsable(v) ? static_cast<int>(rintf(v)) : -(1 << 30); }

// The bilinear interpolation of the map at output position (u, v) (index coordinates, inside
// [0, w - 1] x [0, h - 1]) and its derivatives along u and v, within the cell the position is in.
struct MapPatch {
  double x, y, dxdu, dydu, dxdv, dydv;
};

MapPatch InterpolateMap(const float* map, int h, int w, double u, double v) {
  const int x0 = std::min(std::max(static_cast<int>(std::floor(u)), 0), std::max(w - 2, 0));
  const int y0 = std::min(std::max(static_cast<int>(std::floor(v)), 0), std::max(h - 2, 0));
  const int x1 = std::min(x0 + 1, w - 1), y1 = std::min(y0 + 1, h - 1);
  const double fx = u - x0, fy = v - y0;
  MapPatch m{};
  for (int k = 0; k < 2; ++k) {
    const double m00 = map[(int64_t{y0} * w + x0) * 2 + k], m01 = map[(int64_t{y0} * w + x1) * 2 + k];
    const double m10 = map[(int64_t{y1} * w + x0) * 2 + k], m11 = map[(int64_t{y1} * w + x1) * 2 + k];
    const double top = m00 + (m01 - m00) * fx, bottom = m10 + (m11 - m10) * fx;
    const double value = top + (bottom - top) * fy;
    const double du = (m01 - m00) * (1 - fy) + (m11 - m10) * fy;
    const double dv = (m10 - m00) * (1 - fx) + (m11 - m01) * fx;
    if (k == 0) {
      m.x = value, m.dxdu = du, m.dxdv = dv;
    } else {
      m.y = value, m.dydu = du, m.dydv = dv;
    }
  }
  return m;
}

}  // namespace

void RemapCpu(const uint8_t* image, const RemapParams& p, const float* map, uint8_t* out) {
  const int64_t pixels = int64_t{p.out_h} * p.out_w;
  for (int64_t i = 0; i < pixels; ++i) RemapPixel(image, p, map[2 * i], map[2 * i + 1], out + i * p.channels);
}

bool RemapBoxCpu(const float* map, int h, int w, int in_h, int in_w, const float* box, float* out) {
  // Input pixel k is covered when its centre k + 0.5 is in [lo, hi): k in [ceil(lo - 0.5), ceil(hi - 0.5) - 1].
  const auto first = [](float lo, int n) {
    return static_cast<int>(std::max(0.f, std::min(static_cast<float>(n), std::ceil(lo - 0.5f))));
  };
  const auto last = [](float hi, int n) {
    return static_cast<int>(std::max(-1.f, std::min(static_cast<float>(n - 1), std::ceil(hi - 0.5f) - 1.f)));
  };
  if (!(box[0] == box[0] && box[1] == box[1] && box[2] == box[2] && box[3] == box[3])) return false;  // NaN
  const int kx0 = first(box[0], in_w), kx1 = last(box[2], in_w);
  const int ky0 = first(box[1], in_h), ky1 = last(box[3], in_h);
  if (kx0 > kx1 || ky0 > ky1) return false;
  int min_x = w, min_y = h, max_x = -1, max_y = -1;
  for (int y = 0; y < h; ++y) {
    const float* row = map + int64_t{y} * w * 2;
    for (int x = 0; x < w; ++x) {
      const int sx = NearestIndex(row[2 * x]), sy = NearestIndex(row[2 * x + 1]);
      if (sx < kx0 || sx > kx1 || sy < ky0 || sy > ky1) continue;
      min_x = std::min(min_x, x), max_x = std::max(max_x, x);
      min_y = std::min(min_y, y), max_y = std::max(max_y, y);
    }
  }
  if (max_x < 0) return false;
  out[0] = static_cast<float>(min_x), out[1] = static_cast<float>(min_y);
  out[2] = static_cast<float>(max_x + 1), out[3] = static_cast<float>(max_y + 1);
  return true;
}

bool RemapPointCpu(const float* map, int h, int w, const float* point, float reach, float* out) {
  // Map values are index coordinates (pixel k's centre at k); points are continuous.
  const double sx = double{point[0]} - 0.5, sy = double{point[1]} - 0.5;
  if (!(std::isfinite(sx) && std::isfinite(sy)) || h <= 0 || w <= 0) return false;
  double best = INFINITY;
  int bx = 0, by = 0;
  for (int y = 0; y < h; ++y) {
    const float* row = map + int64_t{y} * w * 2;
    for (int x = 0; x < w; ++x) {
      const double dx = row[2 * x] - sx, dy = row[2 * x + 1] - sy, d = dx * dx + dy * dy;
      if (d < best) best = d, bx = x, by = y;
    }
  }
  if (!(best <= double{reach} * reach)) return false;
  // Newton steps on the bilinear map from the nearest pixel, each kept inside the image; the
  // position with the smallest residual wins (a step across a fold can make it worse).
  double u = bx, v = by, best_u = u, best_v = v, best_r = INFINITY;
  for (int step = 0; step < 8; ++step) {
    const MapPatch m = InterpolateMap(map, h, w, u, v);
    const double rx = sx - m.x, ry = sy - m.y, r = rx * rx + ry * ry;
    if (r < best_r) best_r = r, best_u = u, best_v = v;
    const double det = m.dxdu * m.dydv - m.dxdv * m.dydu;
    if (r < 1e-12 || w < 2 || h < 2 || !(std::fabs(det) > 1e-12)) break;
    const double du = (rx * m.dydv - ry * m.dxdv) / det, dv = (ry * m.dxdu - rx * m.dydu) / det;
    u = std::min(std::max(u + du, 0.0), double(w - 1));
    v = std::min(std::max(v + dv, 0.0), double(h - 1));
    if (!(std::isfinite(u) && std::isfinite(v))) break;
  }
  if (!(best_r <= double{reach} * reach)) return false;
  u = best_u, v = best_v;
  out[0] = static_cast<float>(u + 0.5), out[1] = static_cast<float>(v + 0.5);
  return true;
}

}  // namespace tfgpuaug
