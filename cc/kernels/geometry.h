// Flip and affine warp: per-pixel source mapping shared by the CPU drivers and the CUDA
// kernels. Affine follows PIL's Image.transform(AFFINE): the matrix maps output pixel
// centres (x + 0.5, y + 0.5) to input coordinates; samples outside the image take the fill.
#ifndef TFGPUAUG_CC_KERNELS_GEOMETRY_H_
#define TFGPUAUG_CC_KERNELS_GEOMETRY_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/host_device.h"
#include "cc/kernels/resample.h"

namespace tfgpuaug {

TFGA_HD int FlipSource(int i, int size, bool flip) { return flip ? size - 1 - i : i; }

// floor() as an int without a libm call (baseline x86-64 has no rounding instruction).
TFGA_HD int FloorToInt(float v) {
  const int i = static_cast<int>(v);
  return v < static_cast<float>(i) ? i - 1 : i;
}

enum class Interpolation : int { kNearest = 0, kBilinear = 1 };

struct AffineParams {
  int in_h, in_w, channels, out_h, out_w;
  Interpolation interpolation;
  float fill;
};

// All channels of output pixel (y, x) for the row-major 2x3 matrix m, into out[0..c).
TFGA_HD void AffineSamplePixel(const uint8_t* image, const AffineParams& p, const float* m, int y,
                               int x, uint8_t* out) {
  const float xo = x + 0.5f, yo = y + 0.5f;
  float xin = m[0] * xo + m[1] * yo + m[2];
  float yin = m[3] * xo + m[4] * yo + m[5];
  if (!(xin >= 0.f && xin < p.in_w && yin >= 0.f && yin < p.in_h)) {
    const uint8_t fill = SaturateToUint8(p.fill);
    for (int k = 0; k < p.channels; ++k) out[k] = fill;
    return;
  }
  if (p.interpolation == Interpolation::kNearest) {
    const uint8_t* src = image + (size_t(FloorToInt(yin)) * p.in_w + FloorToInt(xin)) * p.channels;
    for (int k = 0; k < p.channels; ++k) out[k] = src[k];
    return;
  }
  xin -= 0.5f;
  yin -= 0.5f;
  const int x0 = FloorToInt(xin), y0 = FloorToInt(yin);
  const float dx = xin - x0, dy = yin - y0;
  const int xa = x0 < 0 ? 0 : x0, xb = x0 + 1 >= p.in_w ? p.in_w - 1 : x0 + 1;
  const int ya = y0 < 0 ? 0 : y0, yb = y0 + 1 >= p.in_h ? p.in_h - 1 : y0 + 1;
  const size_t row = size_t(p.in_w) * p.channels;
  const uint8_t* ra = image + ya * row;
  const uint8_t* rb = image + yb * row;
  const int ca = xa * p.channels, cb = xb * p.channels;
  const int c = p.channels;
  for (int k = 0; k < c; ++k) {
    const float a0 = ra[ca + k], a1 = ra[cb + k], b0 = rb[ca + k], b1 = rb[cb + k];
    const float top = a0 + (a1 - a0) * dx;
    const float bottom = b0 + (b1 - b0) * dx;
    // A convex combination of uint8 values needs no clamping before rounding.
    out[k] = static_cast<uint8_t>(top + (bottom - top) * dy + 0.5f);
  }
}

// Channel k of output pixel (y, x).
TFGA_HD uint8_t AffineSample(const uint8_t* image, const AffineParams& p, const float* m, int y,
                             int x, int k) {
  uint8_t px[4];
  AffineSamplePixel(image, p, m, y, x, px);
  return px[k];
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_GEOMETRY_H_
