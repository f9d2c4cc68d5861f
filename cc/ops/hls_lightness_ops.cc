// Registration of the HlsLightness op (a lightness edit through OpenCV's 8-bit HLS,
// cc/kernels/augment/hls8.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>HlsLightness")
    .Input("images: uint8")
    .Input("tables: int32")
    .Input("levels: int32")
    .Output("edited: uint8")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, tables;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &tables));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
RGB uint8 images [B, H, W, 3] with their OpenCV 8-bit HLS lightness rewritten: where
levels[b, y, x] (of [B, H, W], or no elements: none) is >= 0 it is the new lightness, else
tables[b or 0, lightness] (tables [1 or B, 256]) is, and a negative entry keeps the pixel's
bytes. Edited pixels go back to RGB through 8-bit HLS, as cv2.cvtColor's round trip.
)doc");

}  // namespace tensorflow
