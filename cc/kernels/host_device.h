// Marks functions shared verbatim by the CPU drivers and the CUDA kernels.
#ifndef TFGPUAUG_CC_KERNELS_HOST_DEVICE_H_
#define TFGPUAUG_CC_KERNELS_HOST_DEVICE_H_

#if defined(__CUDACC__)
#define TFGA_HD __host__ __device__ __forceinline__
#else
#define TFGA_HD inline
#endif

#endif  // TFGPUAUG_CC_KERNELS_HOST_DEVICE_H_
