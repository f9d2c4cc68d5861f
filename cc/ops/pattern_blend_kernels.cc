// The PatternBlend OpKernel (one class, templated on the device) and its CPU launcher: images
// over the intra-op pool. The GPU launcher is in pattern_blend_kernels_gpu.cc.
#include <cstdint>
#include <string>

#include "cc/kernels/augment/pattern_blend.h"
#include "cc/kernels/augment/pattern_blend_cpu.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/image_batch_checks.h"
#include "cc/ops/parallel.h"
#include "cc/ops/pooled_output.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernelContext;
using tensorflow::Tensor;
namespace errors = tensorflow::errors;

absl::Status LaunchPatternBlend(CpuDevice, OpKernelContext* ctx, PatternBlendMode mode, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int64_t pixels = images.dim_size(1) * images.dim_size(2);
  const int c = static_cast<int>(images.dim_size(3));
  const uint8_t* src = images.flat<uint8_t>().data();
  const float* patterns = ctx->input(1).flat<float>().data();
  const float* factors = ctx->input(2).flat<float>().data();
  uint8_t* dst = out->flat<uint8_t>().data();
  ForEachImage(ctx, images.dim_size(0), [&](int64_t i) {
    PatternBlendCpu(src + i * pixels * c, images.dim_size(1), images.dim_size(2), c, patterns + i * pixels,
                    factors + 2 * i, mode, dst + i * pixels * c);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchPatternBlend(GpuDevice, OpKernelContext* ctx, PatternBlendMode mode, Tensor* out);
#endif

namespace {

template <typename Device>
class PatternBlendOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit PatternBlendOp(tensorflow::OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {
    std::string mode;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("mode", &mode));
    mode_ = mode == "shadow" ? PatternBlendMode::kShadow : PatternBlendMode::kBrightnessContrast;
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    const Tensor& patterns = ctx->input(1);
    OP_REQUIRES(ctx,
                patterns.dims() == 3 && patterns.dim_size(0) == images.dim_size(0) &&
                    patterns.dim_size(1) == images.dim_size(1) && patterns.dim_size(2) == images.dim_size(2),
                errors::InvalidArgument("need patterns [B, H, W] for images ", images.shape().DebugString(),
                                        ", got ", patterns.shape().DebugString()));
    const Tensor& factors = ctx->input(2);
    OP_REQUIRES(ctx,
                factors.dims() == 2 && factors.dim_size(0) == images.dim_size(0) && factors.dim_size(1) == 2,
                errors::InvalidArgument("need factors [B, 2] for images ", images.shape().DebugString(),
                                        ", got ", factors.shape().DebugString()));
    // the fixed-point mean: at most 2^31 values a sample
    OP_REQUIRES(ctx, images.dim_size(1) * images.dim_size(2) * images.dim_size(3) < (int64_t{1} << 31),
                errors::InvalidArgument("images too large for PatternBlend: ", images.shape().DebugString()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchPatternBlend(Device(), ctx, mode_, out));
  }

 private:
  PatternBlendMode mode_ = PatternBlendMode::kShadow;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>PatternBlend").Device(tensorflow::DEVICE_CPU),
                        PatternBlendOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>PatternBlend").Device(tensorflow::DEVICE_GPU),
                        PatternBlendOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
