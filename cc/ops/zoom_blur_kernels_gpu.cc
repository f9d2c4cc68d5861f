// GPU launcher of the ZoomBlur op (its OpKernel is in zoom_blur_kernels.cc): the scratch from the
// op's allocator, the kernels on the op's stream.
#if GOOGLE_CUDA
#include "cc/kernels/augment/zoom_blur_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchZoomBlur(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  const int batch = static_cast<int>(images.dim_size(0));
  tensorflow::Tensor scratch;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(
      tensorflow::DT_UINT8, tensorflow::TensorShape({static_cast<int64_t>(ZoomBlurGpuScratchBytes(batch))}),
      &scratch));
  return ToTfStatus(
      ZoomBlurGpu(images.flat<uint8_t>().data(), ctx->input(1).flat<double>().data(),
                  ctx->input(2).flat<double>().data(), batch, static_cast<int>(images.dim_size(1)),
                  static_cast<int>(images.dim_size(2)), static_cast<int>(images.dim_size(3)),
                  scratch.flat<uint8_t>().data(), out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
