#include "cc/kernels/geometry_cpu.h"

#include <cstring>

namespace tfgpuaug {

void CropMirrorNormalizeCpu(const uint8_t* image, const CmnParams& p, int y0, int x0, bool mirror,
                            const float* mean, const float* inv_std, void* out) {
  if (!p.nchw && p.type == OutputType::kFloat32 && p.channels == 3 && p.out_channels == 3) {
    // Common case as a straight loop: NHWC float32 RGB, one read and one write per element.
    float* o = static_cast<float*>(out);
    const float m0 = mean[0], m1 = mean[1], m2 = mean[2];
    const float s0 = inv_std[0], s1 = inv_std[1], s2 = inv_std[2];
    for (int y = 0; y < p.crop_h; ++y) {
      const uint8_t* row = image + (size_t(y0 + y) * p.in_w + x0) * 3;
      if (mirror) {
        for (int x = p.crop_w - 1; x >= 0; --x, o += 3) {
          o[0] = (row[3 * x] - m0) * s0;
          o[1] = (row[3 * x + 1] - m1) * s1;
          o[2] = (row[3 * x + 2] - m2) * s2;
        }
      } else {
        for (int x = 0; x < p.crop_w; ++x, o += 3) {
          o[0] = (row[3 * x] - m0) * s0;
          o[1] = (row[3 * x + 1] - m1) * s1;
          o[2] = (row[3 * x + 2] - m2) * s2;
        }
      }
    }
    return;
  }
  for (int y = 0; y < p.crop_h; ++y)
    for (int x = 0; x < p.crop_w; ++x)
      for (int k = 0; k < p.out_channels; ++k)
        CmnStore(out, CmnOutputIndex(p, y, x, k), p.type,
                 CmnValue(image, p, y0, x0, mirror, mean, inv_std, y, x, k));
}

void FlipCpu(const uint8_t* image, int h, int w, int c, size_t element_bytes, bool horizontal,
             bool vertical, uint8_t* out) {
  const size_t pixel = size_t(c) * element_bytes, row = pixel * w;
  for (int y = 0; y < h; ++y) {
    const uint8_t* src = image + size_t(FlipSource(y, h, vertical)) * row;
    uint8_t* dst = out + size_t(y) * row;
    if (!horizontal) {
      std::memcpy(dst, src, row);
      continue;
    }
    for (int x = 0; x < w; ++x) std::memcpy(dst + x * pixel, src + (w - 1 - x) * pixel, pixel);
  }
}

namespace {

template <int C, Interpolation I>
void WarpAffineLoop(const uint8_t* image, const AffineParams& params, const float* matrix,
                    uint8_t* out) {
  // Local copies: uint8_t stores may alias anything, so reading the parameters through
  // pointers would reload them after every output byte.
  const AffineParams p = params;
  const float m[6] = {matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5]};
  const int c = C > 0 ? C : p.channels;
  const uint8_t fill = SaturateToUint8(p.fill);
  for (int y = 0; y < p.out_h; ++y)
    for (int x = 0; x < p.out_w; ++x, out += c)
      AffineBlend<C, I>(image, p, AffineLocate<I>(p, m, c, y, x), fill, out);
}

// Bilinear source rows of output row y when the matrix keeps rows (m[3] == 0): yin does
// not depend on x. Returns false when the whole row is outside (fill).
struct SourceRows {
  const uint8_t* a;
  const uint8_t* b;
  float dy;
};

inline bool SourceRowsOf(const uint8_t* image, const AffineParams& p, float yin, int c,
                         SourceRows* r) {
  if (!(yin >= 0.f && yin < static_cast<float>(p.in_h))) return false;
  yin -= 0.5f;
  const int y0 = FloorToInt(yin);
  const int ya = y0 < 0 ? 0 : y0, yb = y0 + 1 >= p.in_h ? p.in_h - 1 : y0 + 1;
  r->a = image + size_t(ya) * p.in_w * c;
  r->b = image + size_t(yb) * p.in_w * c;
  r->dy = yin - y0;
  return true;
}

// One output row from two source rows: per pixel the same x coordinate, fractions and
// rounding as the general loop; kVertical = false when dy is 0 (bottom row unused).
template <int C, bool kVertical>
void BlendRow(const SourceRows& r, const AffineParams& p, const float* m, float yo, uint8_t fill,
              uint8_t* out) {
  const int c = C > 0 ? C : p.channels;
  const float w = static_cast<float>(p.in_w);
  for (int x = 0; x < p.out_w; ++x, out += c) {
    float xin = AffineCoordinate(m[0], m[1], m[2], x + 0.5f, yo);
    if (!(xin >= 0.f && xin < w)) {
      for (int k = 0; k < c; ++k) out[k] = fill;
      continue;
    }
    xin -= 0.5f;
    const int x0 = FloorToInt(xin);
    const float dx = xin - x0;
    const int xa = (x0 < 0 ? 0 : x0) * c, xb = (x0 + 1 >= p.in_w ? p.in_w - 1 : x0 + 1) * c;
    for (int k = 0; k < c; ++k) {
      const float top = Lerp(r.a[xa + k], r.a[xb + k], dx);
      out[k] = kVertical ? RoundBlend(top, Lerp(r.b[xa + k], r.b[xb + k], dx), r.dy)
                         : RoundSample(top);
    }
  }
}

// Matrices with m[3] == 0 (shear_x, translate_x, translate_y, horizontal scales): one pair
// of source rows per output row and, for a pure vertical shift, one flat blend of two rows.
// Every value is computed with the same inline functions as the general loop, in the same
// order, so the outputs are bit-identical to it (tests check this).
template <int C>
void WarpRowsBilinear(const uint8_t* image, const AffineParams& p, const float* m, uint8_t fill,
                      uint8_t* out) {
  const int c = C > 0 ? C : p.channels;
  const bool vertical_shift = m[0] == 1.f && m[1] == 0.f && m[2] == 0.f;
  for (int y = 0; y < p.out_h; ++y, out += size_t(p.out_w) * c) {
    const float yo = y + 0.5f;
    SourceRows r;
    if (!SourceRowsOf(image, p, AffineCoordinate(m[3], m[4], m[5], 0.5f, yo), c, &r)) {
      std::memset(out, fill, size_t(p.out_w) * c);
      continue;
    }
    if (vertical_shift) {  // xin == x + 0.5 exactly: dx is 0 and column x is read
      const int inside = p.out_w < p.in_w ? p.out_w : p.in_w;
      const size_t n = size_t(inside) * c;
      const float dy = r.dy;
      for (size_t i = 0; i < n; ++i) out[i] = RoundBlend(r.a[i], r.b[i], dy);
      std::memset(out + n, fill, size_t(p.out_w - inside) * c);
      continue;
    }
    if (r.dy == 0.f) {  // source rows fall on pixel centres (shear_x, translate_x)
      BlendRow<C, false>(r, p, m, yo, fill, out);
    } else {
      BlendRow<C, true>(r, p, m, yo, fill, out);
    }
  }
}

// Matrices that keep columns, xin == x + 0.5 (shear_y): dx is 0, so each output pixel
// blends two pixels of its own column.
template <int C>
void WarpColumnsBilinear(const uint8_t* image, const AffineParams& p, const float* m,
                         uint8_t fill, uint8_t* out) {
  const int c = C > 0 ? C : p.channels;
  const int inside_w = p.out_w < p.in_w ? p.out_w : p.in_w;
  for (int y = 0; y < p.out_h; ++y) {
    const float yo = y + 0.5f;
    for (int x = 0; x < p.out_w; ++x, out += c) {
      SourceRows r;
      if (x >= inside_w ||
          !SourceRowsOf(image, p, AffineCoordinate(m[3], m[4], m[5], x + 0.5f, yo), c, &r)) {
        for (int k = 0; k < c; ++k) out[k] = fill;
        continue;
      }
      const int xa = x * c;
      for (int k = 0; k < c; ++k) out[k] = RoundBlend(r.a[xa + k], r.b[xa + k], r.dy);
    }
  }
}

template <int C>
void WarpBilinear(const uint8_t* image, const AffineParams& p, const float* matrix, uint8_t* out) {
  const float m[6] = {matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5]};
  const uint8_t fill = SaturateToUint8(p.fill);
  if (m[3] == 0.f) return WarpRowsBilinear<C>(image, p, m, fill, out);
  if (m[0] == 1.f && m[1] == 0.f && m[2] == 0.f) return WarpColumnsBilinear<C>(image, p, m, fill, out);
  WarpAffineLoop<C, Interpolation::kBilinear>(image, p, m, out);
}

