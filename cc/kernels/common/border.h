// Border index rules shared by neighbourhood operations.
#ifndef TFGPUAUG_CC_KERNELS_COMMON_BORDER_H_
#define TFGPUAUG_CC_KERNELS_COMMON_BORDER_H_

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// Index i mirrored into [0, n) without repeating the edge pixel (..., 2, 1, 0, 1, 2, ...).
TFGPUAUG_HD int Reflect101(int i, int n) {
  if (n == 1) return 0;
  const int period = 2 * (n - 1);
  i %= period;
  if (i < 0) i += period;
  return i < n ? i : period - i;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_BORDER_H_
