// Registrations of the placed resizes: scale jitter and letterbox (resize, crop or pad).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// images [batch, h, w, channels] and image_info [batch, 6]; `draws_input` is [batch, 3].
absl::Status PlacedShape(InferenceContext* c, DimensionHandle batch, int draws_input, int size_input,
                         DimensionHandle channels) {
  ShapeHandle draws, size, value;
  TF_RETURN_IF_ERROR(c->WithRank(c->input(draws_input), 2, &draws));
  DimensionHandle unused;
  TF_RETURN_IF_ERROR(c->WithValue(c->Dim(draws, 1), 3, &unused));
  TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(draws, 0), &batch));
  TF_RETURN_IF_ERROR(c->WithRank(c->input(size_input), 1, &size));
  TF_RETURN_IF_ERROR(c->WithValue(c->Dim(size, 0), 2, &unused));
  TF_RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(size_input, &value));
  std::vector<float> scale;
  TF_RETURN_IF_ERROR(c->GetAttr("scale", &scale));
  if (scale.size() != 2 || !(0 < scale[0] && scale[0] <= scale[1])) {
    return errors::InvalidArgument("scale must be [low, high] with 0 < low <= high");
  }
  c->set_output(0, c->MakeShape({batch, c->Dim(value, 0), c->Dim(value, 1), channels}));
  c->set_output(1, c->MakeShape({batch, 6}));
  return absl::OkStatus();
}

}  // namespace

#define TFGPUAUG_PLACEMENT_ATTRS                                               \
  Attr("scale: list(float) = [1.0, 1.0]")                                      \
      .Attr("jitter: bool = false")                                            \
      .Attr("center: bool = false")                                            \
      .Attr("pad_value: float = 0")                                            \
      .Attr("method: {'nearest', 'bilinear', 'bicubic', 'area'} = 'bilinear'") \
      .Attr("antialias: bool = false")                                         \
      .Attr("mean: list(float) = []")                                          \
      .Attr("std: list(float) = []")

REGISTER_OP("TfGpuAug>DecodeResizePad")
    .Input("contents: string")
    .Input("draws: float")
    .Input("size: int32")
    .Input("mirror: bool")
    .Output("images: out_type")
    .Output("image_info: float")
    .Output("errors: string")
    .Attr("out_type: {uint8, float} = DT_UINT8")
    .Attr("channels: int = 3")
    .Attr("dct_method: {'INTEGER_ACCURATE', 'INTEGER_FAST', 'FLOAT'} = 'INTEGER_ACCURATE'")
    .Attr("apply_exif_orientation: bool = false")
    .Attr("max_pixels: int = 134217728")
    .Attr("max_dct_denom: int = 1")
    .Attr("on_error: {'raise', 'skip'} = 'raise'")
    .TFGPUAUG_PLACEMENT_ATTRS
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle contents;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &contents));
      int channels;
      TF_RETURN_IF_ERROR(c->GetAttr("channels", &channels));
      if (channels != 1 && channels != 3 && channels != 4) {
        return errors::InvalidArgument("channels must be 1, 3 or 4, got ", channels);
      }
      TF_RETURN_IF_ERROR(PlacedShape(c, c->Dim(contents, 0), 1, 2, c->MakeDim(channels)));
      c->set_output(2, contents);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Decodes each image and places it, resized, in a fixed-size output: the image is fit into
the output size times a scale drawn from `scale` (aspect kept), then, with `jitter`, a
random crop of the output size is taken where it is larger, and the rest is padded with
`pad_value`, in input pixel units (normalised with the image when mean/std are given, so the
padding is the same colour either way); with `center` it is centred instead (letterbox). Only the
rows and columns the output shows are decoded.

draws: [batch, 3] uniforms in [0, 1): the scale, the crop's y and x offsets.
mirror: [batch] flip the image left-right before placing it, or [0] for none.
image_info: [batch, 6] (scale_y, scale_x, offset_y, offset_x, height, width): an input pixel
coordinate (after the flip) maps to output coordinate `input * scale - offset`.
errors: [batch] "" per placed image; with on_error="skip", why an image could not be decoded
  (its image and info are zeros) instead of failing the batch.
)doc");

REGISTER_OP("TfGpuAug>ResizePad")
    .Input("values: T")
    .Input("shapes: int32")
    .Input("draws: float")
    .Input("size: int32")
    .Input("mirror: bool")
    .Output("images: out_type")
    .Output("image_info: float")
    .Attr("T: {uint8, float}")
    .Attr("out_type: {uint8, float}")
    .TFGPUAUG_PLACEMENT_ATTRS
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle values, shapes;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &values));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &shapes));
      return PlacedShape(c, c->Dim(shapes, 0), 2, 3, c->Dim(values, 1));
    })
    .Doc(R"doc(
DecodeResizePad on decoded images: values [sum of height*width, channels] and shapes
[batch, 2] as CropResize.
)doc");

}  // namespace tensorflow
