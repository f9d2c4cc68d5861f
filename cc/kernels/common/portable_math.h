// exp, log and cos from IEEE +, -, *, / (and sqrt for Box-Muller) only, so that the CPU
// (scalar and AVX2) and CUDA compute the same bits: libm's expf/logf/cosf and CUDA's may
// differ in the last bit. Each is accurate to a few float ulps, far below the uint8
// quantisation of the stages that use them (Gaussian blur weights, Gaussian noise).
#ifndef TFGPUAUG_CC_KERNELS_COMMON_PORTABLE_MATH_H_
#define TFGPUAUG_CC_KERNELS_COMMON_PORTABLE_MATH_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// ln 2 split so that e * kLn2Hi is exact for any float exponent e.
constexpr float kLn2Hi = 0.693145751953125f;
constexpr float kLn2Lo = 1.428606765330187e-06f;
constexpr float kSqrtTwo = 1.41421356f;
constexpr float kHalfPi = 1.57079637f;

// ln(u) for a normal u > 0: u = m 2^e with m in [sqrt(1/2), sqrt(2)), and
// ln(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172, by its odd series to s^9.
TFGPUAUG_HD float LogPositive(float u) {
  const uint32_t bits = FloatBits(u);
  int e = static_cast<int>(bits >> 23) - 127;
  float m = FloatFromBits((bits & 0x7fffffu) | 0x3f800000u);
  if (m > kSqrtTwo) {
    m = m * 0.5f;
    e += 1;
  }
  const float s = (m - 1.f) / (m + 1.f), s2 = s * s;
  const float p = s * (2.f + s2 * (2.f / 3.f + s2 * (2.f / 5.f + s2 * (2.f / 7.f + s2 * (2.f / 9.f)))));
  const float ef = static_cast<float>(e);
  return ef * kLn2Hi + (ef * kLn2Lo + p);
}

// exp(x) for x <= 0 (0 below -87, where expf turns subnormal): x = n ln 2 + r with
// |r| <= ln 2 / 2, exp(r) by its Taylor series to r^7, times 2^n.
TFGPUAUG_HD float ExpNonPositive(float x) {
  if (!(x >= -87.f)) return 0.f;
  const float n = floorf(x * 1.44269504f + 0.5f);
  const float r = (x - n * kLn2Hi) - n * kLn2Lo;
  const float p =
      1.f +
      r * (1.f + r * (1.f / 2.f +
                      r * (1.f / 6.f +
                           r * (1.f / 24.f + r * (1.f / 120.f + r * (1.f / 720.f + r * (1.f / 5040.f)))))));
  return p * FloatFromBits(static_cast<uint32_t>(static_cast<int>(n) + 127) << 23);
}

// Clamped to [0, 255], then rounded half to even (as rintf) by adding and taking away 1.5 * 2^23:
// baseline x86-64 has no rounding instruction, and rintf is a libm call there.
TFGPUAUG_HD uint8_t RoundHalfEvenToUint8(float v) {
  v = v < 0.f ? 0.f : (v > 255.f ? 255.f : v);
  constexpr float kMagic = 12582912.f;
  return static_cast<uint8_t>((v + kMagic) - kMagic);  // IEEE rules: no compiler folds this pair
}

// Rounded half to even by the same trick (exact for |v| < 2^22), then clamped as integers: the
// value RoundHalfEvenToUint8 gives, with no float comparison left to keep a loop from
// vectorizing.
TFGPUAUG_HD uint8_t RoundThenClampToUint8(float v) {
  constexpr float kMagic = 12582912.f;
  const int rounded = static_cast<int>((v + kMagic) - kMagic);
  return static_cast<uint8_t>(rounded < 0 ? 0 : (rounded > 255 ? 255 : rounded));
}

// cos(2 pi t) and sin(2 pi t) for t in [0, 1]: t in quarter turns q + r with |r| <= 1/2, then
// the Taylor series of cos and sin of r * pi / 2 (|angle| <= pi / 4) to the 8th and 9th power,
// placed by the quadrant (the sine's is the cosine's turned back a quarter).
TFGPUAUG_HD void CosSinTurns(float t, float* cos_out, float* sin_out) {
  const float y = t * 4.f;
  const int q = static_cast<int>(y + 0.5f);
  const float a = (y - static_cast<float>(q)) * kHalfPi, a2 = a * a;
  const float c = 1.f - a2 * (1.f / 2.f - a2 * (1.f / 24.f - a2 * (1.f / 720.f - a2 * (1.f / 40320.f))));
  const float s =
      a * (1.f - a2 * (1.f / 6.f - a2 * (1.f / 120.f - a2 * (1.f / 5040.f - a2 * (1.f / 362880.f)))));
  switch (q & 3) {
    case 0:
      *cos_out = c, *sin_out = s;
      return;
    case 1:
      *cos_out = -s, *sin_out = c;
      return;
    case 2:
      *cos_out = -c, *sin_out = -s;
      return;
    default:
      *cos_out = s, *sin_out = -c;
  }
}

// cos(2 pi t) alone.
TFGPUAUG_HD float CosTurns(float t) {
  float c, s;
  CosSinTurns(t, &c, &s);
  return c;
}

// Both standard normals of a Box-Muller pair from two uniforms in (0, 1).
TFGPUAUG_HD void GaussianPairFromUniforms(float u1, float u2, float* z_cos, float* z_sin) {
  const float r = sqrtf(-2.f * LogPositive(u1));
  float c, s;
  CosSinTurns(u2, &c, &s);
  *z_cos = r * c;
  *z_sin = r * s;
}

// A standard normal value from two uniforms in (0, 1) (Box-Muller, cosine branch).
TFGPUAUG_HD float GaussianFromUniforms(float u1, float u2) {
  return sqrtf(-2.f * LogPositive(u1)) * CosTurns(u2);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_PORTABLE_MATH_H_
