// GPU launcher of the Filter2D op (its OpKernel is in filter2d_kernels.cc): the kernels' plans
// (reach, plateau) in scratch from allocate_temp, two launches on the op's stream.
#if GOOGLE_CUDA
#include "cc/kernels/augment/filter2d.h"
#include "cc/kernels/augment/filter2d_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchFilter2D(GpuDevice, tensorflow::OpKernelContext* ctx, bool ties_up, bool symmetric,
                            tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  tensorflow::Tensor plans;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(
      tensorflow::DT_INT32, tensorflow::TensorShape({images.dim_size(0), kFilter2DPlanInts}), &plans));
  return ToTfStatus(Filter2DGpu(images.flat<uint8_t>().data(), static_cast<int>(images.dim_size(0)),
                                static_cast<int>(images.dim_size(1)), static_cast<int>(images.dim_size(2)),
                                static_cast<int>(images.dim_size(3)), ctx->input(1).flat<float>().data(),
                                static_cast<int>(ctx->input(1).dim_size(1)), ties_up, symmetric,
                                plans.flat<int32_t>().data(), out->flat<uint8_t>().data(), GpuStream(ctx)),
                    "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
