// Registration of the StainNmf op (Albumentations' HEStain "vahadane" fit,
// cc/kernels/augment/stain_nmf.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>StainNmf")
    .Input("images: uint8")
    .Input("densities: float")
    .Output("rows: float")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, densities;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &densities));
      c->set_output(0, c->MakeShape({c->Dim(images, 0), 2, 3}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Albumentations' "vahadane" stain fit of uint8 RGB images [B, H, W, 3]: each image's optical
densities (densities [256]: a byte's density) factored by 100 rounds of multiplicative NMF
updates from Ruifrok's hematoxylin and eosin rows, in float64 with float32 concentrations between
rounds. rows [B, 2, 3]: the unit stain rows in the factorisation's order (not yet told apart), NaN
where a row vanished (an image with no density).
)doc");

}  // namespace tensorflow
