// CPU OpKernels of the placed resizes (scale jitter, letterbox): per image, resample the
// rectangle the output shows, then write it with its padding; images spread over the pool.
#include <algorithm>
#include <string>
#include <vector>

#include "cc/kernels/decode/decode_crop_resize.h"
#include "cc/kernels/resample/placement_cpu.h"
#include "cc/kernels/resample/resample_cpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/geometry_common.h"
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

// What both kernels read once: the placement rule, resampling, epilogue and padding.
struct PlacedAttrs {
  PlacedRequest base;
  Epilogue epilogue;
  float pad_value = 0.f;
};

absl::Status ReadPlacedAttrs(OpKernelConstruction* ctx, PlacedAttrs* a) {
  std::vector<float> scale;
  TF_RETURN_IF_ERROR(ctx->GetAttr("scale", &scale));
  if (scale.size() != 2) return tensorflow::errors::InvalidArgument("scale needs 2 values");
  a->base.rule.scale_lo = scale[0];
  a->base.rule.scale_hi = scale[1];
  TF_RETURN_IF_ERROR(ctx->GetAttr("jitter", &a->base.rule.jitter));
  TF_RETURN_IF_ERROR(ctx->GetAttr("center", &a->base.rule.center));
  TF_RETURN_IF_ERROR(ctx->GetAttr("pad_value", &a->pad_value));
  TF_RETURN_IF_ERROR(ReadResizeAttrs(ctx, &a->base.method, &a->base.antialias));
  return ReadEpilogueAttrs(ctx, &a->epilogue);
}

// The per-image requests: draws [n, 3], the output size and mirror flags ([n] or [0]).
absl::Status PlacedRequests(OpKernelContext* ctx, const PlacedAttrs& a, int64_t n, int draws_input,
                            std::vector<PlacedRequest>* requests, std::vector<Epilogue>* epilogues) {
  const Tensor& draws = ctx->input(draws_input);
  if (draws.dims() != 2 || draws.dim_size(0) != n || draws.dim_size(1) != 3) {
    return tensorflow::errors::InvalidArgument("draws must be [", n, ", 3], got ",
                                               draws.shape().DebugString());
  }
  int out_h, out_w;
  TF_RETURN_IF_ERROR(ReadSize(ctx->input(draws_input + 1), &out_h, &out_w));
  TF_RETURN_IF_ERROR(SampleEpilogues(a.epilogue, ctx->input(draws_input + 2), n, epilogues));
  auto d = draws.matrix<float>();
  for (int64_t i = 0; i < n; ++i) {
    PlacedRequest r = a.base;
    r.u_scale = d(i, 0);
    r.u_y = d(i, 1);
    r.u_x = d(i, 2);
    r.out_h = out_h;
    r.out_w = out_w;
    r.mirror = (*epilogues)[i].mirror;  // the resampled rows are reversed by the epilogue
    requests->push_back(r);
  }
  return absl::OkStatus();
}

void WriteInfo(const PlacedCrop& p, float* info) {
  info[0] = float(p.placement.scaled_h) / p.img_h;
  info[1] = float(p.placement.scaled_w) / p.img_w;
  info[2] = float(p.placement.offset_y);
  info[3] = float(p.placement.offset_x);
  info[4] = float(p.img_h);
  info[5] = float(p.img_w);
}

// One image between its decode and its resample.
struct PlacedState {
  PlacedCrop plan;
  DecodedCrop crop;
};

template <typename Out>
class DecodeResizePadOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit DecodeResizePadOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadFusedDecodeAttrs(ctx, &request_, &max_dct_denom_));
    OP_REQUIRES_OK(ctx, ReadPlacedAttrs(ctx, &attrs_));
    OP_REQUIRES_OK(ctx, ReadOnErrorAttr(ctx, &skip_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& contents = ctx->input(0);
    const int64_t n = contents.dim_size(0);
    std::vector<PlacedRequest> requests;
    std::vector<Epilogue> epilogues;
    OP_REQUIRES_OK(ctx, PlacedRequests(ctx, attrs_, n, 1, &requests, &epilogues));
    int size_h, size_w;
    OP_REQUIRES_OK(ctx, ReadSize(ctx->input(2), &size_h, &size_w));
    const int c = request_.channels;
    Tensor *out = nullptr, *info = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, TensorShape({n, size_h, size_w, c}), &out));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({n, 6}), &info));
    auto flat = contents.flat<tensorflow::tstring>();
    Out* o = out->flat<Out>().data();
    float* inf = info->flat<float>().data();
    std::vector<Status> statuses(n);
    // Decode a few images, then resample them (as DecodeCropResize: see ForEachImageInGroups).
    ForEachImageInGroups<PlacedState>(
        ctx, n, kDecodeGroup, kDecodeGroupBytes,
        [&](int64_t i, PlacedState* st) -> size_t {
          statuses[i] = DecodePlaced(Bytes(flat(i)), flat(i).size(), request_, requests[i], max_dct_denom_,
                                     &st->plan, &st->crop);
          return statuses[i].ok() ? st->crop.bytes() : 0;
        },
        [&](int64_t i, PlacedState* st) {
          if (!statuses[i].ok()) return;
          WriteInfo(st->plan, inf + 6 * i);
          Out* image = o + i * int64_t{size_h} * size_w * c;
          Out pad[4];  // decoded channels: 1, 3 or 4
          PaddingPixel(attrs_.pad_value, epilogues[i], c, pad);
          FillPadding<Out>(st->plan.visible, size_h, size_w, c, pad, image);
          ResampleCrop<Out>(st->crop, st->plan.spec, epilogues[i],
                            VisibleOrigin(st->plan.visible, size_w, c, image), long(size_w) * c);
        });
    const int64_t per = int64_t{size_h} * size_w * c;
    OP_REQUIRES_OK(ctx, FinishPerImage(ctx, 2, statuses, skip_, [&](int64_t i) {
                     std::fill_n(o + i * per, per, Out(0));
                     std::fill_n(inf + 6 * i, 6, 0.f);
                   }));
  }

 private:
  DecodeRequest request_;
  int max_dct_denom_ = 1;
  PlacedAttrs attrs_;
  bool skip_ = false;
};

