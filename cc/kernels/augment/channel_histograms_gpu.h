// CUDA launcher of the per-channel level histograms (channel_histograms_cpu.h's counts).
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_CHANNEL_HISTOGRAMS_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_CHANNEL_HISTOGRAMS_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// counts [batch, c, 256] (device) of images [batch, pixels, c] (device).
Status ChannelHistogramsGpu(const uint8_t* images, int batch, int64_t pixels, int c, int32_t* counts,
                            cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_CHANNEL_HISTOGRAMS_GPU_H_
