// Registration of the SpatterMud and SpatterRain ops (Albumentations' Spatter, "mud" and "rain"
// modes; cc/kernels/augment/spatter.h, spatter_rain.h).
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

REGISTER_OP("TfGpuAug>SpatterRain")
    .Input("images: uint8")
    .Input("params: double")
    .Input("seeds: int32")
    .Input("liquid_taps: double")
    .Input("colour: double")
    .Output("spattered: uint8")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, unused;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 2, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(4), 1, &unused));
      DimensionHandle batch;
      for (int i = 1; i < 4; ++i)
        TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(c->input(i), 0), &batch));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Albumentations' Spatter ("rain" mode) on uint8 RGB images [B, H, W, 3]. Per sample (params
[B, 4]: mean, std, cutout, intensity; seeds [B]): the liquid layer as SpatterMud makes it, zeroed
below the cutout, as bytes; its Canny edges (50 / 150); the distance to them (DIST_L2, 5x5 mask)
truncated at 20, blurred 3x3, as bytes, equalised, back to [0, 1]; a 3x3 relief of that, clipped,
blurred 5x5, times the liquid's bytes, over its peak: m; each byte rint(255 clip(v / 255 +
m c 0.9 intensity, 0, 1)) with c = colour [3] / 255. An intensity of 0 leaves the sample as it is.
)doc");

}  // namespace tensorflow
