// The SpatterMud and SpatterRain OpKernels (one class, templated on the device and the mode)
// and their CPU launchers: images over the intra-op pool. The GPU launchers are in
// spatter_kernels_gpu.cc.
#include <cstdint>
#include <vector>

#include "cc/kernels/augment/spatter.h"
#include "cc/kernels/augment/spatter_cpu.h"
#include "cc/kernels/augment/spatter_rain_cpu.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/image_batch_checks.h"
#include "cc/ops/parallel.h"
#include "cc/ops/pooled_output.h"
#include "cc/ops/thread_scratch.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernelContext;
using tensorflow::Tensor;
namespace errors = tensorflow::errors;

absl::Status LaunchSpatterMud(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int h = static_cast<int>(images.dim_size(1)), w = static_cast<int>(images.dim_size(2));
  const int t1 = static_cast<int>(ctx->input(3).dim_size(1)),
            t2 = static_cast<int>(ctx->input(4).dim_size(1));
  const size_t bytes = size_t(h) * w * 3;
  const uint8_t* src = images.flat<uint8_t>().data();
  const double* params = ctx->input(1).flat<double>().data();
  const int32_t* seeds = ctx->input(2).flat<int32_t>().data();
  const double* taps1 = ctx->input(3).flat<double>().data();
  const float* taps2 = ctx->input(4).flat<float>().data();
  const double* colour = ctx->input(5).flat<double>().data();
  uint8_t* dst = out->flat<uint8_t>().data();
  ForEachImage(ctx, images.dim_size(0), [&](int64_t i) {
    const SpatterMudPlan plan{{params[4 * i], params[4 * i + 1], params[4 * i + 2], params[4 * i + 3]},
                              static_cast<uint32_t>(seeds[i]),
                              taps1 + i * t1,
                              t1,
                              taps2 + i * t2,
                              t2,
                              colour};
    std::vector<uint8_t> own;
    SpatterMudCpu(src + i * bytes, h, w, plan, PoolThreadScratch(SpatterScratchBytes(h, w), own),
                  dst + i * bytes);
  });
  return absl::OkStatus();
}

absl::Status LaunchSpatterRain(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int h = static_cast<int>(images.dim_size(1)), w = static_cast<int>(images.dim_size(2));
  const int t1 = static_cast<int>(ctx->input(3).dim_size(1));
  const size_t bytes = size_t(h) * w * 3;
  const uint8_t* src = images.flat<uint8_t>().data();
  const double* params = ctx->input(1).flat<double>().data();
  const int32_t* seeds = ctx->input(2).flat<int32_t>().data();
  const double* taps1 = ctx->input(3).flat<double>().data();
  const double* colour = ctx->input(4).flat<double>().data();
  uint8_t* dst = out->flat<uint8_t>().data();
  ForEachImage(ctx, images.dim_size(0), [&](int64_t i) {
    const SpatterRainPlan plan{{params[4 * i], params[4 * i + 1], params[4 * i + 2], params[4 * i + 3]},
                               static_cast<uint32_t>(seeds[i]),
                               taps1 + i * t1,
                               t1,
                               colour};
    std::vector<uint8_t> own;
    SpatterRainCpu(src + i * bytes, h, w, plan, PoolThreadScratch(SpatterRainScratchBytes(h, w), own),
                   dst + i * bytes);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchSpatterMud(GpuDevice, OpKernelContext* ctx, Tensor* out);
absl::Status LaunchSpatterRain(GpuDevice, OpKernelContext* ctx, Tensor* out);
#endif

namespace {

// kRain: SpatterRain (images, params, seeds, liquid_taps, colour); else SpatterMud, which takes
// mask_taps before the colour.
template <typename Device, bool kRain>
class SpatterOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit SpatterOp(tensorflow::OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {}

  void ComputeGuarded(OpKernelContext* ctx) override {
    const char* name = kRain ? "SpatterRain" : "SpatterMud";
    const Tensor& images = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    const int64_t b = images.dim_size(0), h = images.dim_size(1), w = images.dim_size(2);
    OP_REQUIRES(
        ctx, images.dim_size(3) == 3,
        errors::InvalidArgument(name, " takes RGB images [B, H, W, 3], got ", images.shape().DebugString()));
    const int colour_input = kRain ? 4 : 5;
    const int64_t t1 = ctx->input(3).dims() == 2 ? ctx->input(3).dim_size(1) : -1;
    const int64_t t2 = kRain ? 1 : (ctx->input(4).dims() == 2 ? ctx->input(4).dim_size(1) : -1);
    const auto is = [&](int i, std::initializer_list<int64_t> dims) {
      return ctx->input(i).shape() == tensorflow::TensorShape(dims);
    };
    const auto odd_frame = [](int64_t t) { return t > 0 && t % 2 == 1 && t <= kMaxSpatterTaps; };
    OP_REQUIRES(
        ctx,
        is(1, {b, 4}) && is(2, {b}) && odd_frame(t1) && is(3, {b, t1}) && odd_frame(t2) &&
            (kRain || is(4, {b, t2})) && is(colour_input, {3}),
        errors::InvalidArgument(
            name, " needs params [B, 4], seeds [B], liquid_taps [B, T1]", kRain ? "" : ", mask_taps [B, T2]",
            " (odd, at most ", kMaxSpatterTaps, ") and colour [3] for images ", images.shape().DebugString(),
            "; got ", ctx->input(1).shape().DebugString(), ", ", ctx->input(2).shape().DebugString(), ", ",
            ctx->input(3).shape().DebugString(), ", ", ctx->input(4).shape().DebugString()));
    // the noise and the permutation count pixels in 32 bits; the GPU kernels take the batch as an int
    OP_REQUIRES(
        ctx, h <= kMaxSpatterSide && w <= kMaxSpatterSide && h * w <= kMaxSpatterPixels && b < (1 << 24),
        errors::InvalidArgument(name, " takes images of at most ", kMaxSpatterPixels, " pixels (sides up to ",
                                kMaxSpatterSide, ") and 2^24 a batch, got ", images.shape().DebugString()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, kRain ? LaunchSpatterRain(Device(), ctx, out) : LaunchSpatterMud(Device(), ctx, out));
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>SpatterMud").Device(tensorflow::DEVICE_CPU),
                        SpatterOp<CpuDevice, false>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>SpatterRain").Device(tensorflow::DEVICE_CPU),
                        SpatterOp<CpuDevice, true>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>SpatterMud").Device(tensorflow::DEVICE_GPU),
                        SpatterOp<GpuDevice, false>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>SpatterRain").Device(tensorflow::DEVICE_GPU),
                        SpatterOp<GpuDevice, true>);
#endif

}  // namespace
}  // namespace tfgpuaug
