// Albumentations' HEStain jitter (its apply_he_stain_augmentation, 2.0.8) for one pixel of a
// uint8 RGB image, in float64 as Albumentations rebuilds: densities d (a table of a byte's float32
// density, numpy's -log(max(v / 255, 1e-6)), made by the caller), concentrations c = P d (P =
// (S S^T + 1e-6 I)^-1 S, the regularised least squares, given per sample), scaled and shifted where
// the pixel is tissue (float32 luminosity 0.299 r + 0.587 g + 0.114 b of the levels v / 255 below
// 0.85, numpy's order) or always, and each channel rebuilt as rint(clip(255 exp(-(c S)_k), 0, 255)).
// The exponential is not evaluated: the byte is the count of thresholds ln(255 / (v - 0.5)),
// v = 1..255 (given, descending, with a table of the count at each 1/512 of an exponent), that
// the exponent does not exceed, which is that rounding
// (ties, at irrational exponents, do not arise). No transcendental runs here, so the CPU loop
// and the CUDA kernel give the same bytes. Inline math shared by both.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_HE_STAIN_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_HE_STAIN_H_

#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

constexpr int kHeThresholds = 255;
// The byte's lookup: cells of 1/512 of an exponent from 0 (narrower than the thresholds' least
// gap, ln(254.5 / 253.5) = 0.0039, so a cell holds at most one), up past ln(510), the largest.
constexpr int kHeCellsPerUnit = 512;
constexpr int kHeCells = 3226;

// One sample's jitter: P and S [2, 3] (rows hematoxylin, eosin), scale and shift [2].
struct HeStainPlan {
  const double* projection;
  const double* matrix;
  const double* scale;
  const double* shift;
};

// rint(clip(255 exp(-x), 0, 255)): how many of the descending thresholds x is not above, from
// cells [kHeCells] (the count at each cell's start) and at most one comparison.
TFGPUAUG_HD uint8_t HeStainByte(double x, const double* thresholds, const uint8_t* cells) {
  if (!(x >= 0.0)) return 255;  // exp(-x) >= 1
  const double at = x * kHeCellsPerUnit;
  if (at >= kHeCells) return 0;
  const int count = cells[static_cast<int>(at)];
  return static_cast<uint8_t>(count - (count > 0 && x > thresholds[count - 1] ? 1 : 0));
}

// Whether a pixel is tissue: its float32 luminosity below 0.85, as numpy computes it.
TFGPUAUG_HD bool HeStainTissue(const uint8_t* rgb) {
  const float r = static_cast<float>(rgb[0]) / 255.0f, g = static_cast<float>(rgb[1]) / 255.0f,
              b = static_cast<float>(rgb[2]) / 255.0f;
  return r * 0.299f + g * 0.587f + b * 0.114f < 0.85f;
}

// One pixel through a sample's jitter.
TFGPUAUG_HD void HeStainPixel(const uint8_t* rgb, const float* densities, const double* thresholds,
                              const uint8_t* cells, const HeStainPlan& plan, bool background, uint8_t* out) {
  const double d0 = densities[rgb[0]], d1 = densities[rgb[1]], d2 = densities[rgb[2]];
  const double* p = plan.projection;
  double c0 = p[0] * d0 + p[1] * d1 + p[2] * d2, c1 = p[3] * d0 + p[4] * d1 + p[5] * d2;
  if (background || HeStainTissue(rgb)) {
    c0 = c0 * plan.scale[0] + plan.shift[0];
    c1 = c1 * plan.scale[1] + plan.shift[1];
  }
  const double* s = plan.matrix;
  for (int k = 0; k < 3; ++k) out[k] = HeStainByte(c0 * s[k] + c1 * s[3 + k], thresholds, cells);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_HE_STAIN_H_
