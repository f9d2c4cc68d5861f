// The augment OpKernel (one class, templated on the device) and its CPU launcher: samples in
// parallel, each through its K stages. The GPU launcher is in augment_kernels_gpu.cc.
#include <memory>
#include <string>
#include <vector>

#include "cc/kernels/augment/augment_cpu.h"
#include "cc/ops/augment_common.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/parallel.h"
#include "cc/ops/pooled_output.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernel;
using tensorflow::OpKernelConstruction;
using tensorflow::OpKernelContext;
using tensorflow::Tensor;

absl::Status LaunchAugment(CpuDevice, OpKernelContext* ctx, const AugmentImage& image_info, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int64_t n = images.dim_size(0);
  const int k = static_cast<int>(ctx->input(1).dim_size(1));
  const size_t per = size_t(image_info.h) * image_info.w * image_info.c;
  const uint8_t* in = images.flat<uint8_t>().data();
  uint8_t* o = out->flat<uint8_t>().data();
  const int32_t* op = ctx->input(1).flat<int32_t>().data();
  const float* mag = ctx->input(2).flat<float>().data();
  const float* ax = ctx->input(3).flat<float>().data();
  std::vector<Status> statuses(n);
  ForEachImage(ctx, n, [&](int64_t i) {
    // One scratch image per pool thread, reused across calls (no allocation per sample).
    thread_local std::vector<uint8_t> scratch;
    if (scratch.size() < per) scratch.resize(per);
    statuses[i] = AugmentSampleCpu(in + i * per, image_info, op + i * k, mag + i * k, ax + 2 * i * k, k,
                                   scratch.data(), o + i * per);
  });
  for (int64_t i = 0; i < n; ++i) TF_RETURN_IF_ERROR(ToTfStatus(statuses[i], "sample " + std::to_string(i)));
  return absl::OkStatus();
}

namespace {

template <typename Device>
class AugmentOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit AugmentOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadAugmentAttrs(ctx, &fill_, &interpolation_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, CheckAugmentInputs(ctx));
    const Tensor& images = ctx->input(0);
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (images.NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchAugment(Device(), ctx, ImageOf(images, fill_, interpolation_), out));
  }

 private:
  float fill_;
  Interpolation interpolation_;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>Augment").Device(tensorflow::DEVICE_CPU), AugmentOp<CpuDevice>);
#if GOOGLE_CUDA
// The op ids are validated on the host, then uploaded with the launch.
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>Augment").Device(tensorflow::DEVICE_GPU).HostMemory("op_ids"),
                        AugmentOp<GpuDevice>);
#endif

// The augmentation op names in id order, from cc/kernels/augment/augment.h's one table.
class AugmentOpNamesOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit AugmentOpNamesOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {}

  void ComputeGuarded(OpKernelContext* ctx) override {
    const int n = kNumAugmentOps;
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, tensorflow::TensorShape({n}), &out));
    for (int i = 0; i < n; ++i) out->flat<tensorflow::tstring>()(i) = AugmentOpNames()[i];
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>AugmentOpNames").Device(tensorflow::DEVICE_CPU), AugmentOpNamesOp);

}  // namespace
}  // namespace tfgpuaug
