// Remap: output pixel (y, x) samples the input at the coordinates its map gives, as
// cv2.remap does since OpenCV 4.11 (its float rewrite): map values are pixel-index
// coordinates (pixel k's centre at k); bilinear takes the four neighbours of floor(x),
// floor(y), each outside one resolved by the border rule (the fill value for constant),
// blends with two float lerps along x and one along y (no fused multiply-add: both
// devices round identically) and rounds half to even; nearest takes rint(x), rint(y).
// OpenCV 4.10 and older blend with 5-bit fixed-point weights instead (up to ~6 levels off).
#ifndef TFGPUAUG_CC_KERNELS_WARP_REMAP_H_
#define TFGPUAUG_CC_KERNELS_WARP_REMAP_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/common/host_device.h"
#include "cc/kernels/common/portable_math.h"
#include "cc/kernels/warp/warp.h"

namespace tfgpuaug {

// OpenCV's border types (the names cv2.BORDER_* give them).
enum class BorderMode : int { kConstant = 0, kReplicate = 1, kReflect = 2, kWrap = 3, kReflect101 = 4 };

struct RemapParams {
  int in_h, in_w, channels, out_h, out_w;
  Interpolation interpolation;
  BorderMode border;
  uint8_t fill;
};

// Map coordinates are bounded before they become ints: a coordinate beyond this (or NaN)
// takes the fill whatever the border rule, so index arithmetic cannot overflow.
constexpr float kRemapFar = 1 << 22;

TFGPUAUG_HD bool RemapCoordinateUsable(float v) { return v > -kRemapFar && v < kRemapFar; }

// The index that coordinate index i reads along an axis of n pixels under the border rule,
// or -1 for the fill (constant border). |i| is below kRemapFar + 2. Indices within one
// reflection (or wrap) of the image, where warps and distortions land, skip the divisions.
TFGPUAUG_HD int BorderIndex(int i, int n, BorderMode mode) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case BorderMode::kConstant:
      return -1;
    case BorderMode::kReplicate:
      return i < 0 ? 0 : n - 1;
    case BorderMode::kWrap:
      if (i >= -n && i < 2 * n) return i < 0 ? i + n : i - n;
      return ((i % n) + n) % n;
    case BorderMode::kReflect: {  // fedcba|abcdef|fedcba
      if (i >= -n && i < 2 * n) return i < 0 ? -i - 1 : 2 * n - 1 - i;
      const int period = 2 * n;
      int j = i < 0 ? -i - 1 : i;
      j %= period;
      return j >= n ? period - 1 - j : j;
    }
    default: {  // reflect 101: gfedcb|abcdefgh|gfedcba
      if (n == 1) return 0;
      if (i > -n && i < 2 * n - 1) return i < 0 ? -i : 2 * n - 2 - i;
      const int period = 2 * (n - 1);
      int j = (i < 0 ? -i : i) % period;
      return j >= n ? period - j : j;
    }
  }
}

// The map entry of output pixel (x, y) of an affine remap: the 2x3 matrix m takes output pixel
// indices to the input coordinates sampled (pixel indices), evaluated in this order on every
// device so the CPU and GPU kernels sample identical coordinates.
TFGPUAUG_HD void AffineMapEntry(const float* m, int x, int y, float* mx, float* my) {
  const float xf = static_cast<float>(x), yf = static_cast<float>(y);
  *mx = (m[0] * xf + m[1] * yf) + m[2];
  *my = (m[3] * xf + m[4] * yf) + m[5];
}

// The map entry of output pixel (x, y) of a radial remap of a w x h image (the map of
// cv2.initUndistortRectifyMap for the camera with focal lengths (w, h), centre (w / 2, h / 2)
// and distortion (k[0], k[1], 0, 0)): the offset from the centre times 1 + k1 r2 + k2 r2^2, r2
// the squared normalised radius. In double, operation for operation on every device.
// One axis's part: the offset d of pixel i from the centre n / 2 and its normalised value d / n.
struct RadialAxis {
  double offset, normalised;
};
TFGPUAUG_HD RadialAxis RadialAxisOf(int i, int n) {
  const double d = double(i) - 0.5 * n;
  return {d, d / double(n)};
}
// The entry from both axes' parts (the CPU caches the column parts; the sums are the same).
TFGPUAUG_HD void RadialMapFromAxes(const float* k, RadialAxis ax, RadialAxis ay, int w, int h, float* mx,
                                   float* my) {
  const double r2 = ax.normalised * ax.normalised + ay.normalised * ay.normalised;
  const double scale = 1.0 + (double(k[0]) * r2 + double(k[1]) * (r2 * r2));
  *mx = static_cast<float>(0.5 * w + ax.offset * scale);
  *my = static_cast<float>(0.5 * h + ay.offset * scale);
}
TFGPUAUG_HD void RadialMapEntry(const float* k, int x, int y, int w, int h, float* mx, float* my) {
  RadialMapFromAxes(k, RadialAxisOf(x, w), RadialAxisOf(y, h), w, h, mx, my);
}

