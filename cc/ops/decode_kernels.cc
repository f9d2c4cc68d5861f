// OpKernels of the decode ops (DecodeImage and DecodeImageBatch are one class each, templated
// on the device) and the CPU launchers; the GPU launchers are in decode_kernels_gpu.cc.
#include <algorithm>
#include <vector>

#include "cc/ops/decode_common.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/parallel.h"
#include "cc/ops/pooled_output.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {
namespace {

using tensorflow::OpKernel;
using tensorflow::OpKernelConstruction;
using tensorflow::OpKernelContext;
using tensorflow::Tensor;
using tensorflow::TensorShape;
using tensorflow::errors::InvalidArgument;

}  // namespace

absl::Status LaunchDecodeImage(CpuDevice, OpKernelContext* ctx, const DecodeRequest& request,
                               const DecodePlan& plan, Tensor* image) {
  const tensorflow::tstring& bytes = ctx->input(0).scalar<tensorflow::tstring>()();
  if (image->dtype() == tensorflow::DT_UINT16) {
    return ToTfStatus(
        ExecuteDecode16(Bytes(bytes), bytes.size(), request, plan, image->flat<uint16_t>().data()));
  }
  return ToTfStatus(ExecuteDecode(Bytes(bytes), bytes.size(), request, plan, image->flat<uint8_t>().data()));
}

absl::Status LaunchDecodeBatch(CpuDevice, OpKernelContext* ctx, int64_t, DecodeBatchCall* call) {
  auto flat = ctx->input(0).flat<tensorflow::tstring>();
  ForEachImage(ctx, call->plans.size(), [&](int64_t i) {
    if (!call->statuses[i].ok()) return;
    call->statuses[i] =
        ExecuteDecode(Bytes(flat(i)), flat(i).size(), call->requests[i], call->plans[i], call->outputs[i]);
    if (call->statuses[i].ok()) return;
    const DecodePlan& p = call->plans[i];
    std::fill_n(call->outputs[i], int64_t{p.out_height} * p.out_width * p.out_channels, 0);
  });
  return absl::OkStatus();
}

namespace {

template <typename Device>
class DecodeImageOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit DecodeImageOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadDecodeAttrs(ctx, &base_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& contents = ctx->input(0);
    const Tensor& window = ctx->input(1);
    OP_REQUIRES(
        ctx, contents.dims() == 0,
        InvalidArgument("contents must be a scalar string, got shape ", contents.shape().DebugString()));
    OP_REQUIRES(ctx, window.dims() == 1 && (window.NumElements() == 0 || window.NumElements() == 4),
                InvalidArgument("crop_window must be [] or [y, x, height, width], got shape ",
                                window.shape().DebugString()));
    DecodeRequest request = base_;
    if (window.NumElements() == 4) {
      auto w = window.vec<int32_t>();
      request.has_window = true;
      request.window = Window{w(0), w(1), w(2), w(3)};
    }
    const tensorflow::tstring& bytes = contents.scalar<tensorflow::tstring>()();
    DecodePlan plan;
    OP_REQUIRES_OK(ctx, ToTfStatus(PlanDecode(Bytes(bytes), bytes.size(), request, &plan)));
    Tensor* image = nullptr;
    OP_REQUIRES_OK(
        ctx, AllocatePooledOutput(ctx, 0, TensorShape({plan.out_height, plan.out_width, plan.out_channels}),
                                  &image));
    if (image->NumElements() > 0) OP_REQUIRES_OK(ctx, LaunchDecodeImage(Device(), ctx, request, plan, image));
  }

 private:
  DecodeRequest base_;
  tensorflow::DataType dtype_ = tensorflow::DT_UINT8;
};

class DecodeAnimationOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit DecodeAnimationOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("channels", &request_.channels));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("max_pixels", &request_.max_pixels));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("max_bytes", &max_bytes_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& contents = ctx->input(0);
    OP_REQUIRES(
        ctx, contents.dims() == 0,
        InvalidArgument("contents must be a scalar string, got shape ", contents.shape().DebugString()));
    const tensorflow::tstring& bytes = contents.scalar<tensorflow::tstring>()();
    DecodePlan plan;
    OP_REQUIRES_OK(ctx, ToTfStatus(PlanDecode(Bytes(bytes), bytes.size(), request_, &plan)));
    int frames = 1;
    OP_REQUIRES_OK(ctx, ToTfStatus(CountFrames(Bytes(bytes), bytes.size(), plan.info, &frames)));
    const int64_t total = int64_t{frames} * plan.out_height * plan.out_width * plan.out_channels;
    OP_REQUIRES(ctx, total <= max_bytes_,
                InvalidArgument(frames, " frames of ", plan.out_height, "x", plan.out_width,
                                " exceed max_bytes=", max_bytes_));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(
        ctx, AllocatePooledOutput(
                 ctx, 0, TensorShape({frames, plan.out_height, plan.out_width, plan.out_channels}), &out));
    OP_REQUIRES_OK(ctx, ToTfStatus(ExecuteDecodeFrames(Bytes(bytes), bytes.size(), request_, plan,
                                                       out->flat<uint8_t>().data())));
  }

 private:
  DecodeRequest request_;
  int64_t max_bytes_ = 0;
};

