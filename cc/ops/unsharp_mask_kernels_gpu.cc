// GPU launcher of the UnsharpMask op (its OpKernel is in unsharp_mask_kernels.cc): the two
// scratch planes from allocate_temp, the four passes on the op's stream.
#if GOOGLE_CUDA
#include "cc/kernels/augment/unsharp_mask_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchUnsharpMask(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  const int b = static_cast<int>(images.dim_size(0)), h = static_cast<int>(images.dim_size(1)),
            w = static_cast<int>(images.dim_size(2)), c = static_cast<int>(images.dim_size(3));
  tensorflow::Tensor scratch;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(
      tensorflow::DT_FLOAT,
      tensorflow::TensorShape({static_cast<int64_t>(UnsharpScratchFloatsGpu(b, h, w, c))}), &scratch));
  return ToTfStatus(
      UnsharpMaskGpu(images.flat<uint8_t>().data(), b, h, w, c, ctx->input(1).flat<float>().data(),
                     static_cast<int>(ctx->input(1).dim_size(1)), ctx->input(2).flat<float>().data(),
                     ctx->input(3).flat<float>().data(), scratch.flat<float>().data(),
                     out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
