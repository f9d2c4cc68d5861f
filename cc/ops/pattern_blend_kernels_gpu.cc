// GPU launcher of the PatternBlend op (its OpKernel is in pattern_blend_kernels.cc): the means'
// sums from the op's allocator, the kernels on the op's stream.
#if GOOGLE_CUDA
#include "cc/kernels/augment/pattern_blend_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchPatternBlend(GpuDevice, tensorflow::OpKernelContext* ctx, PatternBlendMode mode,
                                tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  tensorflow::Tensor sums;
  TF_RETURN_IF_ERROR(
      ctx->allocate_temp(tensorflow::DT_UINT64, tensorflow::TensorShape({images.dim_size(0)}), &sums));
  return ToTfStatus(
      PatternBlendGpu(images.flat<uint8_t>().data(), static_cast<int>(images.dim_size(0)),
                      images.dim_size(1) * images.dim_size(2), static_cast<int>(images.dim_size(3)),
                      ctx->input(1).flat<float>().data(), ctx->input(2).flat<float>().data(), mode,
                      reinterpret_cast<unsigned long long*>(sums.flat<uint64_t>().data()),
                      out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
