// Attribute and argument checks of the augment OpKernel (one class for both devices), and the
// per-device launchers it calls: the CPU's in augment_kernels.cc, the GPU's in
// augment_kernels_gpu.cc.
#ifndef TFGPUAUG_CC_OPS_AUGMENT_COMMON_H_
#define TFGPUAUG_CC_OPS_AUGMENT_COMMON_H_

#include <string>

#include "cc/kernels/augment/augment.h"
#include "cc/ops/device_tags.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

inline absl::Status ReadAugmentAttrs(tensorflow::OpKernelConstruction* ctx, float* fill,
                                     Interpolation* interpolation) {
  std::string interp;
  TF_RETURN_IF_ERROR(ctx->GetAttr("fill_value", fill));
  TF_RETURN_IF_ERROR(ctx->GetAttr("interpolation", &interp));
  *interpolation = interp == "nearest" ? Interpolation::kNearest : Interpolation::kBilinear;
  return absl::OkStatus();
}

// Checks images [B,H,W,C] (C <= 4), op_ids and magnitudes [B,K], aux [B,K,2].
inline absl::Status CheckAugmentInputs(tensorflow::OpKernelContext* ctx) {
  const tensorflow::Tensor& images = ctx->input(0);
  const tensorflow::Tensor& ops = ctx->input(1);
  const tensorflow::Tensor& aux = ctx->input(3);
  const bool ok = images.dims() == 4 && ops.dims() == 2 && ops.dim_size(0) == images.dim_size(0) &&
                  ctx->input(2).shape() == ops.shape() && aux.dims() == 3 &&
                  aux.dim_size(0) == ops.dim_size(0) && aux.dim_size(1) == ops.dim_size(1) &&
                  aux.dim_size(2) == 2;
  if (!ok) {
    return tensorflow::errors::InvalidArgument(
        "expected images [B,H,W,C], op_ids and magnitudes [B,K], aux [B,K,2]");
  }
  if (images.dim_size(3) > 4) {
    return tensorflow::errors::InvalidArgument("augment supports at most 4 channels");
  }
  auto ids = ops.flat<int32_t>();  // in host memory on every device
  for (int64_t i = 0; i < ids.size(); ++i) {
    if (ids(i) < 0 || ids(i) >= int(AugmentOp::kNumOps)) {
      return tensorflow::errors::InvalidArgument("sample ", i / ops.dim_size(1),
                                                 ": unknown augmentation op id ", ids(i));
    }
  }
  return absl::OkStatus();
}

inline AugmentImage ImageOf(const tensorflow::Tensor& images, float fill, Interpolation interpolation) {
  return AugmentImage{static_cast<int>(images.dim_size(1)), static_cast<int>(images.dim_size(2)),
                      static_cast<int>(images.dim_size(3)), fill, interpolation};
}

// Writes every sample of ctx's inputs through its stages into `out` (allocated, images' shape).
absl::Status LaunchAugment(CpuDevice, tensorflow::OpKernelContext* ctx, const AugmentImage& image_info,
                           tensorflow::Tensor* out);
#if GOOGLE_CUDA
absl::Status LaunchAugment(GpuDevice, tensorflow::OpKernelContext* ctx, const AugmentImage& image_info,
                           tensorflow::Tensor* out);
#endif

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_AUGMENT_COMMON_H_
