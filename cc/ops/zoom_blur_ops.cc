// Registration of the ZoomBlur op (Albumentations' ZoomBlur, cc/kernels/augment/zoom_blur.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>ZoomBlur")
    .Input("images: uint8")
    .Input("max_factors: double")
    .Input("steps: double")
    .Output("blurred: uint8")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, max_factors, steps;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &max_factors));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &steps));
      DimensionHandle batch;
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(max_factors, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(steps, 0), &batch));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Albumentations' ZoomBlur of uint8 images [B, H, W, C]: sample b as floats v / 255 averaged with
its central zooms by each factor of numpy's arange(1, max_factors[b], steps[b]) (the crop of
ceil(side / z) resized by OpenCV's INTER_LINEAR float taps to int(crop z) and trimmed to the
image), clipped to [0, 1], times 255 and rounded half to even. At most 256 zooms a sample; a step
that is not above 0 or a max factor above 64 leaves the sample as it is.
)doc");

}  // namespace tensorflow