template <typename Device>
class DecodeImageBatchOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit DecodeImageBatchOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadDecodeAttrs(ctx, &base_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("max_batch_bytes", &max_batch_bytes_));
    OP_REQUIRES_OK(ctx, ReadOnErrorAttr(ctx, &skip_));
  }

  // With on_error="skip", an image whose header fails decodes to 0x0 and one that fails
  // later is zeroed, each with its reason in `errors`; otherwise the first one fails the op.
  void ComputeGuarded(OpKernelContext* ctx) override {
    DecodeBatchCall call;
    OP_REQUIRES_OK(ctx, BeginDecodeBatch(ctx, base_, max_batch_bytes_, skip_, &call));
    OP_REQUIRES_OK(ctx, LaunchDecodeBatch(Device(), ctx, max_batch_bytes_, &call));
    OP_REQUIRES_OK(ctx, FinishPerImage(ctx, 2, call.statuses, skip_, [](int64_t) {}));
  }

 private:
  DecodeRequest base_;
  int64_t max_batch_bytes_ = 0;
  bool skip_ = false;
};

class ImageShapeOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit ImageShapeOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("apply_exif_orientation", &apply_orientation_));
    OP_REQUIRES_OK(ctx, ReadOnErrorAttr(ctx, &skip_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& contents = ctx->input(0);
    TensorShape shape = contents.shape();
    shape.AddDim(3);
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    auto flat = contents.flat<tensorflow::tstring>();
    auto o = out->flat<int32_t>();
    std::vector<Status> statuses(flat.size());
    for (int64_t i = 0; i < flat.size(); ++i) {
      ImageInfo info;
      statuses[i] = ProbeImage(Bytes(flat(i)), flat(i).size(), &info);
      if (!statuses[i].ok() && !skip_) break;
      const bool swap = apply_orientation_ && info.orientation >= 5;
      o(3 * i) = swap ? info.width : info.height;
      o(3 * i + 1) = swap ? info.height : info.width;
      o(3 * i + 2) = info.channels;
    }
    OP_REQUIRES_OK(ctx, FinishPerImage(ctx, 1, statuses, skip_, [&](int64_t i) {
                     for (int k = 0; k < 3; ++k) o(3 * i + k) = 0;
                   }));
  }

 private:
  bool apply_orientation_ = false;
  bool skip_ = false;
};

class ImageHeaderOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit ImageHeaderOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {}

  void ComputeGuarded(OpKernelContext* ctx) override {
    TensorShape shape = ctx->input(0).shape();
    shape.AddDim(6);
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    auto flat = ctx->input(0).flat<tensorflow::tstring>();
    auto o = out->flat_inner_dims<int32_t>();  // [n, 6] for any leading shape
    std::vector<Status> statuses(flat.size());
    for (int64_t i = 0; i < flat.size(); ++i) {
      ImageInfo info;
      statuses[i] = ProbeImage(Bytes(flat(i)), flat(i).size(), &info);
      const int32_t row[6] = {
          static_cast<int32_t>(info.format), info.height, info.width, info.channels, info.orientation,
          info.progressive ? 1 : 0};
      for (int k = 0; k < 6; ++k) o(i, k) = statuses[i].ok() ? row[k] : 0;
    }
    OP_REQUIRES_OK(ctx, FinishPerImage(ctx, 1, statuses, /*skip=*/true, [](int64_t) {}));
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>DecodeImage").Device(tensorflow::DEVICE_CPU),
                        DecodeImageOp<CpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>DecodeAnimation").Device(tensorflow::DEVICE_CPU), DecodeAnimationOp);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>DecodeImageBatch").Device(tensorflow::DEVICE_CPU),
                        DecodeImageBatchOp<CpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>ImageShape").Device(tensorflow::DEVICE_CPU), ImageShapeOp);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>ImageHeader").Device(tensorflow::DEVICE_CPU), ImageHeaderOp);
#if GOOGLE_CUDA
// Encoded bytes, windows and the per-image shapes and errors stay in host memory; pixels are
// written to device memory (nvJPEG, or the CPU decoder plus a copy). uint16 decodes are CPU-only.
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>DecodeImage")
                            .Device(tensorflow::DEVICE_GPU)
                            .TypeConstraint<uint8_t>("dtype")
                            .HostMemory("contents")
                            .HostMemory("crop_window"),
                        DecodeImageOp<GpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>DecodeImageBatch")
                            .Device(tensorflow::DEVICE_GPU)
                            .HostMemory("contents")
                            .HostMemory("crop_windows")
                            .HostMemory("shapes")
                            .HostMemory("errors"),
                        DecodeImageBatchOp<GpuDevice>);
#endif  // GOOGLE_CUDA

}  // namespace
}  // namespace tfgpuaug
