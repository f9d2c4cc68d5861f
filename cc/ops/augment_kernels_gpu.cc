// GPU launcher of the augment op (its OpKernel is in augment_kernels.cc): the op ids, checked
// on the host, go up through UploadToGpu; the magnitudes and aux draws are device inputs.
#if GOOGLE_CUDA
#include "cc/kernels/augment/augment_gpu.h"
#include "cc/ops/augment_common.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernelContext;
using tensorflow::Tensor;
using tensorflow::TensorShape;

absl::Status LaunchAugment(GpuDevice, OpKernelContext* ctx, const AugmentImage& image_info, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const Tensor& ops = ctx->input(1);
  const int64_t n = images.dim_size(0);
  Tensor device_ops, scratch;
  TF_RETURN_IF_ERROR(UploadToGpu(ctx, ops.data(), ops.TotalBytes(), &device_ops));
  const size_t image_bytes = size_t(image_info.h) * image_info.w * image_info.c;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(
      tensorflow::DT_UINT8,
      TensorShape({static_cast<int64_t>(AugmentGpuScratchBytes(n, image_bytes, ops.flat<int32_t>().data(),
                                                               static_cast<int>(ops.dim_size(1))))}),
      &scratch));
  return ToTfStatus(
      AugmentBatchGpu(images.flat<uint8_t>().data(), static_cast<int>(n), image_info,
                      reinterpret_cast<const int32_t*>(device_ops.data()), ops.flat<int32_t>().data(),
                      ctx->input(2).flat<float>().data(), ctx->input(3).flat<float>().data(),
                      static_cast<int>(ops.dim_size(1)), scratch.flat<uint8_t>().data(),
                      out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
