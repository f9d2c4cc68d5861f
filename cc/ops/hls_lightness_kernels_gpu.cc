// GPU launcher of the HlsLightness op (its OpKernel is in hls_lightness_kernels.cc): one launch
// on the op's stream.
#if GOOGLE_CUDA
#include "cc/kernels/augment/hls_lightness_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchHlsLightness(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  const tensorflow::Tensor& tables = ctx->input(1);
  const tensorflow::Tensor& levels = ctx->input(2);
  return ToTfStatus(HlsLightnessGpu(images.flat<uint8_t>().data(), static_cast<int>(images.dim_size(0)),
                                    images.dim_size(1) * images.dim_size(2), tables.flat<int32_t>().data(),
                                    static_cast<int>(tables.dim_size(0)),
                                    levels.NumElements() == 0 ? nullptr : levels.flat<int32_t>().data(),
                                    out->flat<uint8_t>().data(), GpuStream(ctx)),
                    "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
