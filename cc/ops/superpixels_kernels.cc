// The Superpixels OpKernel (one class, templated on the device) and its CPU launcher: images over
// the intra-op pool. The GPU launcher is in superpixels_kernels_gpu.cc.
#include <cstdint>
#include <vector>

#include "cc/kernels/augment/superpixels.h"
#include "cc/kernels/augment/superpixels_cpu.h"
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

absl::Status LaunchSuperpixels(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int h = static_cast<int>(images.dim_size(1)), w = static_cast<int>(images.dim_size(2));
  const int c = static_cast<int>(images.dim_size(3)), m = static_cast<int>(ctx->input(2).dim_size(1));
  const size_t bytes = size_t(h) * w * c;
  const uint8_t* src = images.flat<uint8_t>().data();
  const int32_t* segments = ctx->input(1).flat<int32_t>().data();
  const uint8_t* flags = reinterpret_cast<const uint8_t*>(ctx->input(2).flat<bool>().data());
  uint8_t* dst = out->flat<uint8_t>().data();
  ForEachImage(ctx, images.dim_size(0), [&](int64_t i) {
    const int n = SlicSegments(segments[i], m);
    std::vector<double> own;  // doubles, so the scratch is 8-byte aligned
    const size_t doubles = (SuperpixelsScratchBytes(h, w, c, n) + 7) / 8;
    SuperpixelsCpu(src + i * bytes, h, w, c, n, flags + i * m,
                   reinterpret_cast<uint8_t*>(PoolThreadScratch(doubles, own)), dst + i * bytes);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchSuperpixels(GpuDevice, OpKernelContext* ctx, Tensor* out);
#endif

namespace {

// The most flags a sample may have: the GPU's scratch is sized by a loop over segment counts.
constexpr int64_t kMostSuperpixelFlags = int64_t{1} << 20;
constexpr int64_t kMostSuperpixelPixels = int64_t{1} << 28;

template <typename Device>
class SuperpixelsOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit SuperpixelsOp(tensorflow::OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {}

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    const int64_t b = images.dim_size(0);
    const Tensor& segments = ctx->input(1);
    const Tensor& replace = ctx->input(2);
    OP_REQUIRES(
        ctx,
        segments.shape() == tensorflow::TensorShape({b}) && replace.dims() == 2 && replace.dim_size(0) == b &&
            replace.dim_size(1) >= 1 && replace.dim_size(1) <= kMostSuperpixelFlags,
        errors::InvalidArgument("Superpixels needs segments [B] and replace [B, M] with 1 <= M <= ",
                                kMostSuperpixelFlags, " for images ", images.shape().DebugString(), "; got ",
                                segments.shape().DebugString(), " and ", replace.shape().DebugString()));
    // the GPU kernel runs a block an image; labels and pixel indices are int32
    OP_REQUIRES(
        ctx, b < (int64_t{1} << 24) && images.dim_size(1) * images.dim_size(2) <= kMostSuperpixelPixels,
        errors::InvalidArgument("Superpixels takes at most 2^24 images a batch of at most 2^28 pixels "
                                "each, got ",
                                images.shape().DebugString()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchSuperpixels(Device(), ctx, out));
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>Superpixels").Device(tensorflow::DEVICE_CPU),
                        SuperpixelsOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>Superpixels").Device(tensorflow::DEVICE_GPU),
                        SuperpixelsOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
