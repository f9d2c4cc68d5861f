// Albumentations' UnsharpMask on uint8 images, as inline math shared by the CPU loops and the
// CUDA kernels. In levels L = v / 255 (float32): blur = the separable Gaussian of L (a
// symmetric kernel of odd length, reflect-101 border, rows then columns); mask = |L - blur| 255 >
// threshold (1 or 0); soft = the same blur of the mask; sharp = clip(L + alpha (L - blur), 0, 1);
// out = rint(255 clip(sharp soft + L (1 - soft), 0, 1)). Each tap sum adds the two values d
// apart first, then w[r + d] times that pair, outwards from the centre, in float32 without
// fused multiply-adds, so the CPU's vector loops and the GPU give the same bytes.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_UNSHARP_MASK_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_UNSHARP_MASK_H_

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "cc/kernels/common/border.h"
#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// The longest kernel: Albumentations' blur_limit sides are odd; 63 taps reach sigma ~10.
constexpr int kMaxUnsharpTaps = 63;

TFGPUAUG_HD float UnitLevel(uint8_t v) { return float(v) / 255.f; }

// The radius a kernel of `taps` values really has: its outer pairs of zero weights dropped (a
// batch's kernels share the longest side). Dropping them changes no sum: each would add
// 0 * (a finite non-negative pair) = +0. The kernel about its centre is then w + taps / 2 - r.
TFGPUAUG_HD int UnsharpReach(const float* w, int taps) {
  int r = taps / 2;
  while (r > 0 && w[taps / 2 - r] == 0.f && w[taps / 2 + r] == 0.f) --r;
  return r;
}

// 1 where the level differs from its blur by more than `threshold` levels, else 0.
TFGPUAUG_HD float UnsharpMaskBit(float level, float blurred, float threshold) {
  return fabsf(level - blurred) * 255.f > threshold ? 1.f : 0.f;
}

// The row tap sum of element (y, x, k) of a float plane (row `row` of `width` pixels of c
// values): w[r] v(x) + sum over d = 1 .. r of w[r + d] (v(x - d) + v(x + d)), reflect-101.
TFGPUAUG_HD float UnsharpRowSum(const float* row, int width, int c, int x, int k, const float* w, int r) {
  float acc = w[r] * row[size_t(x) * c + k];
  for (int d = 1; d <= r; ++d) {
    const float pair =
        row[size_t(Reflect101(x - d, width)) * c + k] + row[size_t(Reflect101(x + d, width)) * c + k];
    acc = acc + w[r + d] * pair;
  }
  return acc;
}

// The column tap sum of element `offset` (x c + k) of row y of a float plane of `height` rows
// of `stride` values, in the same order.
TFGPUAUG_HD float UnsharpColumnSum(const float* plane, int height, size_t stride, size_t offset, int y,
                                   const float* w, int r) {
  float acc = w[r] * plane[size_t(y) * stride + offset];
  for (int d = 1; d <= r; ++d) {
    const float pair = plane[size_t(Reflect101(y - d, height)) * stride + offset] +
                       plane[size_t(Reflect101(y + d, height)) * stride + offset];
    acc = acc + w[r + d] * pair;
  }
  return acc;
}

// The output byte of level byte v, its blur and its soft mask.
TFGPUAUG_HD uint8_t UnsharpByte(uint8_t v, float blurred, float soft, float alpha) {
  const float level = UnitLevel(v);
  float sharp = level + alpha * (level - blurred);
  sharp = sharp >= 0.f ? (sharp <= 1.f ? sharp : 1.f) : 0.f;  // NaN gives 0
  const float sharp_part = sharp * soft, level_part = level * (1.f - soft);
  const float mixed = sharp_part + level_part;
  const float clipped = mixed >= 0.f ? (mixed <= 1.f ? mixed : 1.f) : 0.f;
  return static_cast<uint8_t>(rintf(clipped * 255.f));
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_UNSHARP_MASK_H_
