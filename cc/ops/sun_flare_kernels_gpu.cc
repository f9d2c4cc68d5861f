// GPU launcher of the SunFlare op (its OpKernel is in sun_flare_kernels.cc): the kernel on the
// op's stream, every argument already on the device.
#if GOOGLE_CUDA
#include "cc/kernels/augment/sun_flare_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchSunFlare(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  const SunFlareBatch flares{
      ctx->input(1).flat<int32_t>().data(), ctx->input(2).flat<float>().data(),
      ctx->input(3).flat<uint8_t>().data(), static_cast<int>(ctx->input(1).dim_size(1)),
      ctx->input(4).flat<int32_t>().data(), ctx->input(5).flat<int32_t>().data(),
      ctx->input(6).flat<float>().data(),   static_cast<int>(ctx->input(5).dim_size(0)),
      ctx->input(7).flat<uint8_t>().data()};
  return ToTfStatus(
      SunFlareGpu(images.flat<uint8_t>().data(), static_cast<int>(images.dim_size(0)),
                  static_cast<int>(images.dim_size(1)), static_cast<int>(images.dim_size(2)),
                  static_cast<int>(images.dim_size(3)), flares, out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
