// GPU launcher of the FlareBlend op (its OpKernel is in flare_blend_kernels.cc): the float planes
// and the blurs' row passes from allocate_temp, seven launches on the op's stream.
#if GOOGLE_CUDA
#include "cc/kernels/augment/flare_blend_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchFlareBlend(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  const int n = static_cast<int>(images.dim_size(0)), h = static_cast<int>(images.dim_size(1)),
            w = static_cast<int>(images.dim_size(2));
  const tensorflow::TensorShape planes_shape({n, 3, h, w});
  tensorflow::Tensor planes, across;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(tensorflow::DT_FLOAT, planes_shape, &planes));
  TF_RETURN_IF_ERROR(ctx->allocate_temp(tensorflow::DT_FLOAT, planes_shape, &across));
  return ToTfStatus(
      FlareBlendGpu(images.flat<uint8_t>().data(), n, h, w, ctx->input(1).flat<int32_t>().data(),
                    ctx->input(2).flat<int32_t>().data(), ctx->input(3).flat<bool>().data(),
                    ctx->input(4).flat<float>().data(), static_cast<int>(ctx->input(4).dim_size(0)),
                    ctx->input(5).flat<float>().data(), static_cast<int>(ctx->input(5).dim_size(1)),
                    planes.flat<float>().data(), across.flat<float>().data(), out->flat<uint8_t>().data(),
                    GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
