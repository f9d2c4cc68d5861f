// The ChannelHistograms OpKernel (one class, templated on the device) and its CPU launcher:
// images over the intra-op pool. The GPU launcher is in channel_histograms_kernels_gpu.cc.
#include <vector>

#include "cc/kernels/augment/channel_histograms_cpu.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/image_batch_checks.h"
#include "cc/ops/parallel.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernelContext;
using tensorflow::Tensor;
namespace errors = tensorflow::errors;

absl::Status LaunchChannelHistograms(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int64_t pixels = images.dim_size(1) * images.dim_size(2);
  const int c = static_cast<int>(images.dim_size(3));
  const uint8_t* in = images.flat<uint8_t>().data();
  int32_t* counts = out->flat<int32_t>().data();
  ForEachImage(ctx, images.dim_size(0), [&](int64_t i) {
    std::vector<uint32_t> scratch(size_t(2) * c * 256);
    ChannelHistogramsCpu(in + i * pixels * c, pixels, c, scratch.data(), counts + i * c * 256);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchChannelHistograms(GpuDevice, OpKernelContext* ctx, Tensor* out);
#endif

namespace {

template <typename Device>
class ChannelHistogramsOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  using GuardedOpKernel::GuardedOpKernel;

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    OP_REQUIRES(
        ctx,
        images.dim_size(0) < (int64_t{1} << 31) &&
            images.dim_size(1) * images.dim_size(2) < (int64_t{1} << 31),
        errors::InvalidArgument("images ", images.shape().DebugString(),
                                ": int32 counts hold fewer than 2^31 images of fewer than 2^31 pixels"));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(
                            0, tensorflow::TensorShape({images.dim_size(0), images.dim_size(3), 256}), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchChannelHistograms(Device(), ctx, out));
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>ChannelHistograms").Device(tensorflow::DEVICE_CPU),
                        ChannelHistogramsOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>ChannelHistograms").Device(tensorflow::DEVICE_GPU),
                        ChannelHistogramsOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
