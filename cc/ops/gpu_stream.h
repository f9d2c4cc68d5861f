// The CUDA stream TensorFlow runs a GPU OpKernel on.
#ifndef TFGPUAUG_CC_OPS_GPU_STREAM_H_
#define TFGPUAUG_CC_OPS_GPU_STREAM_H_

#if GOOGLE_CUDA
#include <cuda_runtime_api.h>

#include "tensorflow/core/framework/op_kernel.h"
#include "xla/stream_executor/stream.h"

namespace tfgpuaug {

inline cudaStream_t GpuStream(tensorflow::OpKernelContext* ctx) {
  return reinterpret_cast<cudaStream_t>(
      ctx->op_device_context()->stream()->platform_specific_handle().stream);
}

}  // namespace tfgpuaug

#endif  // GOOGLE_CUDA
#endif  // TFGPUAUG_CC_OPS_GPU_STREAM_H_
