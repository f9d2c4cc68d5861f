#include "cc/kernels/warp/warp_cpu.h"

#include <cstring>

#include "cc/kernels/common/simd_x86.h"
#include "cc/kernels/warp/warp_avx2.h"

namespace tfgpuaug {

void FlipCpu(const uint8_t* image, int h, int w, int c, size_t element_bytes, bool horizontal, bool vertical,
             uint8_t* out) {
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

// One bilinear output pixel from source rows a and b at byte columns xa and xb: the
// general loop's Lerp and RoundBlend, computed for all channels at once where SSE2 is
// there (each lane runs the scalar operations in the same order, so results are
// identical). A 4-byte load of an RGB pixel reads one byte past it, so the vector path
// only runs when the furthest load stays at or before `load_limit`. With kVertical =
// false, dy is 0 and row b is not read.
template <int C, bool kVertical>
inline void BilinearPixel(const uint8_t* a, const uint8_t* b, int xa, int xb, float dx, float dy,
                          const uint8_t* load_limit, int c, uint8_t* o) {
#if TFGPUAUG_HAVE_SSE2
  if ((C == 3 || C == 4) && load_limit != nullptr && (kVertical ? b : a) + xb <= load_limit) {
    const __m128 vdx = _mm_set1_ps(dx);
    __m128 v = Lerp4(LoadPixel4(a + xa), LoadPixel4(a + xb), vdx);
    if (kVertical) v = Lerp4(v, Lerp4(LoadPixel4(b + xa), LoadPixel4(b + xb), vdx), _mm_set1_ps(dy));
    StoreTruncated(_mm_add_ps(v, _mm_set1_ps(0.5f)), C, o);
    return;
  }
#endif
  if (kVertical) return BilinearChannels<C>(a, b, xa, xb, dx, dy, c, o);
  for (int k = 0; k < c; ++k) o[k] = RoundSample(Lerp(a[xa + k], a[xb + k], dx));
}

// The last address a 4-byte pixel load may start at; null (no vector loads) for images
// of fewer than 4 bytes.
inline const uint8_t* LoadLimit(const uint8_t* image, const AffineParams& p) {
  const size_t bytes = size_t(p.in_h) * p.in_w * p.channels;
  return bytes >= 4 ? image + bytes - 4 : nullptr;
}

template <int C, Interpolation I>
void WarpAffineLoop(const uint8_t* image, const AffineParams& params, const float* matrix, uint8_t* out) {
  // Local copies: uint8_t stores may alias anything, so reading the parameters through
  // pointers would reload them after every output byte.
  const AffineParams p = params;
  const float m[6] = {matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5]};
  const int c = C > 0 ? C : p.channels;
  const uint8_t fill = SaturateToUint8(p.fill);
  const uint8_t* limit = LoadLimit(image, p);
  for (int y = 0; y < p.out_h; ++y) {
    for (int x = 0; x < p.out_w; ++x, out += c) {
      const AffineTap t = AffineLocate<I>(p, m, c, y, x);
      if (I == Interpolation::kBilinear && t.inside) {
        BilinearPixel<C, true>(image + t.row_a, image + t.row_b, t.col_a, t.col_b, t.dx, t.dy, limit, c, out);
      } else {
        AffineBlend<C, I>(image, p, t, fill, out);
      }
    }
  }
}

// Bilinear source rows of output row y when the matrix keeps rows (m[3] == 0): yin does
// not depend on x. Returns false when the whole row is outside (fill).
struct SourceRows {
  const uint8_t* a;
  const uint8_t* b;
  float dy;
};

inline bool SourceRowsOf(const uint8_t* image, const AffineParams& p, float yin, int c, SourceRows* r) {
  if (!(yin >= 0.f && yin < static_cast<float>(p.in_h))) return false;
  yin -= 0.5f;
  const int y0 = FloorToInt(yin);
  r->a = image + size_t(LowNeighbour(y0)) * p.in_w * c;
  r->b = image + size_t(HighNeighbour(y0, p.in_h)) * p.in_w * c;
  r->dy = yin - y0;
  return true;
}

// One output row from two source rows: per pixel the same x coordinate, fractions and
// rounding as the general loop; kVertical = false when dy is 0 (bottom row unused).
template <int C, bool kVertical>
void BlendRow(const SourceRows& r, const AffineParams& p, const float* m, float yo, uint8_t fill,
              const uint8_t* limit, uint8_t* out) {
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
    BilinearPixel<C, kVertical>(r.a, r.b, LowNeighbour(x0) * c, HighNeighbour(x0, p.in_w) * c, dx, r.dy,
                                limit, c, out);
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
  const uint8_t* limit = LoadLimit(image, p);
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
      BlendRow<C, false>(r, p, m, yo, fill, limit, out);
    } else {
      BlendRow<C, true>(r, p, m, yo, fill, limit, out);
    }
  }
}

