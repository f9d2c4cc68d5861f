// Registration of the batched, per-sample conditional augment op.
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>Augment")
    .Input("images: uint8")
    .Input("op_ids: int32")
    .Input("magnitudes: float")
    .Input("aux: float")
    .Output("augmented: uint8")
    .Attr("fill_value: float = 128")
    .Attr("interpolation: {'nearest', 'bilinear'} = 'bilinear'")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, ops, mags, aux;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &ops));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 2, &mags));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 3, &aux));
      TF_RETURN_IF_ERROR(c->Merge(ops, mags, &ops));
      DimensionHandle b, unused;
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(ops, 0), &b));
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(aux, 0), b, &unused));
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(aux, 1), c->Dim(ops, 1), &unused));
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(aux, 2), 2, &unused));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Applies K stages of per-sample augmentations to a uint8 [B, H, W, C] batch.

op_ids: [B, K] operation of each sample at each stage (ids of cc/kernels/augment/augment.h).
magnitudes: [B, K] parameter in natural units, sign applied (degrees, factor, pixels...).
aux: [B, K, 2] uniform numbers in [0, 1) for ops that need them (cutout centre, noise).
Semantics follow PIL's ImageOps / ImageEnhance / Image.transform; fill for geometry.
)doc");

REGISTER_OP("TfGpuAug>AugmentOpNames")
    .Output("names: string")
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, c->Vector(c->UnknownDim()));
      return absl::OkStatus();
    })
    .Doc(R"doc(
The augmentation op names, indexed by the op ids the Augment op takes (one table in
cc/kernels/augment/augment.h; Python's tfgpuaug.augment.ops.OP_IDS is built from it).
)doc");

}  // namespace tensorflow
