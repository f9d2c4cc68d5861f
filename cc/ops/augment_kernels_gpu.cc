// GPU OpKernel of the augment op; op ids are read in host memory for validation.
#if GOOGLE_CUDA
#include "cc/kernels/augment/augment_gpu.h"
#include "cc/ops/augment_common.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {
namespace {

using tensorflow::OpKernel;
using tensorflow::OpKernelConstruction;
using tensorflow::OpKernelContext;
using tensorflow::Tensor;
using tensorflow::TensorShape;
using tensorflow::errors::InvalidArgument;

class AugmentGpuOp : public OpKernel {
 public:
  explicit AugmentGpuOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadAugmentAttrs(ctx, &fill_, &interpolation_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& ops = ctx->input(1);
    OP_REQUIRES_OK(ctx, CheckAugmentInputs(ctx));
    const int64_t n = images.dim_size(0);
    auto flat_ops = ops.flat<int32_t>();
    for (int64_t i = 0; i < flat_ops.size(); ++i) {
      OP_REQUIRES(ctx, flat_ops(i) >= 0 && flat_ops(i) < int(AugmentOp::kNumOps),
                  InvalidArgument("unknown augmentation op id ", flat_ops(i)));
    }
    const AugmentImage image_info = ImageOf(images, fill_, interpolation_);
    const cudaStream_t stream = GpuStream(ctx);
    Tensor device_ops, scratch;
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(tensorflow::DT_INT32, ops.shape(), &device_ops));
    cudaMemcpyAsync(device_ops.data(), ops.data(), ops.TotalBytes(), cudaMemcpyHostToDevice, stream);
    const size_t image_bytes = size_t(image_info.h) * image_info.w * image_info.c;
    OP_REQUIRES_OK(
        ctx, ctx->allocate_temp(tensorflow::DT_UINT8,
                                TensorShape({static_cast<int64_t>(AugmentGpuScratchBytes(n, image_bytes))}),
                                &scratch));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, images.shape(), &out));
    OP_REQUIRES_OK(ctx, ToTfStatus(AugmentBatchGpu(
                            images.flat<uint8_t>().data(), static_cast<int>(n), image_info,
                            device_ops.flat<int32_t>().data(), ctx->input(2).flat<float>().data(),
                            ctx->input(3).flat<float>().data(), static_cast<int>(ops.dim_size(1)),
                            scratch.flat<uint8_t>().data(), out->flat<uint8_t>().data(), stream)));
  }

 private:
  float fill_;
  Interpolation interpolation_;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>Augment").Device(tensorflow::DEVICE_GPU).HostMemory("op_ids"),
                        AugmentGpuOp);

}  // namespace
}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
