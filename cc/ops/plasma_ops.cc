// Registration of the PlasmaPattern op (Albumentations' plasma fractal, cc/kernels/augment/plasma.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>PlasmaPattern")
    .Input("seeds: int32")
    .Input("size: int32")
    .Output("pattern: float")
    .Attr("roughness: float")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle seeds, hw, out;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &seeds));
      TF_RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(1, &hw));
      TF_RETURN_IF_ERROR(c->WithRank(hw, 2, &hw));
      TF_RETURN_IF_ERROR(c->Concatenate(seeds, hw, &out));
      c->set_output(0, out);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Plasma fractals [B, H, W] in [0, 1] (size = [H, W]), one per seed, as Albumentations'
generate_plasma_pattern draws them: a 3 x 3 grid uniform in [-1, 1), then diamond-square steps
until the grid's side 2^k + 1 reaches max(H, W, 3) (each new point the mean of its four
neighbours, zero past the border, plus noise uniform in +-roughness^s at step s where that mean
is positive, else zero; old points take noise too; each step's grid min-max normalised), cropped
to [H, W], normalised again and clipped. The noise is a counter hash of the seed, the step and
the point.
)doc");

}  // namespace tensorflow
