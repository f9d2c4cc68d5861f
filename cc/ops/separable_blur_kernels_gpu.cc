// GPU launcher of the SeparableBlur op (its OpKernel is in separable_blur_kernels.cc): the row
// pass's plane from allocate_temp, two launches on the op's stream.
#if GOOGLE_CUDA
#include "cc/kernels/augment/separable_blur_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchSeparableBlur(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& planes = ctx->input(0);
  const tensorflow::Tensor& kernels = ctx->input(1);
  tensorflow::Tensor across;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(tensorflow::DT_FLOAT, planes.shape(), &across));
  return ToTfStatus(
      SeparableBlurGpu(planes.flat<float>().data(), static_cast<int>(planes.dim_size(0)),
                       static_cast<int>(planes.dim_size(1)), static_cast<int>(planes.dim_size(2)),
                       kernels.flat<float>().data(), static_cast<int>(kernels.dim_size(0)),
                       static_cast<int>(kernels.dim_size(1)), across.flat<float>().data(),
                       out->flat<float>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
