// Registrations of the decode ops: signatures, shape functions and documentation.
#include "tensorflow/core/framework/common_shape_fns.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

absl::Status ChannelsDim(InferenceContext* c, DimensionHandle* dim) {
  int channels;
  TF_RETURN_IF_ERROR(c->GetAttr("channels", &channels));
  if (channels != 1 && channels != 3 && channels != 4) {
    return errors::InvalidArgument("channels must be 1, 3 or 4, got ", channels);
  }
  int denom;
  TF_RETURN_IF_ERROR(c->GetAttr("dct_denom", &denom));
  if (denom != 1 && denom != 2 && denom != 4 && denom != 8) {
    return errors::InvalidArgument("dct_denom must be 1, 2, 4 or 8, got ", denom);
  }
  int64_t max_pixels;
  TF_RETURN_IF_ERROR(c->GetAttr("max_pixels", &max_pixels));
  if (max_pixels <= 0) return errors::InvalidArgument("max_pixels must be positive");
  *dim = c->MakeDim(channels);
  return absl::OkStatus();
}

}  // namespace

#define TFGPUAUG_DECODE_ATTRS                                                                 \
  Attr("channels: int = 3")                                                                   \
      .Attr("dct_denom: int = 1")                                                             \
      .Attr("dct_method: {'INTEGER_ACCURATE', 'INTEGER_FAST', 'FLOAT'} = 'INTEGER_ACCURATE'") \
      .Attr("apply_exif_orientation: bool = false")                                           \
      .Attr("max_pixels: int = 134217728")

REGISTER_OP("TfGpuAug>DecodeImage")
    .Input("contents: string")
    .Input("crop_window: int32")
    .Output("image: dtype")
    .TFGPUAUG_DECODE_ATTRS.Attr("dtype: {uint8, uint16} = DT_UINT8")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle unused, window;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &unused));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &window));
      DimensionHandle channels;
      TF_RETURN_IF_ERROR(ChannelsDim(c, &channels));
      c->set_output(0, c->MakeShape({c->UnknownDim(), c->UnknownDim(), channels}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Decodes one JPEG, PNG, WebP or GIF image to uint8 [height, width, channels].

crop_window: empty, or [y, x, height, width] in the (scaled, oriented) output
  coordinates: only that window is decoded.
dct_denom: decode at 1/dct_denom of the size (JPEG DCT scaling; PNG box filter).
dct_method: INTEGER_ACCURATE matches PIL; INTEGER_FAST is TensorFlow's default.
max_pixels: headers declaring more pixels are refused before any allocation.
dtype: uint16 keeps 16-bit PNG, TIFF, PNM and JPEG 2000 samples whole and widens 8-bit
  samples by 257.
)doc");

REGISTER_OP("TfGpuAug>DecodeAnimation")
    .Input("contents: string")
    .Output("frames: uint8")
    .Attr("channels: int = 3")
    .Attr("max_pixels: int = 134217728")
    .Attr("max_bytes: int = 4294967296")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle unused;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &unused));
      int channels;
      int64_t max_pixels, max_bytes;
      TF_RETURN_IF_ERROR(c->GetAttr("channels", &channels));
      TF_RETURN_IF_ERROR(c->GetAttr("max_pixels", &max_pixels));
      TF_RETURN_IF_ERROR(c->GetAttr("max_bytes", &max_bytes));
      if (channels != 1 && channels != 3 && channels != 4) {
        return errors::InvalidArgument("channels must be 1, 3 or 4, got ", channels);
      }
      if (max_pixels <= 0 || max_bytes <= 0)
        return errors::InvalidArgument("max_pixels and max_bytes must be positive");
      c->set_output(0, c->MakeShape({c->UnknownDim(), c->UnknownDim(), c->UnknownDim(), channels}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Decodes every frame of a GIF or WebP animation, composited as a viewer shows it, to uint8
[frames, height, width, channels]; any other image gives one frame.

max_pixels: a header declaring more pixels per frame is refused before any allocation.
max_bytes: so is an animation whose frames add up to more bytes.
)doc");

REGISTER_OP("TfGpuAug>DecodeImageBatch")
    .Input("contents: string")
    .Input("crop_windows: int32")
    .Output("values: uint8")
    .Output("shapes: int32")
    .Output("errors: string")
    .TFGPUAUG_DECODE_ATTRS.Attr("max_batch_bytes: int = 4294967296")
    .Attr("on_error: {'raise', 'skip'} = 'raise'")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle contents, windows;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &contents));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &windows));
      DimensionHandle unused;
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(windows, 1), 4, &unused));
      DimensionHandle channels;
      TF_RETURN_IF_ERROR(ChannelsDim(c, &channels));
      int64_t max_batch_bytes;
      TF_RETURN_IF_ERROR(c->GetAttr("max_batch_bytes", &max_batch_bytes));
      if (max_batch_bytes <= 0) return errors::InvalidArgument("max_batch_bytes must be positive");
      c->set_output(0, c->MakeShape({c->UnknownDim(), channels}));
      c->set_output(1, c->MakeShape({c->Dim(contents, 0), 3}));
      c->set_output(2, contents);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Decodes a batch of JPEG/PNG/WebP/GIF images in parallel into flat pixel rows.

values: [sum of height*width, channels], the images one after another.
shapes: [batch, 3] (height, width, channels) of each image.
crop_windows: [0, 4] for whole images, or [batch, 4] windows (y, x, height, width).
max_batch_bytes: batches whose headers add up to more output bytes are refused before
  any allocation.
errors: [batch] "" per decoded image; with on_error="skip", why an image could not be
  decoded (it comes out 0x0 or zeros) instead of failing the batch.
)doc");

REGISTER_OP("TfGpuAug>ImageShape")
    .Input("contents: string")
    .Output("shape: int32")
    .Output("errors: string")
    .Attr("apply_exif_orientation: bool = false")
    .Attr("on_error: {'raise', 'skip'} = 'raise'")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle out;
      TF_RETURN_IF_ERROR(c->Concatenate(c->input(0), c->Vector(3), &out));
      c->set_output(0, out);
      c->set_output(1, c->input(0));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Reads (height, width, channels) of JPEG/PNG/WebP/GIF images from their headers only.

channels is the native count: JPEG 1, 3 or 4 (CMYK); PNG 1 to 4.
errors: "" per readable header; with on_error="skip", why a header could not be read (its
  shape is zeros) instead of failing.
)doc");

REGISTER_OP("TfGpuAug>ImageHeader")
    .Input("contents: string")
    .Output("header: int32")
    .Output("errors: string")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle out;
      TF_RETURN_IF_ERROR(c->Concatenate(c->input(0), c->Vector(6), &out));
      c->set_output(0, out);
      c->set_output(1, c->input(0));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Header facts of each image, for dataset scans: (format, height, width, channels,
orientation, progressive), format 1 = JPEG, 2 = PNG, 3 = WebP, 4 = GIF; the stored (not re-oriented) size, the
native channels (JPEG 4 = CMYK; PNG 1 to 4) and the EXIF orientation (1 when absent).
errors: "" per readable header, else why not (its header row is zeros).
)doc");

}  // namespace tensorflow
