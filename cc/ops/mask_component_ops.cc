// MaskComponents: the connected components of each mask of a batch (cc/kernels/masks), for
// MaskDropout's Albumentations objects. CPU only: MaskDropout runs in the host part of a
// pipeline whenever masks travel with the images.
#include <limits>
#include <vector>

#include "cc/kernels/masks/connected_components.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/parallel.h"
#include "cc/ops/pooled_output.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {
namespace {

REGISTER_OP("TfGpuAug>MaskComponents")
    .Input("masks: uint8")
    .Output("labels: int32")
    .Output("counts: int32")
    .Attr("connectivity: int = 8")
    .SetShapeFn([](shape_inference::InferenceContext* c) {
      shape_inference::ShapeHandle masks;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 3, &masks));
      c->set_output(0, masks);
      c->set_output(1, c->Vector(c->Dim(masks, 0)));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Connected components of each [H, W] mask of a [B, H, W] batch: pixels of one non-zero value
joined through their 8 (or 4) neighbours. labels: 0 where the mask is 0, else 1 + the index of
the pixel's component, numbered in the raster order of each component's first pixel. counts:
the components of each mask.
)doc");

class MaskComponentsOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit MaskComponentsOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    int connectivity = 8;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("connectivity", &connectivity));
    OP_REQUIRES(ctx, connectivity == 4 || connectivity == 8,
                errors::InvalidArgument("MaskComponents: connectivity must be 4 or 8, got ", connectivity));
    eight_ = connectivity == 8;
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& masks = ctx->input(0);
    OP_REQUIRES(ctx, masks.dims() == 3,
                errors::InvalidArgument("MaskComponents: masks must be [B, H, W] uint8, got shape ",
                                        masks.shape().DebugString()));
    const int64_t b = masks.dim_size(0), h = masks.dim_size(1), w = masks.dim_size(2);
    OP_REQUIRES(
        ctx, h * w <= std::numeric_limits<int32_t>::max(),
        errors::InvalidArgument("MaskComponents: a ", h, "x", w, " mask has more pixels than int32 indexes"));
    Tensor *labels = nullptr, *counts = nullptr;
    OP_REQUIRES_OK(ctx, ::tfgpuaug::AllocatePooledOutput(ctx, 0, masks.shape(), &labels));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({b}), &counts));
    const uint8_t* in = masks.flat<uint8_t>().data();
    int32_t* out = labels->flat<int32_t>().data();
    int32_t* count = counts->flat<int32_t>().data();
    ::tfgpuaug::ForEachImage(ctx, b, [&](int64_t i) {
      thread_local std::vector<int32_t> parent;
      count[i] = ::tfgpuaug::LabelComponents(in + i * h * w, static_cast<int>(h), static_cast<int>(w), eight_,
                                             out + i * h * w, &parent);
    });
  }

 private:
  bool eight_ = true;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>MaskComponents").Device(DEVICE_CPU), MaskComponentsOp);

}  // namespace
}  // namespace tensorflow
