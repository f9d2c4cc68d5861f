// Registration of the SpanRaster op (spans painted into an int32 plane per image,
// cc/kernels/augment/span_raster.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>SpanRaster")
    .Input("rows: int32")
    .Input("starts: int32")
    .Input("stops: int32")
    .Input("values: int32")
    .Input("size: int32")
    .Output("plane: int32")
    .Attr("combine: {'sum', 'max', 'last'} = 'sum'")
    .Attr("fill: int = 0")
    .Attr("box: int >= 1 = 1")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle spans, same, hw, out;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &spans));
      for (int i = 1; i < 4; ++i) TF_RETURN_IF_ERROR(c->Merge(spans, c->input(i), &same));
      TF_RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(4, &hw));
      TF_RETURN_IF_ERROR(c->WithRank(hw, 2, &hw));
      TF_RETURN_IF_ERROR(c->Concatenate(c->Vector(c->Dim(spans, 0)), hw, &out));
      c->set_output(0, out);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Spans painted into int32 planes [B, H, W] (size = [H, W]): span k of image b covers row
rows[b, k], columns starts[b, k] <= x < stops[b, k] (clipped to the plane; rows outside it add
nothing). Every pixel starts at fill; combine "sum": plus the values of the spans covering it
(wrapping as 32-bit integers); "max": the largest of fill and those values; "last": the value
of the last span in the image's list that covers it (painter's order), fill where none does.
Then, when box > 1, each pixel the sum over the box x box window (box // 2 pixels before it,
reflect-101 border, as cv2.blur).
)doc");

REGISTER_OP("TfGpuAug>LineRaster")
    .Input("x0: int32")
    .Input("y0: int32")
    .Input("x1: int32")
    .Input("y1: int32")
    .Input("values: int32")
    .Input("size: int32")
    .Output("plane: int32")
    .Attr("span_width: int >= 1 = 1")
    .Attr("combine: {'sum', 'max', 'last'} = 'sum'")
    .Attr("fill: int = 0")
    .Attr("box: int >= 1 = 1")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle lines, same, hw, out;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &lines));
      for (int i = 1; i < 5; ++i) TF_RETURN_IF_ERROR(c->Merge(lines, c->input(i), &same));
      TF_RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(5, &hw));
      TF_RETURN_IF_ERROR(c->WithRank(hw, 2, &hw));
      TF_RETURN_IF_ERROR(c->Concatenate(c->Vector(c->Dim(lines, 0)), hw, &out));
      c->set_output(0, out);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Lines painted into int32 planes [B, H, W] as SpanRaster paints spans: line k of image b runs
from (x0, y0) to (x1, y1) [b, k] as cv2.line draws it 4-connected (LINE_4, thickness 1, walked
from its left end), each pixel widened to span_width columns ((span_width - 1) // 2 of them
left of it), one span per row the line crosses, with the line's value; combine, fill and box
as SpanRaster's (last: the last line in the image's list that covers the pixel).
)doc");

}  // namespace tensorflow
