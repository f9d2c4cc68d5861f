// CUDA launcher for remap: one thread per output pixel over the per-pixel sampling (remap.h)
// the CPU driver runs.
#ifndef TFGPUAUG_CC_KERNELS_WARP_REMAP_GPU_H_
#define TFGPUAUG_CC_KERNELS_WARP_REMAP_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"
#include "cc/kernels/warp/remap.h"

namespace tfgpuaug {

// images [batch, in_h, in_w, c], maps [batch, out_h, out_w, 2] -> out [batch, out_h, out_w, c].
Status RemapGpu(const uint8_t* images, int batch, const RemapParams& p, const float* maps, uint8_t* out,
                cudaStream_t stream);

// images [batch, in_h, in_w, c], matrices [batch, 2, 3] (AffineMapEntry) -> out [batch, out_h, out_w, c].
Status RemapAffineGpu(const uint8_t* images, int batch, const RemapParams& p, const float* matrices,
                      uint8_t* out, cudaStream_t stream);

// images [batch, h, w, c], coefficients [batch, 2] (RadialMapEntry) -> out [batch, h, w, c].
// images [batch, h, w, c], coefficients [batch, c, 2] (each channel its own RadialMapEntry) -> out.
Status RemapRadialChannelsGpu(const uint8_t* images, int batch, const RemapParams& p,
                              const float* coefficients, uint8_t* out, cudaStream_t stream);

Status RemapRadialGpu(const uint8_t* images, int batch, const RemapParams& p, const float* coefficients,
                      uint8_t* out, cudaStream_t stream);

// images [batch, in_h, in_w, c]; rows: index [batch, out_h, 2], weight [batch, out_h]; cols likewise
// [batch, out_w] -> out [batch, out_h, out_w, c] (SeparablePixel).
Status SeparableResampleGpu(const uint8_t* images, int batch, int in_h, int in_w, int c, SeparableTaps rows,
                            int out_h, SeparableTaps cols, int out_w, uint8_t fill, uint8_t* out,
                            cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_REMAP_GPU_H_
