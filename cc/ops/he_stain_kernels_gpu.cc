// GPU launcher of the HeStain op (its OpKernel is in he_stain_kernels.cc): the kernel on the op's
// stream, every argument already on the device.
#if GOOGLE_CUDA
#include "cc/kernels/augment/he_stain_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchHeStain(GpuDevice, tensorflow::OpKernelContext* ctx, bool background,
                           tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  const HeStainBatch jitter{ctx->input(1).flat<float>().data(),
                            ctx->input(2).flat<double>().data(),
                            ctx->input(3).flat<uint8_t>().data(),
                            ctx->input(4).flat<double>().data(),
                            ctx->input(5).flat<double>().data(),
                            ctx->input(6).flat<double>().data(),
                            ctx->input(7).flat<double>().data(),
                            reinterpret_cast<const uint8_t*>(ctx->input(8).flat<bool>().data()),
                            background};
  return ToTfStatus(HeStainGpu(images.flat<uint8_t>().data(), static_cast<int>(images.dim_size(0)),
                               size_t(images.dim_size(1)) * images.dim_size(2), jitter,
                               out->flat<uint8_t>().data(), GpuStream(ctx)),
                    "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
