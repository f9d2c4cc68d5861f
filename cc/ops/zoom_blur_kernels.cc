// The ZoomBlur OpKernel (one class, templated on the device) and its CPU launcher: images over
// the intra-op pool. The GPU launcher is in zoom_blur_kernels_gpu.cc.
#include <cstdint>
#include <vector>

#include "cc/kernels/augment/zoom_blur_cpu.h"
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

absl::Status LaunchZoomBlur(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int h = static_cast<int>(images.dim_size(1)), w = static_cast<int>(images.dim_size(2));
  const int c = static_cast<int>(images.dim_size(3));
  const size_t bytes = size_t(h) * w * c;
  const uint8_t* src = images.flat<uint8_t>().data();
  const double* max_factors = ctx->input(1).flat<double>().data();
  const double* steps = ctx->input(2).flat<double>().data();
  uint8_t* dst = out->flat<uint8_t>().data();
  ForEachImage(ctx, images.dim_size(0), [&](int64_t i) {
    std::vector<float> own;
    ZoomBlurCpu(src + i * bytes, h, w, c, max_factors[i], steps[i],
                PoolThreadScratch(ZoomBlurScratchFloats(h, w, c), own), dst + i * bytes);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchZoomBlur(GpuDevice, OpKernelContext* ctx, Tensor* out);
#endif

namespace {

template <typename Device>
class ZoomBlurOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit ZoomBlurOp(tensorflow::OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {}

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    const int64_t b = images.dim_size(0);
    for (int i = 1; i < 3; ++i) {
      OP_REQUIRES(ctx, ctx->input(i).dims() == 1 && ctx->input(i).dim_size(0) == b,
                  errors::InvalidArgument(i == 1 ? "max_factors" : "steps", " must be [B] for images ",
                                          images.shape().DebugString(), ", got ",
                                          ctx->input(i).shape().DebugString()));
    }
    // the kernels index bytes in size_t, rows and columns in int; the GPU plans 12 KB a sample
    OP_REQUIRES(ctx, images.dim_size(1) * images.dim_size(2) < (int64_t{1} << 31) && b < (int64_t{1} << 24),
                errors::InvalidArgument("images too large for ZoomBlur: ", images.shape().DebugString(),
                                        " (at most 2^31 pixels an image and 2^24 images)"));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchZoomBlur(Device(), ctx, out));
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>ZoomBlur").Device(tensorflow::DEVICE_CPU), ZoomBlurOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>ZoomBlur").Device(tensorflow::DEVICE_GPU), ZoomBlurOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
