// The counter-based random numbers of the noise stages and the elastic fields: a function of
// (seed, index) alone, so every device and every loop order draws the same numbers.
#ifndef TFGPUAUG_CC_KERNELS_COMMON_COUNTER_HASH_H_
#define TFGPUAUG_CC_KERNELS_COMMON_COUNTER_HASH_H_

#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// A 32-bit finaliser of seed and index.
TFGPUAUG_HD uint32_t HashBits(uint32_t seed, uint32_t index) {
  uint32_t x = seed * 0x9E3779B9u ^ (index + 0x7F4A7C15u);
  x ^= x >> 16;
  x *= 0x85EBCA6Bu;
  x ^= x >> 13;
  x *= 0xC2B2AE35u;
  x ^= x >> 16;
  return x;
}

// A counter-based uniform in (0, 1) (HashBits' top 24 bits).
TFGPUAUG_HD float HashUniform(uint32_t seed, uint32_t index) {
  return (static_cast<float>(HashBits(seed, index) >> 8) + 0.5f) * (1.f / 16777216.f);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_COUNTER_HASH_H_