// The value of channel k at input pixel (row, col) already resolved by BorderIndex.
TFGPUAUG_HD float RemapTap(const uint8_t* image, const RemapParams& p, int row, int col, int k) {
  if (row < 0 || col < 0) return p.fill;
  return image[(static_cast<int64_t>(row) * p.in_w + col) * p.channels + k];
}

// Where output pixel (y, x) of one sample reads, from its map entry (mx, my): the fill (NaN or
// far away), the nearest pixel, or the four pixels of the bilinear blend and their weights.
struct RemapSite {
  bool fill;
  int r0, r1, c0, c1;  // nearest: r0, c0 only
  float a, b;
};
TFGPUAUG_HD RemapSite RemapSiteOf(const RemapParams& p, float mx, float my) {
  RemapSite s{};
  s.fill = !RemapCoordinateUsable(mx) || !RemapCoordinateUsable(my);
  if (s.fill) return s;
  if (p.interpolation == Interpolation::kNearest) {
    s.r0 = BorderIndex(static_cast<int>(rintf(my)), p.in_h, p.border);
    s.c0 = BorderIndex(static_cast<int>(rintf(mx)), p.in_w, p.border);
    return s;
  }
  const int x0 = FloorToInt(mx), y0 = FloorToInt(my);
  s.a = mx - static_cast<float>(x0), s.b = my - static_cast<float>(y0);
  s.c0 = BorderIndex(x0, p.in_w, p.border), s.c1 = BorderIndex(x0 + 1, p.in_w, p.border);
  s.r0 = BorderIndex(y0, p.in_h, p.border), s.r1 = BorderIndex(y0 + 1, p.in_h, p.border);
  return s;
}

// Channel k's byte at a site.
TFGPUAUG_HD uint8_t RemapSiteValue(const uint8_t* image, const RemapParams& p, const RemapSite& s, int k) {
  if (s.fill) return p.fill;
  if (p.interpolation == Interpolation::kNearest)
    return static_cast<uint8_t>(RemapTap(image, p, s.r0, s.c0, k));
  const float top = Lerp(RemapTap(image, p, s.r0, s.c0, k), RemapTap(image, p, s.r0, s.c1, k), s.a);
  const float bottom = Lerp(RemapTap(image, p, s.r1, s.c0, k), RemapTap(image, p, s.r1, s.c1, k), s.a);
  return RoundHalfEvenToUint8(Lerp(top, bottom, s.b));
}

// All channels of output pixel (y, x) of one sample: its map entry (mx, my) -> out[0..c).
TFGPUAUG_HD void RemapPixel(const uint8_t* image, const RemapParams& p, float mx, float my, uint8_t* out) {
  const RemapSite s = RemapSiteOf(p, mx, my);
  for (int k = 0; k < p.channels; ++k) out[k] = RemapSiteValue(image, p, s, k);
}

// Separable resampling: every output row reads two input rows, every output column two input
// columns, from index tables built by the caller (any border rule or window already resolved:
// CropAndPad's canvas). An index outside [0, n) reads the fill, so no table can read outside
// the image. Rows are blended first (each input column once per output row on the CPU), then
// the two columns; nearest is a weight of 0 (the first tap alone, bit for bit).
struct SeparableTaps {
  const int32_t* index;  // [n, 2] per output position: the two source indices
  const float* weight;   // [n] the second one's weight
};

TFGPUAUG_HD float SeparableTap(const uint8_t* image, int in_h, int in_w, int c, int row, int col, int k,
                               float fill) {
  if (row < 0 || row >= in_h || col < 0 || col >= in_w) return fill;
  return image[(static_cast<int64_t>(row) * in_w + col) * c + k];
}

// Output pixel (y, x): each column's two rows lerped, then the two columns, rounded half to even.
TFGPUAUG_HD void SeparablePixel(const uint8_t* image, int in_h, int in_w, int c, const int32_t* row_taps,
                                float row_weight, const int32_t* col_taps, float col_weight, uint8_t fill,
                                uint8_t* out) {
  const float f = fill;
  for (int k = 0; k < c; ++k) {
    const float left = Lerp(SeparableTap(image, in_h, in_w, c, row_taps[0], col_taps[0], k, f),
                            SeparableTap(image, in_h, in_w, c, row_taps[1], col_taps[0], k, f), row_weight);
    const float right = Lerp(SeparableTap(image, in_h, in_w, c, row_taps[0], col_taps[1], k, f),
                             SeparableTap(image, in_h, in_w, c, row_taps[1], col_taps[1], k, f), row_weight);
    out[k] = RoundHalfEvenToUint8(Lerp(left, right, col_weight));
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_REMAP_H_
