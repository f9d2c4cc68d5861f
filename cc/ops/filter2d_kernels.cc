// The Filter2D OpKernel (one class, templated on the device) and its CPU launcher: images over
// the intra-op pool, a padded plane per pool thread. The GPU launcher is in
// filter2d_kernels_gpu.cc.
#include <vector>

#include "cc/kernels/augment/filter2d.h"
#include "cc/kernels/augment/filter2d_cpu.h"
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

absl::Status LaunchFilter2D(CpuDevice, OpKernelContext* ctx, bool ties_up, bool symmetric, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int64_t b = images.dim_size(0);
  const int h = images.dim_size(1), w = images.dim_size(2), c = images.dim_size(3);
  const int side = static_cast<int>(ctx->input(1).dim_size(1));
  const int64_t per = int64_t{h} * w * c;
  const size_t scratch_floats = Filter2DScratchFloats(h, w, c, side);
  const uint8_t* in = images.flat<uint8_t>().data();
  const float* kernels = ctx->input(1).flat<float>().data();
  uint8_t* o = out->flat<uint8_t>().data();
  ForEachImage(ctx, b, [&](int64_t i) {
    const float* kernel = kernels + i * side * side;
    if (symmetric) {
      std::vector<uint16_t> own;
      Filter2DSymmetricCpu(in + i * per, h, w, c, kernel, side, ties_up,
                           PoolThreadScratch(Filter2DSymmetricScratch(h, w, c, side), own), o + i * per);
      return;
    }
    std::vector<float> own;
    Filter2DCpu(in + i * per, h, w, c, kernel, side, ties_up, PoolThreadScratch(scratch_floats, own),
                o + i * per);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchFilter2D(GpuDevice, OpKernelContext* ctx, bool ties_up, bool symmetric, Tensor* out);
#endif

namespace {

template <typename Device>
class Filter2DOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit Filter2DOp(tensorflow::OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ties_up", &ties_up_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("symmetric", &symmetric_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& kernels = ctx->input(1);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    const int64_t b = images.dim_size(0);
    OP_REQUIRES(ctx,
                kernels.dims() == 3 && kernels.dim_size(0) == b &&
                    kernels.dim_size(1) == kernels.dim_size(2) && kernels.dim_size(1) % 2 == 1 &&
                    kernels.dim_size(1) <= kMaxFilterSide,
                errors::InvalidArgument("need kernels [B, K, K] (K odd, at most ", kMaxFilterSide, ") for ",
                                        b, " images, got ", kernels.shape().DebugString()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchFilter2D(Device(), ctx, ties_up_, symmetric_, out));
  }

 private:
  bool ties_up_ = false;
  bool symmetric_ = false;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>Filter2D").Device(tensorflow::DEVICE_CPU), Filter2DOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>Filter2D").Device(tensorflow::DEVICE_GPU), Filter2DOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
