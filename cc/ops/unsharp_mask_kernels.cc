// The UnsharpMask OpKernel (one class, templated on the device) and its CPU launcher: images
// over the intra-op pool, scratch planes per pool thread. The GPU launcher is in
// unsharp_mask_kernels_gpu.cc.
#include <vector>

#include "cc/kernels/augment/unsharp_mask.h"
#include "cc/kernels/augment/unsharp_mask_cpu.h"
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
using tensorflow::TensorShape;
namespace errors = tensorflow::errors;

absl::Status LaunchUnsharpMask(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int64_t b = images.dim_size(0);
  const int h = images.dim_size(1), w = images.dim_size(2), c = images.dim_size(3);
  const int taps = static_cast<int>(ctx->input(1).dim_size(1));
  const int64_t per = int64_t{h} * w * c;
  const size_t scratch_floats = UnsharpScratchFloats(h, w, c);
  const uint8_t* in = images.flat<uint8_t>().data();
  const float* weights = ctx->input(1).flat<float>().data();
  const float* alpha = ctx->input(2).flat<float>().data();
  const float* threshold = ctx->input(3).flat<float>().data();
  uint8_t* o = out->flat<uint8_t>().data();
  ForEachImage(ctx, b, [&](int64_t i) {
    std::vector<float> own;
    float* scratch = PoolThreadScratch(scratch_floats, own);
    UnsharpMaskCpu(in + i * per, h, w, c, weights + i * taps, taps, alpha[i], threshold[i], scratch,
                   o + i * per);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchUnsharpMask(GpuDevice, OpKernelContext* ctx, Tensor* out);
#endif

namespace {

template <typename Device>
class UnsharpMaskOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  using GuardedOpKernel::GuardedOpKernel;

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& weights = ctx->input(1);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    const int64_t b = images.dim_size(0);
    OP_REQUIRES(ctx,
                weights.dims() == 2 && weights.dim_size(0) == b && weights.dim_size(1) % 2 == 1 &&
                    weights.dim_size(1) <= kMaxUnsharpTaps && ctx->input(2).shape() == TensorShape({b}) &&
                    ctx->input(3).shape() == TensorShape({b}),
                errors::InvalidArgument(
                    "need weights [B, taps] (taps odd, at most ", kMaxUnsharpTaps,
                    "), alpha [B] and threshold [B] for ", b, " images, got ", weights.shape().DebugString(),
                    ", ", ctx->input(2).shape().DebugString(), " and ", ctx->input(3).shape().DebugString()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchUnsharpMask(Device(), ctx, out));
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>UnsharpMask").Device(tensorflow::DEVICE_CPU),
                        UnsharpMaskOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>UnsharpMask").Device(tensorflow::DEVICE_GPU),
                        UnsharpMaskOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
