// The TissuePlane OpKernel (one class, templated on the device) and its CPU launcher: images over
// the intra-op pool. The GPU launcher is in tissue_plane_kernels_gpu.cc.
#include <cstdint>

#include "cc/kernels/augment/tissue_plane_cpu.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/image_batch_checks.h"
#include "cc/ops/parallel.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernelContext;
using tensorflow::Tensor;
namespace errors = tensorflow::errors;

absl::Status LaunchTissuePlane(CpuDevice, OpKernelContext* ctx, Tensor** outs) {
  const Tensor& images = ctx->input(0);
  const size_t pixels = size_t(images.dim_size(1)) * images.dim_size(2);
  const uint8_t* src = images.flat<uint8_t>().data();
  const float* densities = ctx->input(1).flat<float>().data();
  double* planes = outs[0]->flat<double>().data();
  double* coordinates = outs[1]->flat<double>().data();
  float* keys = outs[2]->flat<float>().data();
  bool* tissue = outs[3]->flat<bool>().data();
  int32_t* counts = outs[4]->flat<int32_t>().data();
  ForEachImage(ctx, images.dim_size(0), [&](int64_t i) {
    counts[i] = static_cast<int32_t>(TissuePlaneCpu(src + i * pixels * 3, pixels, densities, planes + 6 * i,
                                                    coordinates + 2 * i * pixels, keys + i * pixels,
                                                    tissue + i * pixels));
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchTissuePlane(GpuDevice, OpKernelContext* ctx, Tensor** outs);
#endif

namespace {

template <typename Device>
class TissuePlaneOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit TissuePlaneOp(tensorflow::OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {}

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    OP_REQUIRES(
        ctx, images.dim_size(3) == 3 && ctx->input(1).shape() == tensorflow::TensorShape({256}),
        errors::InvalidArgument("TissuePlane needs RGB images [B, H, W, 3] and densities [256]; got ",
                                images.shape().DebugString(), " and ", ctx->input(1).shape().DebugString()));
    const int64_t b = images.dim_size(0), n = images.dim_size(1) * images.dim_size(2);
    // a block an image on the GPU; the counts are int32
    OP_REQUIRES(ctx, b < (int64_t{1} << 24) && n < (int64_t{1} << 31),
                errors::InvalidArgument("TissuePlane takes at most 2^24 images of under 2^31 pixels, got ",
                                        images.shape().DebugString()));
    Tensor* outs[5] = {};
    const tensorflow::TensorShape shapes[5] = {{b, 3, 2}, {b, n, 2}, {b, n}, {b, n}, {b}};
    for (int i = 0; i < 5; ++i) OP_REQUIRES_OK(ctx, ctx->allocate_output(i, shapes[i], &outs[i]));
    if (b == 0) return;
    OP_REQUIRES_OK(ctx, LaunchTissuePlane(Device(), ctx, outs));
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>TissuePlane").Device(tensorflow::DEVICE_CPU),
                        TissuePlaneOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>TissuePlane").Device(tensorflow::DEVICE_GPU),
                        TissuePlaneOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
