// The FlareBlend OpKernel (one class, templated on the device) and its CPU launcher: samples
// over the intra-op pool, each a channel at a time in its thread's scratch. The GPU launcher is in
// flare_blend_kernels_gpu.cc.
#include <cstring>
#include <vector>

#include "cc/kernels/augment/flare_blend_cpu.h"
#include "cc/kernels/augment/separable_blur.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/parallel.h"
#include "cc/ops/pooled_output.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernelContext;
using tensorflow::Tensor;
namespace errors = tensorflow::errors;

absl::Status LaunchFlareBlend(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int h = static_cast<int>(images.dim_size(1)), w = static_cast<int>(images.dim_size(2));
  const int flare_taps = static_cast<int>(ctx->input(4).dim_size(0));
  const int taps = static_cast<int>(ctx->input(5).dim_size(1));
  const size_t per = size_t(h) * w;
  const uint8_t* in = images.flat<uint8_t>().data();
  const int32_t* layer = ctx->input(1).flat<int32_t>().data();
  const int32_t* sun = ctx->input(2).flat<int32_t>().data();
  const bool* apply = ctx->input(3).flat<bool>().data();
  const float* flare_kernel = ctx->input(4).flat<float>().data();
  const float* kernels = ctx->input(5).flat<float>().data();
  uint8_t* o = out->flat<uint8_t>().data();
  ForEachImage(ctx, images.dim_size(0), [&](int64_t s) {
    if (!apply[s]) {
      std::memcpy(o + s * per * 3, in + s * per * 3, per * 3);
      return;
    }
    thread_local std::vector<float> scratch;
    scratch.resize(FlareBlendScratchFloats(h, w, flare_taps, taps));
    FlareBlendCpu(in + s * per * 3, h, w, layer + s * per, sun[2 * s], sun[2 * s + 1], flare_kernel,
                  flare_taps, kernels, taps, scratch.data(), o + s * per * 3);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchFlareBlend(GpuDevice, OpKernelContext* ctx, Tensor* out);
#endif

namespace {

template <typename Device>
class FlareBlendOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  using GuardedOpKernel::GuardedOpKernel;

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& layer = ctx->input(1);
    const Tensor& sun = ctx->input(2);
    const Tensor& apply = ctx->input(3);
    const Tensor& flare_kernel = ctx->input(4);
    const Tensor& kernels = ctx->input(5);
    OP_REQUIRES(ctx,
                images.dims() == 4 && images.dim_size(3) == 3 && images.dim_size(1) < (int64_t{1} << 24) &&
                    images.dim_size(2) < (int64_t{1} << 24) &&
                    images.dim_size(1) * images.dim_size(2) < (int64_t{1} << 31),
                errors::InvalidArgument("need RGB images [N, H, W, 3] of fewer than 2^31 pixels each, got ",
                                        images.shape().DebugString()));
    const int64_t n = images.dim_size(0);
    OP_REQUIRES(ctx,
                layer.dims() == 3 && layer.dim_size(0) == n && layer.dim_size(1) == images.dim_size(1) &&
                    layer.dim_size(2) == images.dim_size(2),
                errors::InvalidArgument("need the packed layer [N, H, W] of the images ",
                                        images.shape().DebugString(), ", got ", layer.shape().DebugString()));
    OP_REQUIRES(ctx, sun.dims() == 2 && sun.dim_size(0) == n && sun.dim_size(1) == 2,
                errors::InvalidArgument("need sun [N, 2] (x, y) for ", n, " images, got ",
                                        sun.shape().DebugString()));
    OP_REQUIRES(
        ctx, apply.dims() == 1 && apply.dim_size(0) == n,
        errors::InvalidArgument("need apply [N] for ", n, " images, got ", apply.shape().DebugString()));
    OP_REQUIRES(ctx,
                flare_kernel.dims() == 1 && flare_kernel.dim_size(0) % 2 == 1 &&
                    flare_kernel.dim_size(0) <= kMaxBlurTaps,
                errors::InvalidArgument("need flare_kernel [T] with T odd and at most ", kMaxBlurTaps,
                                        ", got ", flare_kernel.shape().DebugString()));
    OP_REQUIRES(ctx,
                kernels.dims() == 2 && kernels.dim_size(0) == 3 && kernels.dim_size(1) % 2 == 1 &&
                    kernels.dim_size(1) <= kMaxBlurTaps,
                errors::InvalidArgument("need kernels [3, T] with T odd and at most ", kMaxBlurTaps, ", got ",
                                        kernels.shape().DebugString()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchFlareBlend(Device(), ctx, out));
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>FlareBlend").Device(tensorflow::DEVICE_CPU), FlareBlendOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>FlareBlend").Device(tensorflow::DEVICE_GPU), FlareBlendOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
