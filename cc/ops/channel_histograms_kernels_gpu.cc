// GPU launcher of the ChannelHistograms op (its OpKernel is in channel_histograms_kernels.cc):
// the kernels on the op's stream.
#if GOOGLE_CUDA
#include "cc/kernels/augment/channel_histograms_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchChannelHistograms(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  return ToTfStatus(
      ChannelHistogramsGpu(images.flat<uint8_t>().data(), static_cast<int>(images.dim_size(0)),
                           images.dim_size(1) * images.dim_size(2), static_cast<int>(images.dim_size(3)),
                           out->flat<int32_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
