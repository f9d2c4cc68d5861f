// Registration of the HeStain op (Albumentations' HEStain jitter, cc/kernels/augment/he_stain.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>HeStain")
    .Input("images: uint8")
    .Input("densities: float")
    .Input("thresholds: double")
    .Input("cells: uint8")
    .Input("projections: double")
    .Input("matrices: double")
    .Input("scales: double")
    .Input("shifts: double")
    .Input("apply: bool")
    .Output("stained: uint8")
    .Attr("augment_background: bool = false")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, unused;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      for (int i = 1; i < 4; ++i) TF_RETURN_IF_ERROR(c->WithRank(c->input(i), 1, &unused));
      DimensionHandle batch = c->Dim(images, 0);
      for (int i = 4; i < 9; ++i) {
        TF_RETURN_IF_ERROR(c->WithRank(c->input(i), i < 6 ? 3 : (i < 8 ? 2 : 1), &unused));
        TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(c->input(i), 0), &batch));
      }
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Albumentations' HEStain jitter of uint8 RGB images [B, H, W, 3] in float64: each pixel's density
(densities [256]: a byte's float32 optical density) split into hematoxylin and eosin
concentrations by projections [B, 2, 3] ((S S^T + 1e-6 I)^-1 S), scaled by scales [B, 2] and
shifted by shifts [B, 2] where the pixel is tissue (float32 luminosity below 0.85) or always
(augment_background), and rebuilt through matrices [B, 2, 3] (S) as rint(clip(255 exp(-c S), 0,
255)), that rounding read off thresholds [255] (ln(255 / (v - 0.5)), v = 1..255) and cells
[3226] (the count of thresholds at or above each 1/512 of an exponent). Samples with apply [B]
false are copied.
)doc");

}  // namespace tensorflow
