// Grid-stride launch geometry shared by the CUDA launchers.
#ifndef TFGPUAUG_CC_KERNELS_CUDA_LAUNCH_H_
#define TFGPUAUG_CC_KERNELS_CUDA_LAUNCH_H_

#include <cstddef>

namespace tfgpuaug {

constexpr int kThreadsPerBlock = 256;

// Blocks for `total` grid-stride items, capped: each thread loops over the rest.
inline int GridBlocks(size_t total) {
  const size_t b = (total + kThreadsPerBlock - 1) / kThreadsPerBlock;
  return static_cast<int>(b == 0 ? 1 : (b < 4096 ? b : 4096));
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_CUDA_LAUNCH_H_
