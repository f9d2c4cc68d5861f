// GPU launchers of the SpatterMud and SpatterRain ops (their OpKernel is in spatter_kernels.cc): the scratch
// from the op's allocator, the kernels on the op's stream, every argument already on the device.
#if GOOGLE_CUDA
#include "cc/kernels/augment/spatter_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchSpatterMud(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  const int batch = static_cast<int>(images.dim_size(0)), h = static_cast<int>(images.dim_size(1)),
            w = static_cast<int>(images.dim_size(2));
  tensorflow::Tensor scratch;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(
      tensorflow::DT_UINT8,
      tensorflow::TensorShape({static_cast<int64_t>(SpatterMudGpuScratchBytes(batch, h, w))}), &scratch));
  const SpatterMudBatch mud{ctx->input(1).flat<double>().data(), ctx->input(2).flat<int32_t>().data(),
                            ctx->input(3).flat<double>().data(), static_cast<int>(ctx->input(3).dim_size(1)),
                            ctx->input(4).flat<float>().data(),  static_cast<int>(ctx->input(4).dim_size(1)),
                            ctx->input(5).flat<double>().data()};
  return ToTfStatus(
      SpatterMudGpu(images.flat<uint8_t>().data(), batch, h, w, mud, scratch.flat<uint8_t>().data(),
                    out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

absl::Status LaunchSpatterRain(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  const int batch = static_cast<int>(images.dim_size(0)), h = static_cast<int>(images.dim_size(1)),
            w = static_cast<int>(images.dim_size(2));
  tensorflow::Tensor scratch;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(
      tensorflow::DT_UINT8,
      tensorflow::TensorShape({static_cast<int64_t>(SpatterRainGpuScratchBytes(batch, h, w))}), &scratch));
  const SpatterMudBatch rain{ctx->input(1).flat<double>().data(),
                             ctx->input(2).flat<int32_t>().data(),
                             ctx->input(3).flat<double>().data(),
                             static_cast<int>(ctx->input(3).dim_size(1)),
                             nullptr,
                             0,
                             ctx->input(4).flat<double>().data()};
  return ToTfStatus(
      SpatterRainGpu(images.flat<uint8_t>().data(), batch, h, w, rain, scratch.flat<uint8_t>().data(),
                     out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
