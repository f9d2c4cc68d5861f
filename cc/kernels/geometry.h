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

enum class Interpolation : int { kNearest = 0, kBilinear = 1 };

struct AffineParams {
  int in_h, in_w, channels, out_h, out_w;
  Interpolation interpolation;
  float fill;
};

// Channel k of output pixel (y, x) for the row-major 2x3 matrix m.
TFGA_HD uint8_t AffineSample(const uint8_t* image, const AffineParams& p, const float* m, int y,
                             int x, int k) {
  const float xo = x + 0.5f, yo = y + 0.5f;
  float xin = m[0] * xo + m[1] * yo + m[2];
  float yin = m[3] * xo + m[4] * yo + m[5];
  const uint8_t fill = SaturateToUint8(p.fill);
  if (!(xin >= 0.f && xin < p.in_w && yin >= 0.f && yin < p.in_h)) return fill;
  if (p.interpolation == Interpolation::kNearest) {
    const int xi = static_cast<int>(floorf(xin)), yi = static_cast<int>(floorf(yin));
    return image[(size_t(yi) * p.in_w + xi) * p.channels + k];
  }
  xin -= 0.5f;
  yin -= 0.5f;
  const int x0 = static_cast<int>(floorf(xin)), y0 = static_cast<int>(floorf(yin));
  const float dx = xin - x0, dy = yin - y0;
  const int xa = x0 < 0 ? 0 : x0, xb = x0 + 1 >= p.in_w ? p.in_w - 1 : x0 + 1;
  const int ya = y0 < 0 ? 0 : y0, yb = y0 + 1 >= p.in_h ? p.in_h - 1 : y0 + 1;
  const auto at = [&](int yy, int xx) {
    return static_cast<float>(image[(size_t(yy) * p.in_w + xx) * p.channels + k]);
  };
  const float top = at(ya, xa) + (at(ya, xb) - at(ya, xa)) * dx;
  const float bottom = at(yb, xa) + (at(yb, xb) - at(yb, xa)) * dx;
  return SaturateToUint8(top + (bottom - top) * dy);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_GEOMETRY_H_
