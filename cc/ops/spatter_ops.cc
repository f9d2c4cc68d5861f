// Registration of the SpatterMud op (Albumentations' Spatter, "mud" mode;
// cc/kernels/augment/spatter.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>SpatterMud")
    .Input("images: uint8")
    .Input("params: double")
    .Input("seeds: int32")
    .Input("liquid_taps: double")
    .Input("mask_taps: float")
    .Input("colour: double")
    .Output("spattered: uint8")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, params, unused;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &params));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 2, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(4), 2, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(5), 1, &unused));
      DimensionHandle batch;
      for (int i = 1; i < 5; ++i)
        TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(c->input(i), 0), &batch));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Albumentations' Spatter ("mud" mode) on uint8 RGB images [B, H, W, 3]. Per sample (params
[B, 4]: mean, std, cutout, intensity; seeds [B]): a liquid layer mean + std z of counter-hash
normals, blurred by liquid_taps [B, T1] (float64, odd T1, centred; replicated edges), zeroed
below the cutout and marked above it (none marked: max(1, int(0.1 H W)) pixels of a seeded
permutation); the marks blurred by mask_taps [B, T2] (float32), over their peak, times the
intensity; each channel img (c - mud) / c + mud with c = colour [3] / 255 (levels in), rint.
An intensity of 0 leaves the sample as it is.
)doc");

}  // namespace tensorflow
