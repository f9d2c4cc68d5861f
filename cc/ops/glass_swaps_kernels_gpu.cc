// GPU launcher of the GlassSwaps op (its OpKernel is in glass_swaps_kernels.cc): the scratch
// from the op's allocator, the kernels on the op's stream.
#if GOOGLE_CUDA
#include "cc/kernels/augment/glass_swaps_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchGlassSwaps(GpuDevice, tensorflow::OpKernelContext* ctx, int max_delta, int iterations,
                              tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  tensorflow::Tensor before, last;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(tensorflow::DT_UINT8, images.shape(), &before));
  TF_RETURN_IF_ERROR(ctx->allocate_temp(
      tensorflow::DT_INT32,
      tensorflow::TensorShape({images.dim_size(0), images.dim_size(1), images.dim_size(2)}), &last));
  return ToTfStatus(GlassSwapsGpu(images.flat<uint8_t>().data(), ctx->input(1).flat<int32_t>().data(),
                                  ctx->input(2).flat<bool>().data(), static_cast<int>(images.dim_size(0)),
                                  static_cast<int>(images.dim_size(1)), static_cast<int>(images.dim_size(2)),
                                  static_cast<int>(images.dim_size(3)), max_delta, iterations,
                                  before.flat<uint8_t>().data(), last.flat<int32_t>().data(),
                                  out->flat<uint8_t>().data(), GpuStream(ctx)),
                    "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
