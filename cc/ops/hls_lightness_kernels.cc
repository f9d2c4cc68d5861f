// The HlsLightness OpKernel (one class, templated on the device) and its CPU launcher: images
// over the intra-op pool. The GPU launcher is in hls_lightness_kernels_gpu.cc.
#include "cc/kernels/augment/hls_lightness_cpu.h"
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

absl::Status LaunchHlsLightness(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const Tensor& tables = ctx->input(1);
  const Tensor& levels = ctx->input(2);
  const int64_t b = images.dim_size(0), pixels = images.dim_size(1) * images.dim_size(2);
  const bool shared = tables.dim_size(0) == 1;
  const uint8_t* in = images.flat<uint8_t>().data();
  const int32_t* table = tables.flat<int32_t>().data();
  const int32_t* level = levels.NumElements() == 0 ? nullptr : levels.flat<int32_t>().data();
  uint8_t* o = out->flat<uint8_t>().data();
  ForEachImage(ctx, b, [&](int64_t i) {
    HlsLightnessCpu(in + i * pixels * 3, pixels, table + (shared ? 0 : i * 256),
                    level == nullptr ? nullptr : level + i * pixels, o + i * pixels * 3);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchHlsLightness(GpuDevice, OpKernelContext* ctx, Tensor* out);
#endif

namespace {

template <typename Device>
class HlsLightnessOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  using GuardedOpKernel::GuardedOpKernel;

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& tables = ctx->input(1);
    const Tensor& levels = ctx->input(2);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    const int64_t b = images.dim_size(0);
    OP_REQUIRES(
        ctx, images.dim_size(3) == 3,
        errors::InvalidArgument("images must be RGB [B, H, W, 3], got ", images.shape().DebugString()));
    OP_REQUIRES(ctx,
                tables.dims() == 2 && (tables.dim_size(0) == 1 || tables.dim_size(0) == b) &&
                    tables.dim_size(1) == 256,
                errors::InvalidArgument("need lightness tables [1 or B, 256] for ", b, " images, got ",
                                        tables.shape().DebugString()));
    OP_REQUIRES_OK(ctx, CheckPixelPlane(levels, images, "levels", "the tables decide"));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchHlsLightness(Device(), ctx, out));
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>HlsLightness").Device(tensorflow::DEVICE_CPU),
                        HlsLightnessOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>HlsLightness").Device(tensorflow::DEVICE_GPU),
                        HlsLightnessOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
