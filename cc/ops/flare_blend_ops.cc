// Registration of the FlareBlend op (RandomSunFlare "physics_based"'s blurs, fade and screen of
// its painted layer, cc/kernels/augment/flare_blend.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>FlareBlend")
    .Input("images: uint8")
    .Input("layer: int32")
    .Input("sun: int32")
    .Input("apply: bool")
    .Input("flare_kernel: float")
    .Input("kernels: float")
    .Output("blended: uint8")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, layer, sun, apply, flare_kernel, kernels;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 3, &layer));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 2, &sun));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 1, &apply));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(4), 1, &flare_kernel));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(5), 2, &kernels));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
RandomSunFlare "physics_based" once its flare layer is painted (Albumentations'
add_sun_flare_physics_based): per sample of RGB images [N, H, W, 3] whose apply [N] is true, its
layer [N, H, W] (int32, r + 256 g + 65536 b a pixel, as SpanRaster paints packed colours) as
three float planes, each blurred by flare_kernel [T] as SeparableBlur blurs (T odd, at most
1023), times the radial fade 1 - clip(d / (0.7 max(H, W)), 0, 1), d the distance of each pixel
from sun [N, 2] (x, y), in float64 applied in float32; channel c then blurred by kernels[c] of
kernels [3, T2] (T2 odd, at most 1023); then screened over the image, 255 - (255 - x)(255 - f) / 255
in float32, clipped and truncated. Samples whose apply is false come back unchanged.
)doc");

}  // namespace tensorflow
