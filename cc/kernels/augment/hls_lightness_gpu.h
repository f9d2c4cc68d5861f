// CUDA launcher of the HLS lightness edit (hls8.h): one thread a pixel.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_HLS_LIGHTNESS_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_HLS_LIGHTNESS_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// RGB images [batch, pixels, 3] (device) through lightness tables [table_sets, 256]
// (table_sets 1: shared by the batch) and per-pixel levels [batch, pixels] (null: none) into out.
Status HlsLightnessGpu(const uint8_t* images, int batch, int64_t pixels, const int32_t* tables,
                       int table_sets, const int32_t* levels, uint8_t* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_HLS_LIGHTNESS_GPU_H_
