// TfGpuAug>MoveBoxes: Targets.affine's box bookkeeping (cc/kernels/boxes) as one CPU op. CPU
// only, by design: annotations are made final in the host part of a GPU-placed stage.
#include <vector>

#include "cc/kernels/boxes/box_affine.h"
#include "cc/ops/guarded_kernel.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tfgpuaug {
namespace {

using tensorflow::OpKernel;
using tensorflow::OpKernelConstruction;
using tensorflow::OpKernelContext;
using tensorflow::Tensor;
using tensorflow::TensorShape;
using tensorflow::errors::InvalidArgument;

class MoveBoxesOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit MoveBoxesOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("min_area", &filter_.min_area));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("min_visibility", &filter_.min_visibility));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& boxes = ctx->input(0);
    const Tensor& splits = ctx->input(1);
    const Tensor& matrices = ctx->input(2);
    const Tensor& out_hw = ctx->input(3);
    OP_REQUIRES(ctx, boxes.dims() == 2 && boxes.dim_size(1) == 4,
                InvalidArgument("boxes must be [M, 4], got ", boxes.shape().DebugString()));
    OP_REQUIRES(ctx, splits.dims() == 1 && splits.dim_size(0) >= 1,
                InvalidArgument("row_splits must be [B + 1], got ", splits.shape().DebugString()));
    const int64_t n = splits.dim_size(0) - 1, m = boxes.dim_size(0);
    OP_REQUIRES(
        ctx,
        matrices.dims() == 3 && matrices.dim_size(0) == n && matrices.dim_size(2) == 3 &&
            (matrices.dim_size(1) == 2 || matrices.dim_size(1) == 3),
        InvalidArgument("matrices must be [", n, ", 2 or 3, 3], got ", matrices.shape().DebugString()));
    OP_REQUIRES(ctx, out_hw.dims() == 2 && out_hw.dim_size(0) == n && out_hw.dim_size(1) == 2,
                InvalidArgument("out_hw must be [", n, ", 2], got ", out_hw.shape().DebugString()));
    auto s = splits.vec<int64_t>();
    OP_REQUIRES(ctx, s(0) == 0 && s(n) == m,
                InvalidArgument("row_splits must start at 0 and end at ", m, " boxes"));
    for (int64_t i = 0; i < n; ++i) {
      OP_REQUIRES(ctx, s(i) <= s(i + 1), InvalidArgument("row_splits must not decrease"));
    }
    std::vector<float> moved(4 * m);
    std::vector<int64_t> kept(m);
    Tensor* out_splits = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({n + 1}), &out_splits));
    const int64_t k = MoveBoxes(boxes.flat<float>().data(), s.data(), n, matrices.flat<float>().data(),
                                static_cast<int>(matrices.dim_size(1)), out_hw.flat<float>().data(), filter_,
                                moved.data(), kept.data(), out_splits->flat<int64_t>().data());
    Tensor *out_boxes = nullptr, *out_kept = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({k, 4}), &out_boxes));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({k}), &out_kept));
    std::copy_n(moved.data(), 4 * k, out_boxes->flat<float>().data());
    std::copy_n(kept.data(), k, out_kept->flat<int64_t>().data());
  }

 private:
  BoxFilter filter_;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>MoveBoxes").Device(tensorflow::DEVICE_CPU), MoveBoxesOp);

}  // namespace
}  // namespace tfgpuaug

namespace tensorflow {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>MoveBoxes")
    .Input("boxes: float")
    .Input("row_splits: int64")
    .Input("matrices: float")
    .Input("out_hw: float")
    .Output("moved: float")
    .Output("moved_row_splits: int64")
    .Output("kept: int64")
    .Attr("min_area: float = 0")
    .Attr("min_visibility: float = 0")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle boxes, splits, matrices, out_hw;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &boxes));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &splits));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 3, &matrices));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 2, &out_hw));
      c->set_output(0, c->MakeShape({c->UnknownDim(), 4}));
      c->set_output(1, splits);
      c->set_output(2, c->Vector(c->UnknownDim()));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Moves ragged boxes [M, 4] (x0, y0, x1, y1; image i owns rows row_splits[i]..row_splits[i+1])
through per-image affine maps or homographies [B, 2|3, 3]: each box becomes the enclosing box
of its moved corners, clipped to [0, w] x [0, h] of out_hw [B, 2], and is kept when its area
is more than min_area and at least min_visibility of its area before clipping. Returns the
kept boxes, their row splits, and the input row of each (to gather per-box fields).
)doc");

}  // namespace tensorflow
