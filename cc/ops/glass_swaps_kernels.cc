// The GlassSwaps OpKernel (one class, templated on the device) and its CPU launcher: images
// over the intra-op pool. The GPU launcher is in glass_swaps_kernels_gpu.cc.
#include <cstdint>
#include <cstring>
#include <vector>

#include "cc/kernels/augment/glass_swaps.h"
#include "cc/kernels/augment/glass_swaps_cpu.h"
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

absl::Status LaunchGlassSwaps(CpuDevice, OpKernelContext* ctx, int max_delta, int iterations, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int h = static_cast<int>(images.dim_size(1)), w = static_cast<int>(images.dim_size(2));
  const int c = static_cast<int>(images.dim_size(3));
  const size_t bytes = size_t(h) * w * c;
  const uint8_t* src = images.flat<uint8_t>().data();
  const int32_t* seeds = ctx->input(1).flat<int32_t>().data();
  const bool* apply = ctx->input(2).flat<bool>().data();
  uint8_t* dst = out->flat<uint8_t>().data();
  const int64_t choosers = GlassInteriorRows(h, max_delta) * GlassInteriorRows(w, max_delta);
  ForEachImage(ctx, images.dim_size(0), [&](int64_t i) {
    if (!apply[i]) {
      std::memcpy(dst + i * bytes, src + i * bytes, bytes);
      return;
    }
    std::vector<uint8_t> own_before;
    std::vector<int64_t> own_targets;
    GlassSwapsCpu(src + i * bytes, h, w, c, max_delta, iterations, static_cast<uint32_t>(seeds[i]),
                  PoolThreadScratch(bytes, own_before), PoolThreadScratch(size_t(choosers), own_targets),
                  dst + i * bytes);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchGlassSwaps(GpuDevice, OpKernelContext* ctx, int max_delta, int iterations, Tensor* out);
#endif

namespace {

constexpr int kLargestDelta = 64;
constexpr int kMostIterations = 16;

template <typename Device>
class GlassSwapsOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit GlassSwapsOp(tensorflow::OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("max_delta", &max_delta_));
    OP_REQUIRES(ctx, max_delta_ >= 1 && max_delta_ <= kLargestDelta,
                errors::InvalidArgument("max_delta must be in [1, ", kLargestDelta, "], got ", max_delta_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("iterations", &iterations_));
    OP_REQUIRES(
        ctx, iterations_ >= 1 && iterations_ <= kMostIterations,
        errors::InvalidArgument("iterations must be in [1, ", kMostIterations, "], got ", iterations_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    const int64_t b = images.dim_size(0), h = images.dim_size(1), w = images.dim_size(2);
    for (int i = 1; i < 3; ++i) {
      OP_REQUIRES(ctx, ctx->input(i).dims() == 1 && ctx->input(i).dim_size(0) == b,
                  errors::InvalidArgument(i == 1 ? "seeds" : "apply", " must be [B] for images ",
                                          images.shape().DebugString(), ", got ",
                                          ctx->input(i).shape().DebugString()));
    }
    // positions and bids are int32 on the GPU; the hash counts (round, pixel, axis) in 32 bits
    OP_REQUIRES(
        ctx,
        b == 0 || (h * w < (int64_t{1} << 31) / b && h * w * images.dim_size(3) < (int64_t{1} << 31) / b),
        errors::InvalidArgument("images too large for GlassSwaps: ", images.shape().DebugString(),
                                " (at most 2^31 pixels and bytes in all)"));
    OP_REQUIRES(ctx, h * w * 2 * iterations_ < (int64_t{1} << 32),
                errors::InvalidArgument("images too large for GlassSwaps' draws: ", h, " x ", w, " pixels x ",
                                        iterations_, " iterations x 2 (at most 2^32)"));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchGlassSwaps(Device(), ctx, static_cast<int>(max_delta_),
                                         static_cast<int>(iterations_), out));
  }

 private:
  int64_t max_delta_ = 1;
  int64_t iterations_ = 1;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>GlassSwaps").Device(tensorflow::DEVICE_CPU), GlassSwapsOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>GlassSwaps").Device(tensorflow::DEVICE_GPU), GlassSwapsOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
