// Registration of the Filter2D op (a correlation with one kernel per image,
// cc/kernels/augment/filter2d.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>Filter2D")
    .Input("images: uint8")
    .Input("kernels: float")
    .Output("filtered: uint8")
    .Attr("ties_up: bool = false")
    .Attr("symmetric: bool = false")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, kernels;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 3, &kernels));
      DimensionHandle batch, side;
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(kernels, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(kernels, 1), c->Dim(kernels, 2), &side));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
cv2.filter2D of each uint8 image of [B, H, W, C] with its own kernel of kernels [B, K, K]
(K odd, at most 63): the correlation about the kernel's centre, reflect-101 border, every
channel, each sum in float32 rounded to the nearest level (ties to even, as cv2.filter2D, or
up with ties_up, as cv2.GaussianBlur's 8-bit fixed point) and saturated. With symmetric, each
kernel is read only in its octant (rows K/2 .. K-1, columns K/2 .. that row), each tap standing
for the eight (or four, or one) taps the square's symmetries map it to, whose bytes are summed
in integers before one multiply-add: fewer loads and multiplies, the same filter for kernels
with those symmetries (Defocus's, RingingOvershoot's).
)doc");

}  // namespace tensorflow