// Matrices that keep columns, xin == x + 0.5 (shear_y): dx is 0, so each output pixel
// blends two pixels of its own column.
template <int C>
void WarpColumnsBilinear(const uint8_t* image, const AffineParams& p, const float* m, uint8_t fill,
                         uint8_t* out) {
  const int c = C > 0 ? C : p.channels;
  const int inside_w = p.out_w < p.in_w ? p.out_w : p.in_w;
  const uint8_t* limit = LoadLimit(image, p);
  for (int y = 0; y < p.out_h; ++y) {
    const float yo = y + 0.5f;
    for (int x = 0; x < p.out_w; ++x, out += c) {
      SourceRows r;
      if (x >= inside_w || !SourceRowsOf(image, p, AffineCoordinate(m[3], m[4], m[5], x + 0.5f, yo), c, &r)) {
        for (int k = 0; k < c; ++k) out[k] = fill;
        continue;
      }
      // dx is 0: Lerp(v, v, 0.f) == v, so this is RoundBlend(a[xa + k], b[xa + k], dy).
      BilinearPixel<C, true>(r.a, r.b, x * c, x * c, 0.f, r.dy, limit, c, out);
    }
  }
}

template <int C>
void WarpBilinear(const uint8_t* image, const AffineParams& p, const float* matrix, uint8_t* out) {
  const float m[6] = {matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5]};
  const uint8_t fill = SaturateToUint8(p.fill);
  // Vertical shifts are one flat blend of two rows; everything else is fastest as eight
  // pixels per AVX2 step where the CPU has it (2.7x the per-pixel loop on rotations,
  // 1.6-2x the row and column loops below).
  const bool vertical_shift = m[3] == 0.f && m[0] == 1.f && m[1] == 0.f && m[2] == 0.f;
  if (!vertical_shift && WarpAffineBilinearAvx2(image, p, m, out)) return;
  if (m[3] == 0.f) return WarpRowsBilinear<C>(image, p, m, fill, out);
  if (m[0] == 1.f && m[1] == 0.f && m[2] == 0.f) return WarpColumnsBilinear<C>(image, p, m, fill, out);
  WarpAffineLoop<C, Interpolation::kBilinear>(image, p, m, out);
}

template <Interpolation I>
void WarpAffineChannels(const uint8_t* image, const AffineParams& p, const float* matrix, uint8_t* out) {
  switch (p.channels) {
    case 1:
      return WarpAffineLoop<1, I>(image, p, matrix, out);
    case 3:
      return WarpAffineLoop<3, I>(image, p, matrix, out);
    case 4:
      return WarpAffineLoop<4, I>(image, p, matrix, out);
    default:
      return WarpAffineLoop<0, I>(image, p, matrix, out);
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
    case 1:
      return WarpBilinear<1>(image, p, matrix, out);
    case 3:
      return WarpBilinear<3>(image, p, matrix, out);
    case 4:
      return WarpBilinear<4>(image, p, matrix, out);
    default:
      return WarpBilinear<0>(image, p, matrix, out);
  }
}

void WarpAffineGeneralCpu(const uint8_t* image, const AffineParams& p, const float* matrix, uint8_t* out) {
  // Exactly the CUDA kernel's per-pixel function, without any CPU specialisation.
  for (int y = 0; y < p.out_h; ++y)
    for (int x = 0; x < p.out_w; ++x, out += p.channels) AffineSamplePixel(image, p, matrix, y, x, out);
}

}  // namespace tfgpuaug
