// GPU launcher of the StainNmf op (its OpKernel is in stain_nmf_kernels.cc): the scratch from the
// op's allocator, the kernel on the op's stream, every argument already on the device.
#if GOOGLE_CUDA
#include "cc/kernels/augment/stain_nmf_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchStainNmf(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  const int batch = static_cast<int>(images.dim_size(0));
  const size_t pixels = size_t(images.dim_size(1)) * images.dim_size(2);
  tensorflow::Tensor scratch;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(
      tensorflow::DT_FLOAT,
      tensorflow::TensorShape({static_cast<int64_t>(StainNmfGpuScratchFloats(batch, pixels))}), &scratch));
  return ToTfStatus(
      StainNmfGpu(images.flat<uint8_t>().data(), batch, pixels, ctx->input(1).flat<float>().data(),
                  scratch.flat<float>().data(), out->flat<float>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
