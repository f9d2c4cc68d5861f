// CocoMasks: an image's COCO segmentations (polygons or RLE, packed by tga.data.coco) as masks,
// either one binary mask per instance or one instance-id mask that travels with the image
// through tfgpuaug's geometric transforms (nearest sampling).
#include <string>

#include "cc/kernels/masks/coco_masks.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/pooled_output.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {
namespace {

REGISTER_OP("TfGpuAug>CocoMasks")
    .Input("segmentations: string")
    .Input("kinds: int32")
    .Input("height: int32")
    .Input("width: int32")
    .Output("masks: uint8")
    .Attr("instance_ids: bool = false")
    .Attr("max_pixels: int = 134217728")
    .SetShapeFn([](shape_inference::InferenceContext* c) {
      shape_inference::ShapeHandle segmentations, kinds, unused;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &segmentations));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &kinds));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 0, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 0, &unused));
      bool ids;
      TF_RETURN_IF_ERROR(c->GetAttr("instance_ids", &ids));
      if (ids) {
        c->set_output(0, c->MakeShape({c->UnknownDim(), c->UnknownDim(), 1}));
      } else {
        c->set_output(0, c->MakeShape({c->Dim(segmentations, 0), c->UnknownDim(), c->UnknownDim()}));
      }
      return absl::OkStatus();
    })
    .Doc(R"doc(
COCO segmentations of one image as masks: [N, height, width] 0/1 per instance, or with
instance_ids one [height, width, 1] mask holding 1 + the index of the last instance covering
each pixel (0: none; at most 255 instances).

kinds: 0 polygons (per part a uint32 count 2k, then k float32 (x, y) pairs), 1 RLE counts
(uint32, column-major, zeros first), 2 COCO's compressed RLE string.
)doc");

class CocoMasksOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit CocoMasksOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("instance_ids", &instance_ids_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("max_pixels", &max_pixels_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& segmentations = ctx->input(0);
    const Tensor& kinds = ctx->input(1);
    OP_REQUIRES(
        ctx, segmentations.dims() == 1 && kinds.dims() == 1 && kinds.dim_size(0) == segmentations.dim_size(0),
        errors::InvalidArgument("segmentations and kinds must be [N] each, got ",
                                segmentations.shape().DebugString(), " and ", kinds.shape().DebugString()));
    const int h = ctx->input(2).scalar<int32_t>()();
    const int w = ctx->input(3).scalar<int32_t>()();
    const int64_t n = segmentations.dim_size(0);
    OP_REQUIRES(ctx, h > 0 && w > 0 && int64_t{h} * w <= max_pixels_,
                errors::InvalidArgument("COCO masks: image size ", h, "x", w,
                                        " is empty or over max_pixels=", max_pixels_));
    OP_REQUIRES(ctx, !instance_ids_ || n <= 255,
                errors::InvalidArgument("COCO masks: ", n,
                                        " instances do not fit a uint8 instance-id mask; "
                                        "use instance masks"));
    OP_REQUIRES(ctx, instance_ids_ || n * h * w <= max_pixels_ * 4,
                errors::InvalidArgument("COCO masks: ", n, " masks of ", h, "x", w, " are too many bytes"));
    Tensor* out = nullptr;
    const TensorShape shape = instance_ids_ ? TensorShape({h, w, 1}) : TensorShape({n, h, w});
    OP_REQUIRES_OK(ctx, ::tfgpuaug::AllocatePooledOutput(ctx, 0, shape, &out));
    uint8_t* masks = out->flat<uint8_t>().data();
    std::fill_n(masks, out->NumElements(), 0);
    auto segs = segmentations.flat<tstring>();
    auto k = kinds.flat<int32_t>();
    for (int64_t i = 0; i < n; ++i) {
      OP_REQUIRES(ctx, k(i) >= 0 && k(i) <= 2, errors::InvalidArgument("COCO masks: unknown kind ", k(i)));
      uint8_t* target = instance_ids_ ? masks : masks + i * int64_t{h} * w;
      const tfgpuaug::Status s = tfgpuaug::PaintSegmentation(
          static_cast<tfgpuaug::SegmentationKind>(k(i)), reinterpret_cast<const uint8_t*>(segs(i).data()),
          segs(i).size(), h, w, instance_ids_ ? static_cast<uint8_t>(i + 1) : 1, target);
      OP_REQUIRES_OK(ctx, tfgpuaug::ToTfStatus(s.Prefixed("instance " + std::to_string(i) + ": ")));
    }
  }

 private:
  bool instance_ids_ = false;
  int64_t max_pixels_ = 0;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>CocoMasks").Device(DEVICE_CPU), CocoMasksOp);

}  // namespace
}  // namespace tensorflow
