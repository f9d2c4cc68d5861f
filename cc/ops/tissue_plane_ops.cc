// Registration of the TissuePlane op (the first half of HEStain's "macenko" fit,
// cc/kernels/augment/tissue_plane.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>TissuePlane")
    .Input("images: uint8")
    .Input("densities: float")
    .Output("planes: double")
    .Output("coordinates: double")
    .Output("keys: float")
    .Output("tissue: bool")
    .Output("counts: int32")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, densities;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &densities));
      const DimensionHandle b = c->Dim(images, 0);
      DimensionHandle n;
      TF_RETURN_IF_ERROR(c->Multiply(c->Dim(images, 1), c->Dim(images, 2), &n));
      c->set_output(0, c->MakeShape({b, 3, 2}));
      c->set_output(1, c->MakeShape({b, n, 2}));
      c->set_output(2, c->MakeShape({b, n}));
      c->set_output(3, c->MakeShape({b, n}));
      c->set_output(4, c->MakeShape({b}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
The first half of Macenko et al.'s stain fit for uint8 RGB images [B, H, W, 3]: each pixel's
density (densities [256]: a byte's float32 optical density), tissue where some channel's is above
0.05 (tissue [B, N], counts [B]); the tissue densities' covariance in float64, its two leading
eigenvectors (planes [B, 3, 2], each signed with a non-negative red component); each tissue
pixel's coordinates in that plane (coordinates [B, N, 2], zeros elsewhere) and a float32 key
ordering them as atan2 does (keys [B, N]). N = H W.
)doc");

}  // namespace tensorflow
