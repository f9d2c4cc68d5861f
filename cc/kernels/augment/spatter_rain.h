// Albumentations' Spatter, "rain" mode (its default), per sample, after the liquid layer
// (spatter.h: noise, float64 blur, zeroed below the cutout): the layer as bytes
// (uint8(clip(255 v))), its Canny edges (OpenCV's: 3x3 Sobel with replicated edges, |dx| + |dy|,
// non-maximum suppression by OpenCV's fixed-point tangents, hysteresis 50 / 150 over 8-connected
// neighbours), the distance to the nearest edge (cv2.distanceTransform, DIST_L2 with the 5x5
// mask: OpenCV's float32 chamfer costs 1, 1.4 and 2.1969, a forward and a backward pass),
// truncated at 20, blurred 3x3 (sigma 1, float32, replicated edges), as bytes rint(255 d)
// (Albumentations' equalize converts the float layer so), equalised (cv2.equalizeHist), back to
// [0, 1], correlated with a 3x3 relief kernel (reflect-101) and clipped to [0, 1], blurred 5x5
// (sigma 1.5), times the liquid's bytes, over its peak: m; each byte rint(255 clip(v / 255 +
// float32(m c s), 0, 1)) for c = level / 255 and s = 0.9 intensity. The per-element steps are
// shared by the CPU loops and the CUDA kernels, which run them in the same order.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_RAIN_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_RAIN_H_

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "cc/kernels/common/host_device.h"
#include "cc/kernels/common/portable_math.h"

