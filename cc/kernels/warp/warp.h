// Flip and affine warp: per-pixel source mapping shared by the CPU drivers and the CUDA
// kernels. Affine follows PIL's Image.transform(AFFINE): the matrix maps output pixel
// centres (x + 0.5, y + 0.5) to input coordinates; samples outside the image take the fill.
#ifndef TFGPUAUG_CC_KERNELS_WARP_WARP_H_
#define TFGPUAUG_CC_KERNELS_WARP_WARP_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/common/host_device.h"
#include "cc/kernels/resample/resample.h"

namespace tfgpuaug {

TFGPUAUG_HD int FlipSource(int i, int size, bool flip) { return flip ? size - 1 - i : i; }

// floor() as an int without a libm call (baseline x86-64 has no rounding instruction).
TFGPUAUG_HD int FloorToInt(float v) {
  const int i = static_cast<int>(v);
  return v < static_cast<float>(i) ? i - 1 : i;
}

enum class Interpolation : int { kNearest = 0, kBilinear = 1 };

struct AffineParams {
  int in_h, in_w, channels, out_h, out_w;
  Interpolation interpolation;
  float fill;
};

// Where output pixel (y, x) samples the input: byte offsets of its rows and columns and
// the bilinear fractions (nearest uses row_a + col_a only). Outside pixels take the fill.
struct AffineTap {
  int inside;
  int row_a, row_b, col_a, col_b;
  float dx, dy;
};

// One input coordinate of output pixel centre (xo, yo) from one row of the matrix. The
// CPU's specialised loops call this too, so every path rounds identically.
TFGPUAUG_HD float AffineCoordinate(float a, float b, float c, float xo, float yo) {
  return a * xo + b * yo + c;
}

// Linear interpolation between two samples, and the rounding of the bilinear blend.
TFGPUAUG_HD float Lerp(float a, float b, float t) { return a + (b - a) * t; }
// A convex combination of uint8 values needs no clamping before rounding.
TFGPUAUG_HD uint8_t RoundBlend(float top, float bottom, float dy) {
  return static_cast<uint8_t>(Lerp(top, bottom, dy) + 0.5f);
}
// RoundBlend(top, bottom, 0.f), exactly: (bottom - top) * 0 adds a zero.
TFGPUAUG_HD uint8_t RoundSample(float top) { return static_cast<uint8_t>(top + 0.5f); }

// The two neighbours of floor coordinate i0 along an axis of `size` pixels, clamped to
// the edge (i0 is in [-1, size - 1] for inside samples).
TFGPUAUG_HD int LowNeighbour(int i0) { return i0 < 0 ? 0 : i0; }
TFGPUAUG_HD int HighNeighbour(int i0, int size) { return i0 + 1 >= size ? size - 1 : i0 + 1; }

// All channels of one bilinear sample: rows a and b, byte columns xa and xb.
template <int C>
TFGPUAUG_HD void BilinearChannels(const uint8_t* a, const uint8_t* b, int xa, int xb, float dx, float dy,
                                  int c, uint8_t* out) {
  for (int k = 0; k < (C > 0 ? C : c); ++k) {
    const float top = Lerp(a[xa + k], a[xb + k], dx);
    out[k] = RoundBlend(top, Lerp(b[xa + k], b[xb + k], dx), dy);
  }
}

// The matrix m maps output pixel centres to input coordinates; taps are only computed
// for inside pixels.
template <Interpolation I>
TFGPUAUG_HD AffineTap AffineLocate(const AffineParams& p, const float* m, int c, int y, int x) {
  const float xo = x + 0.5f, yo = y + 0.5f;
  float xin = AffineCoordinate(m[0], m[1], m[2], xo, yo);
  float yin = AffineCoordinate(m[3], m[4], m[5], xo, yo);
  const float w = static_cast<float>(p.in_w), h = static_cast<float>(p.in_h);
  AffineTap t{};
  t.inside = xin >= 0.f && xin < w && yin >= 0.f && yin < h;
  if (!t.inside) return t;  // far-outside coordinates may not even fit an int
  if (I == Interpolation::kNearest) {
    t.row_a = t.row_b = FloorToInt(yin) * p.in_w * c;
    t.col_a = t.col_b = FloorToInt(xin) * c;
    t.dx = t.dy = 0.f;
    return t;
  }
  xin -= 0.5f;
  yin -= 0.5f;
  const int x0 = FloorToInt(xin), y0 = FloorToInt(yin);
  t.dx = xin - x0;
  t.dy = yin - y0;
  t.row_a = LowNeighbour(y0) * p.in_w * c;
  t.row_b = HighNeighbour(y0, p.in_h) * p.in_w * c;
  t.col_a = LowNeighbour(x0) * c;
  t.col_b = HighNeighbour(x0, p.in_w) * c;
  return t;
}

// All channels of one output pixel from its tap, into out[0..c). C > 0 fixes the channel
// count at compile time (CPU loops); C = 0 reads it from p.
template <int C, Interpolation I>
TFGPUAUG_HD void AffineBlend(const uint8_t* image, const AffineParams& p, const AffineTap& t, uint8_t fill,
                             uint8_t* out) {
  const int c = C > 0 ? C : p.channels;
  if (!t.inside) {
    for (int k = 0; k < c; ++k) out[k] = fill;
    return;
  }
  const uint8_t* a = image + t.row_a;
  if (I == Interpolation::kNearest) {
    for (int k = 0; k < c; ++k) out[k] = a[t.col_a + k];
    return;
  }
  BilinearChannels<C>(a, image + t.row_b, t.col_a, t.col_b, t.dx, t.dy, c, out);
}

// All channels of output pixel (y, x) for the row-major 2x3 matrix m, into out[0..c).
template <int C, Interpolation I>
TFGPUAUG_HD void AffineSamplePixelT(const uint8_t* image, const AffineParams& p, const float* m, int y, int x,
                                    uint8_t* out) {
  const int c = C > 0 ? C : p.channels;
  AffineBlend<C, I>(image, p, AffineLocate<I>(p, m, c, y, x), SaturateToUint8(p.fill), out);
}

TFGPUAUG_HD void AffineSamplePixel(const uint8_t* image, const AffineParams& p, const float* m, int y, int x,
                                   uint8_t* out) {
  if (p.interpolation == Interpolation::kNearest) {
    AffineSamplePixelT<0, Interpolation::kNearest>(image, p, m, y, x, out);
  } else {
    AffineSamplePixelT<0, Interpolation::kBilinear>(image, p, m, y, x, out);
  }
}

// Channel k of output pixel (y, x), for any channel count: only that channel is blended (the
// same arithmetic as BilinearChannels), so no per-pixel buffer can be too small for the image.
template <Interpolation I>
TFGPUAUG_HD uint8_t AffineSampleChannel(const uint8_t* image, const AffineParams& p, const float* m, int y,
                                        int x, int k) {
  const AffineTap t = AffineLocate<I>(p, m, p.channels, y, x);
  if (!t.inside) return SaturateToUint8(p.fill);
  const uint8_t* a = image + t.row_a;
  if (I == Interpolation::kNearest) return a[t.col_a + k];
  const uint8_t* b = image + t.row_b;
  const float top = Lerp(a[t.col_a + k], a[t.col_b + k], t.dx);
  return RoundBlend(top, Lerp(b[t.col_a + k], b[t.col_b + k], t.dx), t.dy);
}

TFGPUAUG_HD uint8_t AffineSample(const uint8_t* image, const AffineParams& p, const float* m, int y, int x,
                                 int k) {
  return p.interpolation == Interpolation::kNearest
             ? AffineSampleChannel<Interpolation::kNearest>(image, p, m, y, x, k)
             : AffineSampleChannel<Interpolation::kBilinear>(image, p, m, y, x, k);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_WARP_H_
