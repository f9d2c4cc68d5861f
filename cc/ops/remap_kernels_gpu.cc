// GPU launchers of the Remap and RemapAffine ops (its OpKernel is in remap_kernels.cc).
#if GOOGLE_CUDA
#include "cc/kernels/warp/remap_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/gpu_stream.h"
#include "cc/ops/remap_common.h"

namespace tfgpuaug {

absl::Status LaunchRemap(GpuDevice, tensorflow::OpKernelContext* ctx, const RemapParams& p,
                         tensorflow::Tensor* out) {
  return ToTfStatus(
      RemapGpu(ctx->input(0).flat<uint8_t>().data(), static_cast<int>(ctx->input(0).dim_size(0)), p,
               ctx->input(1).flat<float>().data(), out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

absl::Status LaunchRemapAffine(GpuDevice, tensorflow::OpKernelContext* ctx, const RemapParams& p,
                               tensorflow::Tensor* out) {
  return ToTfStatus(
      RemapAffineGpu(ctx->input(0).flat<uint8_t>().data(), static_cast<int>(ctx->input(0).dim_size(0)), p,
                     ctx->input(1).flat<float>().data(), out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
