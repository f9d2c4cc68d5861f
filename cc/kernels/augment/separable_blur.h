// A separable float blur of planes, per output value (SeparableBlur op; RandomSunFlare's
// physics_based method): rows first, then columns, each output the fused multiply-adds of its
// kernel's taps in ascending order from 0, over OpenCV's reflect-101 border (repeated
// reflections for sides shorter than the kernel), so the CPU loops and the GPU give the same
// floats. A kernel is read only over its non-zero taps.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SEPARABLE_BLUR_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SEPARABLE_BLUR_H_

#include <cmath>
#include <cstddef>

#include "cc/kernels/common/border.h"
#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

constexpr int kMaxBlurTaps = 1023;

// The kernel's first and last non-zero taps (first > last: all zero, every output 0).
struct BlurExtent {
  int first, last;
};

TFGPUAUG_HD BlurExtent BlurExtentOf(const float* taps, int count) {
  BlurExtent e{0, count - 1};
  while (e.first < count && taps[e.first] == 0.f) ++e.first;
  while (e.last >= e.first && taps[e.last] == 0.f) --e.last;
  return e;
}

// Output i of a line of n values `stride` apart, the kernel centred on tap count / 2.
TFGPUAUG_HD float BlurAt(const float* line, size_t stride, int n, int i, const float* taps, int count,
                         BlurExtent e) {
  float acc = 0.f;
  for (int t = e.first; t <= e.last; ++t) {
    const int j = i + t - count / 2;
    // Reflect101 divides: only the border's taps need it
    acc = fmaf(taps[t], line[size_t(unsigned(j) < unsigned(n) ? j : Reflect101(j, n)) * stride], acc);
  }
  return acc;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SEPARABLE_BLUR_H_
