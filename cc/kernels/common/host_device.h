// Marks functions shared verbatim by the CPU drivers and the CUDA kernels.
#ifndef TFGPUAUG_CC_KERNELS_COMMON_HOST_DEVICE_H_
#define TFGPUAUG_CC_KERNELS_COMMON_HOST_DEVICE_H_

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define TFGPUAUG_HD __host__ __device__ __forceinline__
#else
#define TFGPUAUG_HD inline
#endif

namespace tfgpuaug {

TFGPUAUG_HD uint32_t FloatBits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
#endif
}

TFGPUAUG_HD float FloatFromBits(uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, 4);
  return f;
#endif
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_HOST_DEVICE_H_
