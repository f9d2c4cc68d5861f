// Registration of the SunFlare op (Albumentations' RandomSunFlare, "overlay" method;
// cc/kernels/augment/sun_flare.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>SunFlare")
    .Input("images: uint8")
    .Input("circles: int32")
    .Input("circle_weights: float")
    .Input("circle_colours: uint8")
    .Input("suns: int32")
    .Input("sun_radii: int32")
    .Input("sun_weights: float")
    .Input("sun_colour: uint8")
    .Output("flared: uint8")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, unused;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 3, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 3, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 3, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(4), 2, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(5), 1, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(6), 3, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(7), 1, &unused));
      DimensionHandle batch;
      for (int i = 1; i < 7; ++i) {
        if (i == 5) continue;
        TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(c->input(i), 0), &batch));
      }
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Albumentations' RandomSunFlare ("overlay" method) on uint8 images [B, H, W, C]. Per sample:
the flare circles (circles [B, N, 3]: x, y, radius, a radius below 0 for no circle; circle_weights
[B, N, 2]: alpha and 1 - alpha as float32; circle_colours [B, N, C]) drawn in order on an overlay,
the output blended with it after each; then the sun's discs (about suns [B, 2], radii sun_radii
[M] ascending, weights sun_weights [B, M, 2], colour sun_colour [C]) the same way. A blend is
SimSIMD's weighted sum of bytes, rint(fma(alpha, overlay, beta output)) in float32; a disc
covers dx^2 + dy^2 <= r^2 (cv2.circle's filled rule). At most 64 circles and 1024 discs.
)doc");

}  // namespace tensorflow
