// Separable resampling math shared by the CPU driver and the CUDA kernels.
//
// Coordinates are continuous with pixel k covering [k, k+1] (centre k + 0.5), as
// tf.image.resize with half-pixel centres. An output axis of `out_size` pixels samples the
// input interval [start, start + extent): output pixel i is centred at
// start + (i + 0.5) * scale with scale = extent / out_size.
#ifndef TFGPUAUG_CC_KERNELS_RESAMPLE_RESAMPLE_H_
#define TFGPUAUG_CC_KERNELS_RESAMPLE_RESAMPLE_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

enum class ResizeMethod : int { kNearest = 0, kBilinear = 1, kBicubic = 2, kArea = 3 };

struct ResampleAxis {
  ResizeMethod method;
  bool antialias;      // widen the kernel when downscaling (tf.image.resize antialias=True, PIL)
  float start;         // input coordinate of the first output pixel's leading edge
  float scale;         // input pixels per output pixel
  float kernel_scale;  // kernel argument multiplier: 1 / max(1, scale) when antialiasing
  float support;       // kernel radius in input pixels
  int in_size;         // valid input pixels [0, in_size)
};

TFGPUAUG_HD float KernelRadius(ResizeMethod m) {
  return m == ResizeMethod::kBicubic ? 2.f : (m == ResizeMethod::kBilinear ? 1.f : 0.5f);
}

// Keys cubic with a = -0.5 (tf.image.resize "bicubic" and its antialiased variant).
TFGPUAUG_HD float KeysCubic(float x) {
  x = fabsf(x);
  if (x < 1.f) return ((1.5f * x - 2.5f) * x) * x + 1.f;
  if (x < 2.f) return ((-0.5f * x + 2.5f) * x - 4.f) * x + 2.f;
  return 0.f;
}

TFGPUAUG_HD ResampleAxis MakeAxis(ResizeMethod method, bool antialias, float start, float extent,
                                  int out_size, int in_size) {
  ResampleAxis a;
  a.method = method;
  a.antialias = antialias;
  a.start = start;
  a.scale = extent / static_cast<float>(out_size);
  const float widen = (antialias && a.scale > 1.f) ? a.scale : 1.f;
  a.kernel_scale = 1.f / widen;
  // Area weighs pixels by overlap, so pixels up to half a pixel beyond the footprint count.
  a.support = method == ResizeMethod::kArea ? 0.5f * a.scale + 0.5f : KernelRadius(method) * widen;
  a.in_size = in_size;
  return a;
}

TFGPUAUG_HD float OutputCentre(const ResampleAxis& a, int i) {
  return a.start + (static_cast<float>(i) + 0.5f) * a.scale;
}

// Input pixels [*first, *last] that contribute to output pixel i (before clamping).
TFGPUAUG_HD void TapRange(const ResampleAxis& a, int i, int* first, int* last) {
  const float c = OutputCentre(a, i);
  if (a.method == ResizeMethod::kNearest) {
    *first = *last = static_cast<int>(floorf(c));
    return;
  }
  *first = static_cast<int>(ceilf(c - a.support - 0.5f));
  *last = static_cast<int>(floorf(c + a.support - 0.5f));
  if (*last < *first) *last = *first;
}

// Unnormalised weight of input pixel k for output pixel i.
TFGPUAUG_HD float TapWeight(const ResampleAxis& a, int i, int k) {
  const float c = OutputCentre(a, i);
  const float d = static_cast<float>(k) + 0.5f - c;
  switch (a.method) {
    case ResizeMethod::kNearest:
      return 1.f;
    case ResizeMethod::kBilinear:
      return fmaxf(0.f, 1.f - fabsf(d * a.kernel_scale));
    case ResizeMethod::kBicubic:
      return KeysCubic(d * a.kernel_scale);
    default: {  // area: overlap of pixel k with the output pixel's footprint
      const float half = 0.5f * a.scale;
      const float lo = fmaxf(static_cast<float>(k), c - half);
      const float hi = fminf(static_cast<float>(k) + 1.f, c + half);
      return fmaxf(0.f, hi - lo);
    }
  }
}

// Input index used for tap k: antialiased filters, area and bicubic drop taps outside the
// input and renormalise (as PIL and tf.image); bilinear and nearest clamp to the edge (as
// tf.image's resize kernels). Returns -1 for a dropped tap.
TFGPUAUG_HD int TapIndex(const ResampleAxis& a, int k) {
  if (k >= 0 && k < a.in_size) return k;
  // tf.image's bicubic (Keys) drops outside taps even without antialiasing.
  const bool drops = a.method == ResizeMethod::kArea || a.method == ResizeMethod::kBicubic ||
                     (a.antialias && a.method != ResizeMethod::kNearest);
  if (drops) return -1;
  return k < 0 ? 0 : a.in_size - 1;
}

TFGPUAUG_HD uint8_t SaturateToUint8(float v) {
  v = v < 0.f ? 0.f : (v > 255.f ? 255.f : v);
  return static_cast<uint8_t>(v + 0.5f);
}

// One output sample along an axis: sum over taps of weight * fetch(index), normalised.
// `fetch(index)` returns the input value at that index along the axis.
template <typename Fetch>
TFGPUAUG_HD float ResampleAt(const ResampleAxis& a, int i, const Fetch& fetch) {
  int first, last;
  TapRange(a, i, &first, &last);
  float sum = 0.f, norm = 0.f;
  for (int k = first; k <= last; ++k) {
    const int idx = TapIndex(a, k);
    if (idx < 0) continue;
    const float w = TapWeight(a, i, k);
    sum += w * fetch(idx);
    norm += w;
  }
  return norm > 0.f ? sum / norm : 0.f;
}

// What happens to a resampled value on its way out: a horizontal flip of the output and
// (x - mean) / std, fused so that a crop-resize-flip-normalize pipeline is one pass.
struct Epilogue {
  bool mirror = false;
  bool normalize = false;
  float mean[4] = {0.f, 0.f, 0.f, 0.f};
  float inv_std[4] = {1.f, 1.f, 1.f, 1.f};
};

TFGPUAUG_HD float ApplyEpilogue(const Epilogue& e, float v, int k) {
  return e.normalize ? (v - e.mean[k & 3]) * e.inv_std[k & 3] : v;
}

TFGPUAUG_HD int OutputColumn(const Epilogue& e, int j, int out_w) { return e.mirror ? out_w - 1 - j : j; }

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_RESAMPLE_RESAMPLE_H_
