// GPU launcher of the FlareBlend op (its OpKernel is in flare_blend_kernels.cc): the faded
// planes and the blur's row pass from allocate_temp, four launches on the op's stream.
#if GOOGLE_CUDA
#include "cc/kernels/augment/flare_blend_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchFlareBlend(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  const tensorflow::Tensor& layer = ctx->input(1);
  tensorflow::Tensor faded, across;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(tensorflow::DT_FLOAT, layer.shape(), &faded));
  TF_RETURN_IF_ERROR(ctx->allocate_temp(tensorflow::DT_FLOAT, layer.shape(), &across));
  return ToTfStatus(FlareBlendGpu(images.flat<uint8_t>().data(), static_cast<int>(images.dim_size(0)),
                                  static_cast<int>(images.dim_size(1)), static_cast<int>(images.dim_size(2)),
                                  layer.flat<float>().data(), ctx->input(2).flat<int32_t>().data(),
                                  ctx->input(3).flat<bool>().data(), ctx->input(4).flat<float>().data(),
                                  static_cast<int>(ctx->input(4).dim_size(1)), faded.flat<float>().data(),
                                  across.flat<float>().data(), out->flat<uint8_t>().data(), GpuStream(ctx)),
                    "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
