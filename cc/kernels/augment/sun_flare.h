// Albumentations' RandomSunFlare ("overlay" method), per pixel. Its steps, over the whole image:
//   for each flare circle j: cv2.circle(overlay, centre_j, radius_j, colour_j, filled);
//                            output = add_weighted(overlay, alpha_j, output, 1 - alpha_j)
//   overlay = output; for each sun disc i (radii ascending, one centre):
//                            cv2.circle(overlay, sun, radius_i, sun colour, filled);
//                            output = add_weighted(overlay, a_i, output, 1 - a_i)
// add_weighted on bytes is SimSIMD's weighted sum: rint(fma(alpha, x, beta y)) in float32, both
// weights rounded to float32 (measured on AVX-512 CPUs, tests/test_sun_flare.py). A pixel no
// circle has covered yet blends with itself and keeps its byte; once covered, every later step
// blends it toward its overlay colour. cv2.circle's filled disc is dx^2 + dy^2 <= r^2.
// Inline math shared by the CPU loops and the CUDA kernel (fmaf on both: the same floats).
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SUN_FLARE_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SUN_FLARE_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// The most flare circles and sun discs a sample may have.
constexpr int kMostFlareCircles = 64;
constexpr int kMostSunDiscs = 1024;

// SimSIMD's weighted sum of two bytes: rint(fma(alpha, overlay, beta out)), saturated.
TFGPUAUG_HD uint8_t FlareBlend(float alpha, float beta, uint8_t overlay, uint8_t out) {
  const float v = rintf(fmaf(alpha, static_cast<float>(overlay), beta * static_cast<float>(out)));
  return static_cast<uint8_t>(v < 0.f ? 0.f : (v > 255.f ? 255.f : v));
}

// Whether the filled disc of radius r (< 0: none) about (cx, cy) covers pixel (x, y).
TFGPUAUG_HD bool DiscCovers(int x, int y, int cx, int cy, int r) {
  if (r < 0) return false;
  const int64_t dx = int64_t{x} - cx, dy = int64_t{y} - cy;
  return dx * dx + dy * dy <= int64_t{r} * r;
}

// Pixel (x, y)'s channel bytes after a sample's n flare circles (circles [n, 3]: x, y, radius,
// below 0 for no circle, skipped; weights [n, 2]: alpha, beta; colours [n, c]), in place.
TFGPUAUG_HD void FlareCirclesPixel(const int32_t* circles, const float* weights, const uint8_t* colours,
                                   int n, int c, int x, int y, uint8_t* px) {
  int covered = -1;  // the last circle so far covering the pixel: its colour is the overlay's
  for (int j = 0; j < n; ++j) {
    if (circles[3 * j + 2] < 0) continue;  // no circle: no draw and no blend
    if (DiscCovers(x, y, circles[3 * j], circles[3 * j + 1], circles[3 * j + 2])) covered = j;
    if (covered < 0) continue;  // overlay and output are still the image: the blend keeps it
    for (int k = 0; k < c; ++k) {
      px[k] = FlareBlend(weights[2 * j], weights[2 * j + 1], colours[covered * c + k], px[k]);
    }
  }
}

// How many sun discs (radii ascending, m of them) miss a pixel at squared distance d2 from the
// sun: the first disc covering it (all larger ones cover it too).
TFGPUAUG_HD int SunDiscsMissing(int64_t d2, const int* radii, int m) {
  int lo = 0, hi = m;  // the first i with radii[i]^2 >= d2
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (int64_t{radii[mid]} * radii[mid] >= d2) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

// A byte through sun discs first .. m - 1 (weights [m, 2]) toward the sun colour's byte.
TFGPUAUG_HD uint8_t SunSteps(uint8_t v, int first, int m, const float* weights, uint8_t sun) {
  for (int i = first; i < m; ++i) v = FlareBlend(weights[2 * i], weights[2 * i + 1], sun, v);
  return v;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SUN_FLARE_H_