template <typename In, typename Out>
class ResizePadOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit ResizePadOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadPlacedAttrs(ctx, &attrs_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& values = ctx->input(0);
    const Tensor& shapes = ctx->input(1);
    std::vector<int64_t> offsets;
    OP_REQUIRES_OK(ctx, ReadImageOffsets(values, shapes, &offsets));
    const int64_t n = shapes.dim_size(0);
    std::vector<PlacedRequest> requests;
    std::vector<Epilogue> epilogues;
    OP_REQUIRES_OK(ctx, PlacedRequests(ctx, attrs_, n, 2, &requests, &epilogues));
    int size_h, size_w;
    OP_REQUIRES_OK(ctx, ReadSize(ctx->input(3), &size_h, &size_w));
    const int c = static_cast<int>(values.dim_size(1));
    auto s = shapes.matrix<int32_t>();
    Tensor *out = nullptr, *info = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, TensorShape({n, size_h, size_w, c}), &out));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({n, 6}), &info));
    const In* in = values.flat<In>().data();
    Out* o = out->flat<Out>().data();
    float* inf = info->flat<float>().data();
    ForEachImage(ctx, n, [&](int64_t i) {
      const int h = s(i, 0), w = s(i, 1);
      CropBox box;
      const PlacedCrop plan = PlanPlaced(h, w, requests[i], &box);
      WriteInfo(plan, inf + 6 * i);
      ResampleAxis ay, ax;
      CropAxes(box, h, w, plan.spec, &ay, &ax);
      Out* image = o + i * int64_t{size_h} * size_w * c;
      std::vector<Out> pad(c);  // decoded images may have any number of channels
      PaddingPixel(attrs_.pad_value, epilogues[i], c, pad.data());
      FillPadding<Out>(plan.visible, size_h, size_w, c, pad.data(), image);
      ResampleImageCpu<In, Out>(in + offsets[i] * c, h, w, c, long(w) * c, ay, ax, plan.spec.out_h,
                                plan.spec.out_w, VisibleOrigin(plan.visible, size_w, c, image), epilogues[i],
                                long(size_w) * c);
    });
  }

 private:
  PlacedAttrs attrs_;
};

#define TFGPUAUG_REGISTER_RESIZE_PAD(In, Out)                   \
  REGISTER_KERNEL_BUILDER(Name("TfGpuAug>ResizePad")            \
                              .Device(tensorflow::DEVICE_CPU)   \
                              .TypeConstraint<In>("T")          \
                              .TypeConstraint<Out>("out_type"), \
                          ResizePadOp<In, Out>)
TFGPUAUG_REGISTER_RESIZE_PAD(uint8_t, uint8_t);
TFGPUAUG_REGISTER_RESIZE_PAD(uint8_t, float);
TFGPUAUG_REGISTER_RESIZE_PAD(float, float);
TFGPUAUG_REGISTER_RESIZE_PAD(float, uint8_t);
REGISTER_KERNEL_BUILDER(
    Name("TfGpuAug>DecodeResizePad").Device(tensorflow::DEVICE_CPU).TypeConstraint<uint8_t>("out_type"),
    DecodeResizePadOp<uint8_t>);
REGISTER_KERNEL_BUILDER(
    Name("TfGpuAug>DecodeResizePad").Device(tensorflow::DEVICE_CPU).TypeConstraint<float>("out_type"),
    DecodeResizePadOp<float>);

}  // namespace
}  // namespace tfgpuaug
