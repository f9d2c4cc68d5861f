// CUDA launchers for resampling, crop-mirror-normalize, flip and affine warp. Each kernel
// is a grid-stride loop over the same inline per-element math the CPU drivers run.
#ifndef TFGPUAUG_CC_KERNELS_GEOMETRY_GPU_H_
#define TFGPUAUG_CC_KERNELS_GEOMETRY_GPU_H_

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/geometry.h"
#include "cc/kernels/normalize.h"
#include "cc/kernels/resample.h"
#include "cc/kernels/status.h"

namespace tfgpuaug {

// Per-sample resampling job: `src` window [src_h, src_w, c] with row stride in elements.
struct ResampleJob {
  const void* src;
  int src_h, src_w;
  long src_row_stride;
  ResampleAxis ay, ax;
  void* out;        // [out_h, out_w, c]
  float* scratch;   // src_h * out_w * c floats
  Epilogue epilogue;
};

// Resamples every job (uint8 or float input/output), two passes per job.
Status ResampleBatchGpu(const ResampleJob* jobs, int n, int c, int out_h, int out_w,
                        bool in_is_float, bool out_is_float, cudaStream_t stream);

// Per-sample parameters live in device memory: offsets [B, 2] (y0, x0) and mirror [B].
Status CropMirrorNormalizeGpu(const uint8_t* images, int batch, const CmnParams& p,
                              const int32_t* offsets, const bool* mirror, const float* mean4,
                              const float* inv_std4, void* out, cudaStream_t stream);

Status FlipGpu(const uint8_t* images, int batch, int h, int w, int c, size_t element_bytes,
               const bool* horizontal, const bool* vertical, uint8_t* out, cudaStream_t stream);

Status WarpAffineGpu(const uint8_t* images, int batch, const AffineParams& p,
                     const float* matrices, uint8_t* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_GEOMETRY_GPU_H_