template <Interpolation I>
void WarpAffineChannels(const uint8_t* image, const AffineParams& p, const float* matrix,
                        uint8_t* out) {
  switch (p.channels) {
    case 1: return WarpAffineLoop<1, I>(image, p, matrix, out);
    case 3: return WarpAffineLoop<3, I>(image, p, matrix, out);
    case 4: return WarpAffineLoop<4, I>(image, p, matrix, out);
    default: return WarpAffineLoop<0, I>(image, p, matrix, out);
  }
}

}  // namespace

void WarpAffineCpu(const uint8_t* image, const AffineParams& p, const float* matrix, uint8_t* out) {
  // Specialised per channel count and interpolation so the per-pixel code unrolls.
  if (p.interpolation == Interpolation::kNearest) {
    WarpAffineChannels<Interpolation::kNearest>(image, p, matrix, out);
    return;
  }
  switch (p.channels) {
    case 1: return WarpBilinear<1>(image, p, matrix, out);
    case 3: return WarpBilinear<3>(image, p, matrix, out);
    case 4: return WarpBilinear<4>(image, p, matrix, out);
    default: return WarpBilinear<0>(image, p, matrix, out);
  }
}

void WarpAffineGeneralCpu(const uint8_t* image, const AffineParams& p, const float* matrix,
                          uint8_t* out) {
  if (p.interpolation == Interpolation::kNearest) {
    WarpAffineChannels<Interpolation::kNearest>(image, p, matrix, out);
  } else {
    WarpAffineChannels<Interpolation::kBilinear>(image, p, matrix, out);
  }
}

}  // namespace tfgpuaug
