#include "cc/kernels/warp/remap_cpu.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "cc/kernels/warp/remap_avx2.h"

namespace tfgpuaug {
namespace {

// The input pixel index nearest to map value v, or a value outside every image.
int NearestIndex(float v) { return RemapCoordinateUsable(v) ? static_cast<int>(rintf(v)) : -(1 << 30); }

// The bilinear interpolation of the map in the cell whose top-left pixel is (x0, y0), at
// fractions (fx, fy) of it, and its derivatives along them.
struct MapPatch {
  double x, y, dxdu, dydu, dxdv, dydv;
};

MapPatch InterpolateCell(const float* map, int w, int x0, int y0, double fx, double fy) {
  MapPatch m{};
  for (int k = 0; k < 2; ++k) {
    const double m00 = map[(int64_t{y0} * w + x0) * 2 + k], m01 = map[(int64_t{y0} * w + x0 + 1) * 2 + k];
    const double m10 = map[(int64_t{y0 + 1} * w + x0) * 2 + k],
                 m11 = map[(int64_t{y0 + 1} * w + x0 + 1) * 2 + k];
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

namespace {

// Bilinear remap of `count` pixels with C channels: pixels whose four neighbours are inside the
// image blend straight from two row pointers (RemapPixel's arithmetic, without its border
// lookups); the rest go through RemapPixel.
template <int C>
void RemapBilinearSpan(const uint8_t* image, const RemapParams& p, const float* map, int64_t count,
                       uint8_t* out) {
  const float right = static_cast<float>(p.in_w - 1), bottom = static_cast<float>(p.in_h - 1);
  const int64_t stride = int64_t{p.in_w} * C;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  // eight pixels a step where the CPU has AVX2: interior ones by gathers (32-bit offsets, rows
  // of at least four bytes, so no gather runs past the image), the others tap by tap
  const bool vector = CpuHasAvx2() && p.in_h >= 3 && stride >= 4 && stride * p.in_h < (int64_t{1} << 31) - 64;
#endif
  for (int64_t i = 0; i < count; ++i) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (vector && (i & 7) == 0 && i + 8 <= count &&
        (RemapBilinear8Avx2(image, p.in_h, p.in_w, C, map + 2 * i, out + i * C) ||
         RemapBilinearBorder8Avx2(image, p, map + 2 * i, out + i * C))) {
      i += 7;
      continue;
    }
#endif
    const float mx = map[2 * i], my = map[2 * i + 1];
    uint8_t* o = out + i * C;
    if (!(mx >= 0.f && mx < right && my >= 0.f && my < bottom)) {
      RemapPixel(image, p, mx, my, o);
      continue;
    }
    const int x0 = static_cast<int>(mx), y0 = static_cast<int>(my);  // floor: both are >= 0
    const float a = mx - static_cast<float>(x0), b = my - static_cast<float>(y0);
    const uint8_t* top = image + y0 * stride + int64_t{x0} * C;
    const uint8_t* low = top + stride;
    for (int k = 0; k < C; ++k) {
      const float t = Lerp(top[k], top[C + k], a), l = Lerp(low[k], low[C + k], a);
      o[k] = RoundHalfEvenToUint8(Lerp(t, l, b));
    }
  }
}

// `count` output pixels whose map entries are `map` (x, y pairs).
void RemapSpan(const uint8_t* image, const RemapParams& p, const float* map, int64_t count, uint8_t* out) {
  if (p.interpolation == Interpolation::kBilinear && p.channels == 3)
    return RemapBilinearSpan<3>(image, p, map, count, out);
  if (p.interpolation == Interpolation::kBilinear && p.channels == 1)
    return RemapBilinearSpan<1>(image, p, map, count, out);
  if (p.interpolation == Interpolation::kBilinear && p.channels == 4)
    return RemapBilinearSpan<4>(image, p, map, count, out);
  for (int64_t i = 0; i < count; ++i) RemapPixel(image, p, map[2 * i], map[2 * i + 1], out + i * p.channels);
}

}  // namespace

void RemapCpu(const uint8_t* image, const RemapParams& p, const float* map, uint8_t* out) {
  RemapSpan(image, p, map, int64_t{p.out_h} * p.out_w, out);
}

void RemapAffineCpu(const uint8_t* image, const RemapParams& p, const float* matrix, uint8_t* out) {
  // a multiple of the vector loop's eight pixels, small enough to stay in L1 with its output
  constexpr int kChunk = 64;
  float map[2 * kChunk];
  for (int y = 0; y < p.out_h; ++y) {
    for (int x0 = 0; x0 < p.out_w; x0 += kChunk) {
      const int n = std::min(kChunk, p.out_w - x0);
      for (int k = 0; k < n; ++k) AffineMapEntry(matrix, x0 + k, y, &map[2 * k], &map[2 * k + 1]);
      RemapSpan(image, p, map, n, out + (int64_t{y} * p.out_w + x0) * p.channels);
    }
  }
}

namespace {

// n map entries of one row from its columns' parts: double arithmetic a lane, so the AVX2
// clone's four lanes give the scalar entries bit for bit (contraction is off).
TFGPUAUG_VECTOR_CLONES void RadialMapSpan(const float* k, const RadialAxis* columns, RadialAxis row, int w,
                                          int h, int n, float* map) {
  for (int i = 0; i < n; ++i) RadialMapFromAxes(k, columns[i], row, w, h, &map[2 * i], &map[2 * i + 1]);
}

}  // namespace

void RemapRadialCpu(const uint8_t* image, const RemapParams& p, const float* k, uint8_t* out) {
  constexpr int kChunk = 64;  // as RemapAffineCpu
  float map[2 * kChunk];
  std::vector<RadialAxis> columns(p.out_w);  // each column's part once an image: no division a pixel
  for (int x = 0; x < p.out_w; ++x) columns[x] = RadialAxisOf(x, p.in_w);
  for (int y = 0; y < p.out_h; ++y) {
    const RadialAxis row = RadialAxisOf(y, p.in_h);
    for (int x0 = 0; x0 < p.out_w; x0 += kChunk) {
      const int n = std::min(kChunk, p.out_w - x0);
      RadialMapSpan(k, columns.data() + x0, row, p.in_w, p.in_h, n, map);
      RemapSpan(image, p, map, n, out + (int64_t{y} * p.out_w + x0) * p.channels);
    }
  }
}

namespace {

// Channel ch of an interleaved image of c channels (C when fixed, so the compiler unrolls the
// stride) into a plane, and a plane into it.
template <int C>
TFGPUAUG_VECTOR_CLONES void TakeChannel(const uint8_t* image, int c, int ch, int64_t pixels, uint8_t* plane) {
  const int64_t n = C > 0 ? C : c;
  for (int64_t i = 0; i < pixels; ++i) plane[i] = image[i * n + ch];
}
template <int C>
TFGPUAUG_VECTOR_CLONES void PutChannel(const uint8_t* plane, int c, int ch, int64_t pixels, uint8_t* image) {
  const int64_t n = C > 0 ? C : c;
  int64_t i = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (C == 3 && CpuHasAvx2()) i = PutRgbChannelAvx2(plane, ch, pixels, image);
#endif
  for (; i < pixels; ++i) image[i * n + ch] = plane[i];
}

template <int C>
void RemapRadialChannels(const uint8_t* image, const RemapParams& p, const float* k, uint8_t* planes,
                         uint8_t* out) {
  const int c = p.channels;
  const int64_t pixels = int64_t{p.in_h} * p.in_w;
  // every channel as it is first: those of k = (0, 0) (the identity map: every weight 0) stay so
  std::memcpy(out, image, size_t(pixels) * c);
  RemapParams plane = p;
  plane.channels = 1;
  uint8_t *in_plane = planes, *out_plane = planes + pixels;
  for (int ch = 0; ch < c; ++ch) {
    const float* kc = k + 2 * ch;
    if (kc[0] == 0.f && kc[1] == 0.f) continue;
    TakeChannel<C>(image, c, ch, pixels, in_plane);
    RemapRadialCpu(in_plane, plane, kc, out_plane);
    PutChannel<C>(out_plane, c, ch, pixels, out);
  }
}

}  // namespace

void RemapRadialChannelsCpu(const uint8_t* image, const RemapParams& p, const float* k, uint8_t* planes,
                            uint8_t* out) {
  if (p.channels == 3) return RemapRadialChannels<3>(image, p, k, planes, out);
  if (p.channels == 4) return RemapRadialChannels<4>(image, p, k, planes, out);
  RemapRadialChannels<0>(image, p, k, planes, out);
}

namespace {

// One output row of the separable resampling: the two source rows blended once per input byte
// (nullptr rows read the fill; a loop the compiler vectorizes), then each output pixel's two
// columns of that blend (SeparablePixel's arithmetic, bit for bit; a column outside reads the
// fill, which the row blend leaves unchanged).
template <int C>
void SeparableRow(const uint8_t* row0, const uint8_t* row1, float row_weight, int in_w, SeparableTaps cols,
                  int out_w, float fill, float* blend, uint8_t* out) {
  const int n = in_w * C;
  if (row0 && row1) {
    for (int j = 0; j < n; ++j) blend[j] = Lerp(row0[j], row1[j], row_weight);
  } else {
    for (int j = 0; j < n; ++j) blend[j] = Lerp(row0 ? row0[j] : fill, row1 ? row1[j] : fill, row_weight);
  }
  for (int x = 0; x < out_w; ++x) {
    const int32_t c0 = cols.index[2 * x], c1 = cols.index[2 * x + 1];
    const float* l = c0 >= 0 && c0 < in_w ? blend + int64_t{c0} * C : nullptr;
    const float* r = c1 >= 0 && c1 < in_w ? blend + int64_t{c1} * C : nullptr;
    const float a = cols.weight[x];
    for (int k = 0; k < C; ++k) {
      out[x * C + k] = RoundHalfEvenToUint8(Lerp(l ? l[k] : fill, r ? r[k] : fill, a));
    }
  }
}

}  // namespace

void SeparableResampleCpu(const uint8_t* image, int in_h, int in_w, int c, SeparableTaps rows, int out_h,
                          SeparableTaps cols, int out_w, uint8_t fill, uint8_t* out) {
  // one row's blend on the stack (no allocation inside the op's shards: nothing to throw);
  // rows wider than it, and channel counts without a specialised loop, go pixel by pixel
  constexpr int64_t kBlendFloats = 8192;
  if ((c != 1 && c != 3 && c != 4) || int64_t{in_w} * c > kBlendFloats) {
    for (int y = 0; y < out_h; ++y) {
      for (int x = 0; x < out_w; ++x) {
        SeparablePixel(image, in_h, in_w, c, rows.index + 2 * y, rows.weight[y], cols.index + 2 * x,
                       cols.weight[x], fill, out + (int64_t{y} * out_w + x) * c);
      }
    }
    return;
  }
  float blend[kBlendFloats];
  const int64_t stride = int64_t{in_w} * c;
  for (int y = 0; y < out_h; ++y) {
    const int32_t r0 = rows.index[2 * y], r1 = rows.index[2 * y + 1];
    const uint8_t* row0 = r0 >= 0 && r0 < in_h ? image + r0 * stride : nullptr;
    const uint8_t* row1 = r1 >= 0 && r1 < in_h ? image + r1 * stride : nullptr;
    uint8_t* o = out + int64_t{y} * out_w * c;
    const float f = fill, w = rows.weight[y];
    if (c == 3) {
      SeparableRow<3>(row0, row1, w, in_w, cols, out_w, f, blend, o);
    } else if (c == 1) {
      SeparableRow<1>(row0, row1, w, in_w, cols, out_w, f, blend, o);
    } else {
      SeparableRow<4>(row0, row1, w, in_w, cols, out_w, f, blend, o);
    }
  }
}

bool RemapBoxCpu(const float* map, int h, int w, int in_h, int in_w, const float* box, float* out) {
  // Input pixel k is covered when its centre k + 0.5 is in [lo, hi): k in [ceil(lo - 0.5), ceil(hi - 0.5) -
  // 1].
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
  // Newton steps inside each cell of the 4x4 around the nearest pixel (the cells its
  // neighbours span; where the map is flat, as at GridDistortion's seams, the cell that holds
  // the point may not touch the nearest pixel), from the cell's middle, kept inside the cell;
  // the smallest residual wins.
  double best_u = bx, best_v = by, best_r = best;
  for (int y0 = std::max(by - 2, 0); y0 <= std::min(by + 1, h - 2) && best_r > 1e-12; ++y0) {
    for (int x0 = std::max(bx - 2, 0); x0 <= std::min(bx + 1, w - 2) && best_r > 1e-12; ++x0) {
      double fx = 0.5, fy = 0.5;
      for (int step = 0; step < 8; ++step) {
        const MapPatch m = InterpolateCell(map, w, x0, y0, fx, fy);
        const double rx = sx - m.x, ry = sy - m.y, r = rx * rx + ry * ry;
        if (r < best_r) best_r = r, best_u = x0 + fx, best_v = y0 + fy;
        const double det = m.dxdu * m.dydv - m.dxdv * m.dydu;
        if (r < 1e-12 || !(std::fabs(det) > 1e-12)) break;
        fx = std::min(std::max(fx + (rx * m.dydv - ry * m.dxdv) / det, 0.0), 1.0);
        fy = std::min(std::max(fy + (ry * m.dxdu - rx * m.dydu) / det, 0.0), 1.0);
        if (!(std::isfinite(fx) && std::isfinite(fy))) break;
      }
    }
  }
  if (!(best_r <= double{reach} * reach)) return false;
  const double u = best_u, v = best_v;
  out[0] = static_cast<float>(u + 0.5), out[1] = static_cast<float>(v + 0.5);
  return true;
}

}  // namespace tfgpuaug
