// The SunFlare OpKernel (one class, templated on the device) and its CPU launcher: images over
// the intra-op pool. The GPU launcher is in sun_flare_kernels_gpu.cc.
#include <cstdint>
#include <vector>

#include "cc/kernels/augment/sun_flare.h"
#include "cc/kernels/augment/sun_flare_cpu.h"
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

absl::Status LaunchSunFlare(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int h = static_cast<int>(images.dim_size(1)), w = static_cast<int>(images.dim_size(2));
  const int c = static_cast<int>(images.dim_size(3));
  const int n = static_cast<int>(ctx->input(1).dim_size(1)), m = static_cast<int>(ctx->input(5).dim_size(0));
  const size_t bytes = size_t(h) * w * c;
  const uint8_t* src = images.flat<uint8_t>().data();
  const int32_t* circles = ctx->input(1).flat<int32_t>().data();
  const float* circle_weights = ctx->input(2).flat<float>().data();
  const uint8_t* colours = ctx->input(3).flat<uint8_t>().data();
  const int32_t* suns = ctx->input(4).flat<int32_t>().data();
  const int32_t* radii = ctx->input(5).flat<int32_t>().data();
  const float* sun_weights = ctx->input(6).flat<float>().data();
  const uint8_t* sun_colour = ctx->input(7).flat<uint8_t>().data();
  uint8_t* dst = out->flat<uint8_t>().data();
  ForEachImage(ctx, images.dim_size(0), [&](int64_t i) {
    const SunFlarePlan plan{circles + i * n * 3,
                            circle_weights + i * n * 2,
                            colours + i * n * c,
                            n,
                            suns[2 * i],
                            suns[2 * i + 1],
                            radii,
                            sun_weights + i * m * 2,
                            m,
                            sun_colour};
    std::vector<uint8_t> own;
    SunFlareCpu(src + i * bytes, h, w, c, plan, PoolThreadScratch(SunFlareScratchBytes(m, c), own),
                dst + i * bytes);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchSunFlare(GpuDevice, OpKernelContext* ctx, Tensor* out);
#endif

namespace {

template <typename Device>
class SunFlareOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit SunFlareOp(tensorflow::OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {}

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    const int64_t b = images.dim_size(0), c = images.dim_size(3);
    const int64_t n = ctx->input(1).dims() == 3 ? ctx->input(1).dim_size(1) : -1;
    const int64_t m = ctx->input(5).dims() == 1 ? ctx->input(5).dim_size(0) : -1;
    const auto is = [&](int i, std::initializer_list<int64_t> dims) {
      return ctx->input(i).shape() == tensorflow::TensorShape(dims);
    };
    OP_REQUIRES(ctx,
                n >= 0 && n <= kMostFlareCircles && m >= 0 && m <= kMostSunDiscs && is(1, {b, n, 3}) &&
                    is(2, {b, n, 2}) && is(3, {b, n, c}) && is(4, {b, 2}) && is(6, {b, m, 2}) && is(7, {c}),
                errors::InvalidArgument(
                    "SunFlare needs circles [B, N, 3], circle_weights [B, N, 2], circle_colours [B, N, C], "
                    "suns [B, 2], "
                    "sun_radii [M], sun_weights [B, M, 2] and sun_colour [C] (N <= ",
                    kMostFlareCircles, ", M <= ", kMostSunDiscs, ") for images ",
                    images.shape().DebugString(), "; got ", ctx->input(1).shape().DebugString(), ", ",
                    ctx->input(2).shape().DebugString(), ", ", ctx->input(3).shape().DebugString(), ", ",
                    ctx->input(4).shape().DebugString(), ", ", ctx->input(5).shape().DebugString(), ", ",
                    ctx->input(6).shape().DebugString(), ", ", ctx->input(7).shape().DebugString()));
    // the GPU kernel takes the batch as an int and a pixel's row and column as ints
    OP_REQUIRES(ctx, b < (int64_t{1} << 24),
                errors::InvalidArgument("SunFlare takes at most 2^24 images a batch, got ", b));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchSunFlare(Device(), ctx, out));
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>SunFlare").Device(tensorflow::DEVICE_CPU), SunFlareOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>SunFlare").Device(tensorflow::DEVICE_GPU), SunFlareOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
