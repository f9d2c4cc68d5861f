// The PlasmaPattern OpKernel (one class, templated on the device) and its CPU launcher: samples
// over the intra-op pool. The GPU launcher is in plasma_kernels_gpu.cc.
#include <cmath>
#include <cstdint>
#include <vector>

#include "cc/kernels/augment/plasma.h"
#include "cc/kernels/augment/plasma_cpu.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/parallel.h"
#include "cc/ops/pooled_output.h"
#include "cc/ops/thread_scratch.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernelContext;
using tensorflow::Tensor;
namespace errors = tensorflow::errors;

absl::Status LaunchPlasmaPattern(CpuDevice, OpKernelContext* ctx, const float* scales, int steps,
                                 Tensor* out) {
  const int h = static_cast<int>(out->dim_size(1)), w = static_cast<int>(out->dim_size(2));
  const size_t side = (size_t{1} << (steps + 1)) + 1;
  const int32_t* seeds = ctx->input(0).flat<int32_t>().data();
  float* o = out->flat<float>().data();
  ForEachImage(ctx, out->dim_size(0), [&](int64_t i) {
    std::vector<float> own;
    float* grids = PoolThreadScratch(3 * side * side, own);
    PlasmaPatternCpu(static_cast<uint32_t>(seeds[i]), h, w, scales, steps, grids, grids + side * side,
                     grids + 2 * side * side, o + i * int64_t{h} * w);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchPlasmaPattern(GpuDevice, OpKernelContext* ctx, const float* scales, int steps,
                                 Tensor* out);
#endif

namespace {

template <typename Device>
class PlasmaPatternOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit PlasmaPatternOp(tensorflow::OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("roughness", &roughness_));
    OP_REQUIRES(ctx, roughness_ > 0.f && std::isfinite(roughness_),
                errors::InvalidArgument("roughness must be a positive number, got ", roughness_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& seeds = ctx->input(0);
    OP_REQUIRES(ctx, seeds.dims() == 1,
                errors::InvalidArgument("seeds must be [B], got ", seeds.shape().DebugString()));
    const Tensor& size = ctx->input(1);
    OP_REQUIRES(
        ctx, size.dims() == 1 && size.dim_size(0) == 2,
        errors::InvalidArgument("size must be [2] (height, width), got ", size.shape().DebugString()));
    const int64_t h = size.vec<int32_t>()(0), w = size.vec<int32_t>()(1);
    OP_REQUIRES(ctx, h >= 0 && w >= 0 && h <= kPlasmaLargestSide && w <= kPlasmaLargestSide,
                errors::InvalidArgument("size (height, width) must be in [0, ", kPlasmaLargestSide, "], got ",
                                        h, ", ", w));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx,
                   AllocatePooledOutput(ctx, 0, tensorflow::TensorShape({seeds.dim_size(0), h, w}), &out));
    if (out->NumElements() == 0) return;
    const int steps = PlasmaSteps(static_cast<int>(h), static_cast<int>(w));
    float scales[16];
    PlasmaNoiseScales(roughness_, steps, scales);
    OP_REQUIRES_OK(ctx, LaunchPlasmaPattern(Device(), ctx, scales, steps, out));
  }

 private:
  float roughness_ = 3.f;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>PlasmaPattern").Device(tensorflow::DEVICE_CPU).HostMemory("size"),
                        PlasmaPatternOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>PlasmaPattern").Device(tensorflow::DEVICE_GPU).HostMemory("size"),
                        PlasmaPatternOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
