// GPU launcher of the TissuePlane op (its OpKernel is in tissue_plane_kernels.cc): the kernel on
// the op's stream, every argument already on the device.
#if GOOGLE_CUDA
#include "cc/kernels/augment/tissue_plane_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchTissuePlane(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor** outs) {
  const tensorflow::Tensor& images = ctx->input(0);
  return ToTfStatus(
      TissuePlaneGpu(images.flat<uint8_t>().data(), static_cast<int>(images.dim_size(0)),
                     size_t(images.dim_size(1)) * images.dim_size(2), ctx->input(1).flat<float>().data(),
                     outs[0]->flat<double>().data(), outs[1]->flat<double>().data(),
                     outs[2]->flat<float>().data(), outs[3]->flat<bool>().data(),
                     outs[4]->flat<int32_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
