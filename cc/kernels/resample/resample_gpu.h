// CUDA launcher for separable resampling: two passes, each one launch over the whole batch,
// over the same inline math (resample.h) the CPU driver runs.
#ifndef TFGPUAUG_CC_KERNELS_RESAMPLE_RESAMPLE_GPU_H_
#define TFGPUAUG_CC_KERNELS_RESAMPLE_RESAMPLE_GPU_H_

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"
#include "cc/kernels/resample/resample.h"

namespace tfgpuaug {

// Per-sample resampling job: `src` window [src_h, src_w, c] with row stride in elements.
struct ResampleJob {
  const void* src;
  int src_h, src_w;
  long src_row_stride;
  ResampleAxis ay, ax;
  void* out;       // [out_h, out_w, c]
  float* scratch;  // src_h * out_w * c floats
  Epilogue epilogue;
};

// Resamples every job (uint8 or float input/output). `device_jobs` is the job table in device
// memory (read by the kernels after this returns); max_src_h is the tallest job's src_h.
Status ResampleBatchGpu(const ResampleJob* device_jobs, int n, int max_src_h, int c, int out_h, int out_w,
                        bool in_is_float, bool out_is_float, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_RESAMPLE_RESAMPLE_GPU_H_
