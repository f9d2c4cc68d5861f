// Registration of the Superpixels op (Albumentations' Superpixels, cc/kernels/augment/superpixels.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>Superpixels")
    .Input("images: uint8")
    .Input("segments: int32")
    .Input("replace: bool")
    .Output("replaced: uint8")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, segments, replace;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &segments));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 2, &replace));
      DimensionHandle batch;
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(segments, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(replace, 0), &batch));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Albumentations' Superpixels of uint8 images [B, H, W, C]: sample b cut into about segments[b]
superpixels by Albumentations' SLIC (10 rounds, compactness 10, float64 as numpy), then the i-th
label present (label 0 excepted) replaced by its rounded mean colour where replace[b, i mod n] is
set, n = segments[b] clamped to [1, M] for replace [B, M] (M >= 1). A sample none of whose first
n flags is set is left as it is.
)doc");

}  // namespace tensorflow
