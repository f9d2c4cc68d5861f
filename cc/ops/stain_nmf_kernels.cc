// The StainNmf OpKernel (one class, templated on the device) and its CPU launcher: images over
// the intra-op pool. The GPU launcher is in stain_nmf_kernels_gpu.cc.
#include <cstdint>
#include <vector>

#include "cc/kernels/augment/stain_nmf_cpu.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/image_batch_checks.h"
#include "cc/ops/parallel.h"
#include "cc/ops/thread_scratch.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernelContext;
using tensorflow::Tensor;
namespace errors = tensorflow::errors;

absl::Status LaunchStainNmf(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const size_t pixels = size_t(images.dim_size(1)) * images.dim_size(2);
  const uint8_t* src = images.flat<uint8_t>().data();
  const float* densities = ctx->input(1).flat<float>().data();
  float* rows = out->flat<float>().data();
  ForEachImage(ctx, images.dim_size(0), [&](int64_t i) {
    std::vector<float> own;
    StainNmfCpu(src + i * pixels * 3, pixels, densities,
                PoolThreadScratch(StainNmfScratchFloats(pixels), own), rows + i * 6);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchStainNmf(GpuDevice, OpKernelContext* ctx, Tensor* out);
#endif

namespace {

template <typename Device>
class StainNmfOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit StainNmfOp(tensorflow::OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {}

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    OP_REQUIRES(
        ctx, images.dim_size(3) == 3 && ctx->input(1).shape() == tensorflow::TensorShape({256}),
        errors::InvalidArgument("StainNmf needs RGB images [B, H, W, 3] and densities [256]; got ",
                                images.shape().DebugString(), " and ", ctx->input(1).shape().DebugString()));
    // the GPU kernel runs a block an image
    OP_REQUIRES(
        ctx, images.dim_size(0) < (int64_t{1} << 24),
        errors::InvalidArgument("StainNmf takes at most 2^24 images a batch, got ", images.dim_size(0)));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, tensorflow::TensorShape({images.dim_size(0), 2, 3}), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchStainNmf(Device(), ctx, out));
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>StainNmf").Device(tensorflow::DEVICE_CPU), StainNmfOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>StainNmf").Device(tensorflow::DEVICE_GPU), StainNmfOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
