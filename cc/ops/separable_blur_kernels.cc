// The SeparableBlur OpKernel (one class, templated on the device) and its CPU launcher: planes
// over the intra-op pool, each with its scratch. The GPU launcher is in
// separable_blur_kernels_gpu.cc.
#include <vector>

#include "cc/kernels/augment/separable_blur.h"
#include "cc/kernels/augment/separable_blur_cpu.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/parallel.h"
#include "cc/ops/pooled_output.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernelContext;
using tensorflow::Tensor;
namespace errors = tensorflow::errors;

absl::Status LaunchSeparableBlur(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& planes = ctx->input(0);
  const Tensor& kernels = ctx->input(1);
  const int h = static_cast<int>(planes.dim_size(1)), w = static_cast<int>(planes.dim_size(2));
  const int count = static_cast<int>(kernels.dim_size(0)), taps = static_cast<int>(kernels.dim_size(1));
  const size_t per = size_t(h) * w;
  const float* in = planes.flat<float>().data();
  const float* k = kernels.flat<float>().data();
  float* o = out->flat<float>().data();
  ForEachImage(ctx, planes.dim_size(0), [&](int64_t p) {
    thread_local std::vector<float> scratch;
    scratch.resize(SeparableBlurScratchFloats(h, w, taps));
    SeparableBlurCpu(in + p * per, h, w, k + size_t(p % count) * taps, taps, scratch.data(), o + p * per);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchSeparableBlur(GpuDevice, OpKernelContext* ctx, Tensor* out);
#endif

namespace {

template <typename Device>
class SeparableBlurOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  using GuardedOpKernel::GuardedOpKernel;

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& planes = ctx->input(0);
    const Tensor& kernels = ctx->input(1);
    OP_REQUIRES(ctx,
                planes.dims() == 3 && planes.dim_size(1) < (int64_t{1} << 24) &&
                    planes.dim_size(2) < (int64_t{1} << 24) &&
                    planes.dim_size(1) * planes.dim_size(2) < (int64_t{1} << 31),
                errors::InvalidArgument("need float planes [P, H, W] of fewer than 2^31 values each, got ",
                                        planes.shape().DebugString()));
    OP_REQUIRES(ctx,
                kernels.dims() == 2 && kernels.dim_size(0) >= 1 && kernels.dim_size(1) % 2 == 1 &&
                    kernels.dim_size(1) <= kMaxBlurTaps,
                errors::InvalidArgument("need kernels [K >= 1, T] with T odd and at most ", kMaxBlurTaps,
                                        ", got ", kernels.shape().DebugString()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, planes.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchSeparableBlur(Device(), ctx, out));
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>SeparableBlur").Device(tensorflow::DEVICE_CPU),
                        SeparableBlurOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>SeparableBlur").Device(tensorflow::DEVICE_GPU),
                        SeparableBlurOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
