// Registration of the PatternBlend op (the plasma blends, cc/kernels/augment/pattern_blend.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>PatternBlend")
    .Input("images: uint8")
    .Input("patterns: float")
    .Input("factors: float")
    .Output("blended: uint8")
    .Attr("mode: {'shadow', 'brightness_contrast'}")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, patterns, factors;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 3, &patterns));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 2, &factors));
      DimensionHandle batch, unused;
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(patterns, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(factors, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 1), c->Dim(patterns, 1), &unused));
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 2), c->Dim(patterns, 2), &unused));
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(factors, 1), 2, &unused));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Albumentations' plasma blends of uint8 images [B, H, W, C] with patterns [B, H, W] in [0, 1]:
"shadow": v (1 - i p), i = factors[b, 0], float32, clipped and truncated;
"brightness_contrast": x = clip(v / 255 + p b), w = p c + 1, clip(clip(x w) + mean (1 - w)),
rounded half to even at 255 x, b and c = factors[b, 0 and 1], the mean over the sample's x
(summed in 2^-24 steps).
)doc");

}  // namespace tensorflow