namespace tfgpuaug {

// cv2.getGaussianKernel(3, 1, CV_32F) and (5, 1.5, CV_32F), the float32 taps of the two blurs
// (as OpenCV returns them).
TFGPUAUG_HD float RainSoftenTap(int k) { return k == 1 ? 0x1.ceb51cp-2f : 0x1.18a572p-2f; }
TFGPUAUG_HD float RainSmoothTap(int k) {
  return k == 2 ? 0x1.2b1778p-2f : (k == 1 || k == 3 ? 0x1.defce0p-3f : 0x1.ebd750p-4f);
}

// The liquid's byte: clip(255 v, 0, 255) truncated (numpy's astype).
TFGPUAUG_HD uint8_t RainLevel(double kept) {
  const double v = kept * 255.0;
  return static_cast<uint8_t>(v < 0.0 ? 0.0 : (v > 255.0 ? 255.0 : v));
}

// Sobel's x and y derivatives of a byte plane at (y, x), replicated edges (OpenCV's 3x3 kernels).
TFGPUAUG_HD void RainSobel(const uint8_t* level, int h, int w, int y, int x, int* dx, int* dy) {
  const int ym = y > 0 ? y - 1 : 0, yp = y + 1 < h ? y + 1 : h - 1;
  const int xm = x > 0 ? x - 1 : 0, xp = x + 1 < w ? x + 1 : w - 1;
  const uint8_t *up = level + size_t(ym) * w, *mid = level + size_t(y) * w, *down = level + size_t(yp) * w;
  *dx = (int(up[xp]) + 2 * int(mid[xp]) + int(down[xp])) - (int(up[xm]) + 2 * int(mid[xm]) + int(down[xm]));
  *dy = (int(down[xm]) + 2 * int(down[x]) + int(down[xp])) - (int(up[xm]) + 2 * int(up[x]) + int(up[xp]));
}

// A magnitude, zero outside the image.
TFGPUAUG_HD int RainMagnitudeAt(const int* magnitude, int h, int w, int y, int x) {
  return y < 0 || y >= h || x < 0 || x >= w ? 0 : magnitude[size_t(y) * w + x];
}

// Canny's class of a pixel: 0 none, 1 a candidate (above the low threshold, a local maximum
// across its gradient), 2 a strong one (above the high threshold too). magnitude: the plane of
// |dx| + |dy|, zero outside the image; dx, dy the pixel's own derivatives. OpenCV's rule: the
// gradient is horizontal when |dy| < tan(22.5) |dx|, vertical when |dy| > tan(67.5) |dx|, in
// 15-bit fixed point, else diagonal (the neighbours along the sign of dx dy).
TFGPUAUG_HD uint8_t RainCannyClass(const int* magnitude, int h, int w, int y, int x, int dx, int dy) {
  const int m = magnitude[size_t(y) * w + x];
  if (m <= 50) return 0;
  constexpr int64_t kTan22 = 13573;  // int(0.4142135623730950488 * 2^15 + 0.5)
  const int64_t xs = dx < 0 ? -int64_t{dx} : dx, ys = (dy < 0 ? -int64_t{dy} : dy) * 32768;
  const int64_t tg22x = xs * kTan22, tg67x = tg22x + xs * 65536;
  bool maximum;
  if (ys < tg22x) {
    maximum =
        m > RainMagnitudeAt(magnitude, h, w, y, x - 1) && m >= RainMagnitudeAt(magnitude, h, w, y, x + 1);
  } else if (ys > tg67x) {
    maximum =
        m > RainMagnitudeAt(magnitude, h, w, y - 1, x) && m >= RainMagnitudeAt(magnitude, h, w, y + 1, x);
  } else {
    const int s = (dx ^ dy) < 0 ? -1 : 1;
    maximum = m > RainMagnitudeAt(magnitude, h, w, y - 1, x - s) &&
              m > RainMagnitudeAt(magnitude, h, w, y + 1, x + s);
  }
  if (!maximum) return 0;
  return m > 150 ? 2 : 1;
}

// Hysteresis in place: every candidate 8-connected (through candidates) to a strong pixel
// becomes strong; `stack` holds h w entries. Afterwards class 2 marks Canny's edges.
TFGPUAUG_HD void RainHysteresis(uint8_t* cls, int h, int w, uint32_t* stack) {
  size_t top = 0;
  const size_t n = size_t(h) * w;
  for (size_t e = 0; e < n; ++e)
    if (cls[e] == 2) stack[top++] = static_cast<uint32_t>(e);
  while (top > 0) {
    const uint32_t e = stack[--top];
    const int y = static_cast<int>(e / w), x = static_cast<int>(e % w);
    for (int r = y - 1; r <= y + 1; ++r) {
      for (int c = x - 1; c <= x + 1; ++c) {
        if (r < 0 || r >= h || c < 0 || c >= w) continue;
        uint8_t& v = cls[size_t(r) * w + c];
        if (v == 1) {
          v = 2;
          stack[top++] = static_cast<uint32_t>(size_t(r) * w + c);
        }
      }
    }
  }
}

// The smaller of a and b (b where it is below).
TFGPUAUG_HD float RainLower(float a, float b) { return b < a ? b : a; }

// cv2.distanceTransform(edges ? 0 : 255, DIST_L2, 5) into out: the chamfer costs in float32,
// a forward pass over 8 earlier neighbours and a backward one over 8 later ones on a plane
// with a 2-pixel margin of FLT_MAX (`work`: (h + 4) (w + 4) floats).
TFGPUAUG_HD void RainDistance(const uint8_t* cls, int h, int w, float* work, float* out) {
  const float hv = 1.f, diag = 1.4f, far = 2.1969f, init = 3.402823466e+38f;
  const int stride = w + 4;
  for (int i = 0; i < (h + 4) * stride; ++i) work[i] = init;
  for (int y = 0; y < h; ++y) {
    float* t = work + size_t(y + 2) * stride + 2;
    for (int x = 0; x < w; ++x) {
      if (cls[size_t(y) * w + x] == 2) {
        t[x] = 0.f;
        continue;
      }
      float v = t[x - 2 * stride - 1] + far;
      v = RainLower(v, t[x - 2 * stride + 1] + far);
      v = RainLower(v, t[x - stride - 2] + far);
      v = RainLower(v, t[x - stride - 1] + diag);
      v = RainLower(v, t[x - stride] + hv);
      v = RainLower(v, t[x - stride + 1] + diag);
      v = RainLower(v, t[x - stride + 2] + far);
      v = RainLower(v, t[x - 1] + hv);
      t[x] = v;
    }
  }
  for (int y = h - 1; y >= 0; --y) {
    float* t = work + size_t(y + 2) * stride + 2;
    for (int x = w - 1; x >= 0; --x) {
      float v = t[x];
      if (v > hv) {
        v = RainLower(v, t[x + 2 * stride + 1] + far);
        v = RainLower(v, t[x + 2 * stride - 1] + far);
        v = RainLower(v, t[x + stride + 2] + far);
        v = RainLower(v, t[x + stride + 1] + diag);
        v = RainLower(v, t[x + stride] + hv);
        v = RainLower(v, t[x + stride - 1] + diag);
        v = RainLower(v, t[x + stride - 2] + far);
        v = RainLower(v, t[x + 1] + hv);
        t[x] = v;
      }
      out[size_t(y) * w + x] = v;
    }
  }
}

// The softened distance as a byte (Albumentations' uint8 conversion: rint(255 d), saturated).
TFGPUAUG_HD uint8_t RainDistanceByte(float d) { return RoundHalfEvenToUint8(d * 255.f); }

// cv2.equalizeHist's table from a 256-bin histogram of `total` bytes: 0 up to the first
// non-empty bin, then saturated rint(running count x 255 / (total - that bin's count)) in
// float32; a single-valued plane maps every byte to that value.
TFGPUAUG_HD void RainEqualizeTable(const uint32_t* hist, uint32_t total, uint8_t* table) {
  int i = 0;
  while (i < 255 && hist[i] == 0) ++i;
  if (hist[i] == total) {
    for (int j = 0; j < 256; ++j) table[j] = static_cast<uint8_t>(i);
    return;
  }
  const float scale = 255.f / float(total - hist[i]);
  for (int j = 0; j <= i; ++j) table[j] = 0;
  uint32_t sum = 0;
  for (int j = i + 1; j < 256; ++j) {
    sum += hist[j];
    table[j] = RoundHalfEvenToUint8(float(sum) * scale);
  }
}

// Reflect101 of an index at most one step outside [0, n) (no division: the relief's taps).
TFGPUAUG_HD int RainReflect1(int i, int n) {
  if (i < 0) return n > 1 ? 1 : 0;
  if (i >= n) return n > 1 ? n - 2 : 0;
  return i;
}

// The relief of the equalised layer at (y, x) (e: its values / 255), reflect-101: the taps
// -2 -1 0 / -1 1 1 / 0 1 2 row by row, zeros skipped, summed from zero; clipped to [0, 1].
TFGPUAUG_HD float RainRelief(const float* e, int h, int w, int y, int x) {
  const int ym = RainReflect1(y - 1, h), yp = RainReflect1(y + 1, h);
  const int xm = RainReflect1(x - 1, w), xp = RainReflect1(x + 1, w);
  const float *up = e + size_t(ym) * w, *mid = e + size_t(y) * w, *down = e + size_t(yp) * w;
  float s = 0.f;
  s = s + -2.f * up[xm];
  s = s + -1.f * up[x];
  s = s + -1.f * mid[xm];
  s = s + mid[x];
  s = s + mid[xp];
  s = s + down[x];
  s = s + 2.f * down[xp];
  return s < 0.f ? 0.f : (s > 1.f ? 1.f : s);
}

// One byte under its drop: v / 255 in float32, plus float32((m c) s) (float64 product), clipped
// to [0, 1], rint(x 255).
TFGPUAUG_HD uint8_t RainByte(uint8_t v, float m, double colour, double strength) {
  const float drop = static_cast<float>(double(m) * colour * strength);
  float x = float(v) / 255.f + drop;
  x = x < 0.f ? 0.f : (x > 1.f ? 1.f : x);
  return RoundHalfEvenToUint8(x * 255.f);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_RAIN_H_
