// Registration of the GlassSwaps op (GlassBlur's pixel swaps, cc/kernels/augment/glass_swaps.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>GlassSwaps")
    .Input("images: uint8")
    .Input("seeds: int32")
    .Input("apply: bool")
    .Output("swapped: uint8")
    .Attr("max_delta: int >= 1")
    .Attr("iterations: int >= 1")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, seeds, apply;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &seeds));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &apply));
      DimensionHandle batch;
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(seeds, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(apply, 0), &batch));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
GlassBlur's swaps ("fast" mode) on uint8 images [B, H, W, C] where apply[b] says (the rest
copied): iterations rounds, each as Albumentations' numpy statement
x[h, w], x[h + dy, w + dx] = x[h + dy, w + dx], x[h, w] over the interior pixels (rows and
columns max_delta + 1 .. side - max_delta; none when a side is at most 2 max_delta), dy and dx
integers in [-max_delta, max_delta) drawn by a counter hash of seeds[b], the round and the
pixel.
)doc");

}  // namespace tensorflow
