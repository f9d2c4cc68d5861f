// GPU launcher of the Superpixels op (its OpKernel is in superpixels_kernels.cc): the scratch from
// the op's allocator, the kernel on the op's stream, every argument already on the device.
#if GOOGLE_CUDA
#include "cc/kernels/augment/superpixels_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchSuperpixels(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  const int batch = static_cast<int>(images.dim_size(0)), h = static_cast<int>(images.dim_size(1)),
            w = static_cast<int>(images.dim_size(2)), c = static_cast<int>(images.dim_size(3));
  const int m = static_cast<int>(ctx->input(2).dim_size(1));
  tensorflow::Tensor scratch;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(
      tensorflow::DT_UINT8,
      tensorflow::TensorShape({static_cast<int64_t>(SuperpixelsGpuScratchBytes(batch, h, w, c, m))}),
      &scratch));
  return ToTfStatus(
      SuperpixelsGpu(images.flat<uint8_t>().data(), batch, h, w, c, ctx->input(1).flat<int32_t>().data(),
                     reinterpret_cast<const uint8_t*>(ctx->input(2).flat<bool>().data()), m,
                     scratch.flat<uint8_t>().data(), out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
