// The HeStain OpKernel (one class, templated on the device) and its CPU launcher: images over the
// intra-op pool. The GPU launcher is in he_stain_kernels_gpu.cc.
#include <cstdint>
#include <cstring>

#include "cc/kernels/augment/he_stain.h"
#include "cc/kernels/augment/he_stain_cpu.h"
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

absl::Status LaunchHeStain(CpuDevice, OpKernelContext* ctx, bool background, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const size_t pixels = size_t(images.dim_size(1)) * images.dim_size(2);
  const uint8_t* src = images.flat<uint8_t>().data();
  const float* densities = ctx->input(1).flat<float>().data();
  const double* thresholds = ctx->input(2).flat<double>().data();
  const uint8_t* cells = ctx->input(3).flat<uint8_t>().data();
  const double* projections = ctx->input(4).flat<double>().data();
  const double* matrices = ctx->input(5).flat<double>().data();
  const double* scales = ctx->input(6).flat<double>().data();
  const double* shifts = ctx->input(7).flat<double>().data();
  const bool* apply = ctx->input(8).flat<bool>().data();
  uint8_t* dst = out->flat<uint8_t>().data();
  ForEachImage(ctx, images.dim_size(0), [&](int64_t i) {
    if (!apply[i]) {
      std::memcpy(dst + i * pixels * 3, src + i * pixels * 3, pixels * 3);
      return;
    }
    const HeStainPlan plan{projections + 6 * i, matrices + 6 * i, scales + 2 * i, shifts + 2 * i};
    HeStainCpu(src + i * pixels * 3, pixels, densities, thresholds, cells, plan, background,
               dst + i * pixels * 3);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchHeStain(GpuDevice, OpKernelContext* ctx, bool background, Tensor* out);
#endif

namespace {

template <typename Device>
class HeStainOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit HeStainOp(tensorflow::OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("augment_background", &background_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    const int64_t b = images.dim_size(0);
    const auto is = [&](int i, std::initializer_list<int64_t> dims) {
      return ctx->input(i).shape() == tensorflow::TensorShape(dims);
    };
    OP_REQUIRES(ctx,
                images.dim_size(3) == 3 && is(1, {256}) && is(2, {kHeThresholds}) && is(3, {kHeCells}) &&
                    is(4, {b, 2, 3}) && is(5, {b, 2, 3}) && is(6, {b, 2}) && is(7, {b, 2}) && is(8, {b}),
                errors::InvalidArgument(
                    "HeStain needs RGB images [B, H, W, 3], densities [256], thresholds [", kHeThresholds,
                    "], cells [", kHeCells,
                    "], projections and matrices [B, 2, 3], scales and shifts [B, 2] "
                    "and apply [B]; got images ",
                    images.shape().DebugString(), ", projections ", ctx->input(4).shape().DebugString(),
                    ", matrices ", ctx->input(5).shape().DebugString(), ", scales ",
                    ctx->input(6).shape().DebugString(), ", apply ", ctx->input(8).shape().DebugString()));
    // the GPU kernel takes the batch as an int
    OP_REQUIRES(ctx, b < (int64_t{1} << 24),
                errors::InvalidArgument("HeStain takes at most 2^24 images a batch, got ", b));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchHeStain(Device(), ctx, background_, out));
  }

 private:
  bool background_ = false;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>HeStain").Device(tensorflow::DEVICE_CPU), HeStainOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>HeStain").Device(tensorflow::DEVICE_GPU), HeStainOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
