// Registration of the LevelTables op (per-pixel level tables, cc/kernels/augment/level_tables.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>LevelTables")
    .Input("images: uint8")
    .Input("tables: uint8")
    .Input("rows: int32")
    .Output("mapped: uint8")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, tables;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 4, &tables));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Each byte of uint8 images [B, H, W, C] replaced by its entry in a table of 256: tables
[T, R, K, 256] (T 1 or B: one set for the batch or one per image; K 1 or C: one table for every
channel or one per channel), row rows[b, y, x] (clamped into [0, R - 1]) of [B, H, W], or row 0
everywhere when rows has no elements.
)doc");

}  // namespace tensorflow
