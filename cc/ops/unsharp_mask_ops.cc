// Registration of the UnsharpMask op (Albumentations' UnsharpMask, cc/kernels/augment/unsharp_mask.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>UnsharpMask")
    .Input("images: uint8")
    .Input("weights: float")
    .Input("alpha: float")
    .Input("threshold: float")
    .Output("sharpened: uint8")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, weights, alpha, threshold;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &weights));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &alpha));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 1, &threshold));
      DimensionHandle batch;
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(weights, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(alpha, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(threshold, 0), &batch));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Albumentations' UnsharpMask on uint8 [B, H, W, C]: per image, the separable blur by weights
[B, taps] (a symmetric kernel, taps odd, reflect-101 border) of the levels v / 255, a mask where
they differ from their blur by more than threshold [B] levels, that mask blurred the same way
(soft), and the output rint(255 (clip(L + alpha (L - blur), 0, 1) soft + L (1 - soft))).
)doc");

}  // namespace tensorflow
