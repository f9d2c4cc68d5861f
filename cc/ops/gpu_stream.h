// The CUDA stream TensorFlow runs a GPU OpKernel on, and the two stream-ordered lifetimes a
// GPU OpKernel needs: host buffers that an asynchronous copy still reads after Compute
// returns are held until the stream has passed the copy (TensorFlow's event manager, as
// tensorflow/core/kernels/gpu_device_array.h does), never freed under it.
#ifndef TFGPUAUG_CC_OPS_GPU_STREAM_H_
#define TFGPUAUG_CC_OPS_GPU_STREAM_H_

#if GOOGLE_CUDA
#include <cuda_runtime_api.h>

#include <cstring>

#include "cc/kernels/common/cuda_launch.h"
#include "cc/ops/decode_common.h"
#include "tensorflow/core/common_runtime/device/device_event_mgr.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/tensor_reference.h"
#include "xla/stream_executor/stream.h"

namespace tfgpuaug {

inline cudaStream_t GpuStream(tensorflow::OpKernelContext* ctx) {
  return reinterpret_cast<cudaStream_t>(
      ctx->op_device_context()->stream()->platform_specific_handle().stream);
}

// Keeps `t`'s buffer alive until the op's stream has passed everything queued on it so far.
inline void HoldUntilStreamPasses(tensorflow::OpKernelContext* ctx, const tensorflow::Tensor& t) {
  tensorflow::TensorReference ref(t);
  ctx->device()->tensorflow_accelerator_device_info()->event_mgr->ThenExecute(
      ctx->op_device_context()->stream(), [ref]() { ref.Unref(); });
}

// Page-locked host memory from TensorFlow's GPU host allocator, for asynchronous copies.
inline absl::Status AllocatePinned(tensorflow::OpKernelContext* ctx, int64_t bytes, tensorflow::Tensor* t) {
  tensorflow::AllocatorAttributes pinned;
  pinned.set_on_host(true);
  pinned.set_gpu_compatible(true);
  return ctx->allocate_temp(tensorflow::DT_UINT8, tensorflow::TensorShape({bytes}), t, pinned);
}

// Copies `bytes` of host data (which the caller may free at once) into a new device temp on
// the op's stream: through pinned staging that is held until the copy has run.
inline absl::Status UploadToGpu(tensorflow::OpKernelContext* ctx, const void* host, int64_t bytes,
                                tensorflow::Tensor* device) {
  TF_RETURN_IF_ERROR(ctx->allocate_temp(tensorflow::DT_UINT8, tensorflow::TensorShape({bytes}), device));
  if (bytes == 0) return absl::OkStatus();
  tensorflow::Tensor staging;
  TF_RETURN_IF_ERROR(AllocatePinned(ctx, bytes, &staging));
  std::memcpy(staging.data(), host, bytes);
  TF_RETURN_IF_ERROR(ToTfStatus(CudaStatus(cudaMemcpyAsync(device->data(), staging.data(), bytes,
                                                           cudaMemcpyHostToDevice, GpuStream(ctx)),
                                           "uploading kernel arguments"),
                                ""));
  HoldUntilStreamPasses(ctx, staging);
  return absl::OkStatus();
}

}  // namespace tfgpuaug

#endif  // GOOGLE_CUDA
#endif  // TFGPUAUG_CC_OPS_GPU_STREAM_H_
