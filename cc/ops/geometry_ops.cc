// Registrations of the geometry and normalization ops.
#include "tensorflow/core/framework/common_shape_fns.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// [height, width] from a 1-D size input with 2 elements; unknown when not constant.
absl::Status SizeDims(InferenceContext* c, int input, DimensionHandle* h, DimensionHandle* w) {
  ShapeHandle size;
  TF_RETURN_IF_ERROR(c->WithRank(c->input(input), 1, &size));
  DimensionHandle unused;
  TF_RETURN_IF_ERROR(c->WithValue(c->Dim(size, 0), 2, &unused));
  ShapeHandle value;
  TF_RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(input, &value));
  *h = c->Dim(value, 0);
  *w = c->Dim(value, 1);
  return absl::OkStatus();
}

absl::Status BoxesShape(InferenceContext* c, int input, DimensionHandle* batch) {
  ShapeHandle boxes;
  TF_RETURN_IF_ERROR(c->WithRank(c->input(input), 2, &boxes));
  DimensionHandle unused;
  TF_RETURN_IF_ERROR(c->WithValue(c->Dim(boxes, 1), 4, &unused));
  *batch = c->Dim(boxes, 0);
  return absl::OkStatus();
}

// mean/std attrs: empty, or one value per channel with a float output and no zero std.
absl::Status CheckNormalizeAttrs(InferenceContext* c, DimensionHandle channels) {
  std::vector<float> mean, std;
  TF_RETURN_IF_ERROR(c->GetAttr("mean", &mean));
  TF_RETURN_IF_ERROR(c->GetAttr("std", &std));
  if (mean.size() != std.size()) {
    return errors::InvalidArgument("mean and std need the same length, got ", mean.size(), " and ",
                                   std.size());
  }
  if (mean.empty()) return absl::OkStatus();
  DataType out_type;
  TF_RETURN_IF_ERROR(c->GetAttr("out_type", &out_type));
  if (out_type != DT_FLOAT) return errors::InvalidArgument("normalization (mean/std) needs out_type float");
  if (c->ValueKnown(channels) && c->Value(channels) != static_cast<int64_t>(mean.size())) {
    return errors::InvalidArgument("mean and std need one value per channel (", c->Value(channels), "), got ",
                                   mean.size());
  }
  for (float v : std) {
    if (v == 0.f) return errors::InvalidArgument("std must not contain 0");
  }
  return absl::OkStatus();
}

// [batch, h, w, channels] of a fused decode: contents [B], then `batch` from the box input(s).
absl::Status DecodeCropResizeShape(InferenceContext* c, DimensionHandle batch, int size_input) {
  ShapeHandle contents;
  TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &contents));
  TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(contents, 0), &batch));
  DimensionHandle h, w;
  TF_RETURN_IF_ERROR(SizeDims(c, size_input, &h, &w));
  int channels, denom;
  TF_RETURN_IF_ERROR(c->GetAttr("channels", &channels));
  TF_RETURN_IF_ERROR(c->GetAttr("max_dct_denom", &denom));
  if (channels != 1 && channels != 3 && channels != 4) {
    return errors::InvalidArgument("channels must be 1, 3 or 4, got ", channels);
  }
  if (denom != 1 && denom != 2 && denom != 4 && denom != 8) {
    return errors::InvalidArgument("max_dct_denom must be 1, 2, 4 or 8, got ", denom);
  }
  TF_RETURN_IF_ERROR(CheckNormalizeAttrs(c, c->MakeDim(channels)));
  c->set_output(0, c->MakeShape({batch, h, w, channels}));
  c->set_output(1, c->Vector(batch));
  return absl::OkStatus();
}

}  // namespace

#define TFGPUAUG_RESIZE_ATTRS                                             \
  Attr("method: {'nearest', 'bilinear', 'bicubic', 'area'} = 'bilinear'") \
      .Attr("antialias: bool = true")                                     \
      .Attr("mean: list(float) = []")                                     \
      .Attr("std: list(float) = []")

REGISTER_OP("TfGpuAug>CropResize")
    .Input("values: T")
    .Input("shapes: int32")
    .Input("boxes: float")
    .Input("size: int32")
    .Input("mirror: bool")
    .Output("resized: out_type")
    .Attr("T: {uint8, float}")
    .Attr("out_type: {uint8, float}")
    .TFGPUAUG_RESIZE_ATTRS
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle values, shapes;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &values));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &shapes));
      DimensionHandle batch, h, w;
      TF_RETURN_IF_ERROR(BoxesShape(c, 2, &batch));
      TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(shapes, 0), &batch));
      TF_RETURN_IF_ERROR(SizeDims(c, 3, &h, &w));
      TF_RETURN_IF_ERROR(CheckNormalizeAttrs(c, c->Dim(values, 1)));
      c->set_output(0, c->MakeShape({batch, h, w, c->Dim(values, 1)}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Crops a box from each image of a batch and resamples it to `size`.

values: the images' pixels one after another, [sum of height*width, channels].
shapes: [batch, 2] height and width of each image (host memory).
boxes: [batch, 4] (y, x, height, width) in input pixels, fractions allowed.
size: [2] output (height, width).
mirror: [batch] flags to flip the output horizontally, or [0] for none.
mean, std: when given (float output), the output is (x - mean) / std per channel.
Half-pixel centres as tf.image.resize; antialias widens the kernel when downscaling.
)doc");

#define TFGPUAUG_DECODE_CROP_RESIZE_ATTRS                                                     \
  Attr("out_type: {uint8, float} = DT_UINT8")                                                 \
      .Attr("channels: int = 3")                                                              \
      .Attr("dct_method: {'INTEGER_ACCURATE', 'INTEGER_FAST', 'FLOAT'} = 'INTEGER_ACCURATE'") \
      .Attr("apply_exif_orientation: bool = false")                                           \
      .Attr("max_pixels: int = 134217728")                                                    \
      .Attr("max_dct_denom: int = 8")                                                         \
      .Attr("on_error: {'raise', 'skip'} = 'raise'")                                          \
      .TFGPUAUG_RESIZE_ATTRS

REGISTER_OP("TfGpuAug>DecodeCropResize")
    .Input("contents: string")
    .Input("boxes: float")
    .Input("size: int32")
    .Input("mirror: bool")
    .Output("images: out_type")
    .Output("errors: string")
    .TFGPUAUG_DECODE_CROP_RESIZE_ATTRS
    .SetShapeFn([](InferenceContext* c) {
      DimensionHandle batch;
      TF_RETURN_IF_ERROR(BoxesShape(c, 1, &batch));
      return DecodeCropResizeShape(c, batch, 2);
    })
    .Doc(R"doc(
Decodes, crops and resizes a batch of encoded images in one pass per image.

Only the rows and columns the resize reads are decoded; JPEGs are decoded at 1/2, 1/4 or
1/8 scale (up to max_dct_denom) when the box stays at least as large as the output.
boxes: [batch, 4] (y, x, height, width) in the (oriented) image's pixels.
mirror, mean, std: as CropResize (flip and normalisation fused into the same pass).
errors: [batch] "" for each decoded image; with on_error="skip", the reason an image could
  not be decoded (its output is zeros) instead of failing the batch.
)doc");

REGISTER_OP("TfGpuAug>DecodeRandomCropResize")
    .Input("contents: string")
    .Input("areas: float")
    .Input("aspects: float")
    .Input("positions: float")
    .Input("size: int32")
    .Input("mirror: bool")
    .Output("images: out_type")
    .Output("errors: string")
    .Attr("ratio: list(float)")
    .TFGPUAUG_DECODE_CROP_RESIZE_ATTRS
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle areas, aspects, positions;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &areas));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 2, &aspects));
      TF_RETURN_IF_ERROR(c->Merge(areas, aspects, &areas));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 2, &positions));
      DimensionHandle batch, unused;
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(positions, 1), 2, &unused));
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(areas, 0), c->Dim(positions, 0), &batch));
      std::vector<float> ratio;
      TF_RETURN_IF_ERROR(c->GetAttr("ratio", &ratio));
      if (ratio.size() != 2 || !(0 < ratio[0] && ratio[0] <= ratio[1])) {
        return errors::InvalidArgument("ratio must be [low, high] with 0 < low <= high");
      }
      return DecodeCropResizeShape(c, batch, 4);
    })
    .Doc(R"doc(
DecodeCropResize with the box drawn per image from its own header (one parse): the
Inception-style rule of tfgpuaug.random_crop_boxes on pre-drawn uniforms.

areas: [batch, attempts] area fractions (in the scale range); aspects: [batch, attempts]
aspect ratios width / height; positions: [batch, 2] uniforms placing the first box that fits.
ratio: the aspect bounds of the fallback (the whole image narrowed to them, centred).
)doc");

REGISTER_OP("TfGpuAug>CropMirrorNormalize")
    .Input("images: uint8")
    .Input("crop_offsets: int32")
    .Input("mirror: bool")
    .Output("output: dtype")
    .Attr("mean: list(float)")
    .Attr("std: list(float)")
    .Attr("crop_height: int = 0")
    .Attr("crop_width: int = 0")
    .Attr("layout: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("dtype: {float, half, bfloat16} = DT_FLOAT")
    .Attr("pad_channels: bool = false")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, offsets, mirror;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &offsets));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &mirror));
      std::vector<float> mean, std;
      TF_RETURN_IF_ERROR(c->GetAttr("mean", &mean));
      TF_RETURN_IF_ERROR(c->GetAttr("std", &std));
      int ch, cw;
      bool pad;
      std::string layout;
      TF_RETURN_IF_ERROR(c->GetAttr("crop_height", &ch));
      TF_RETURN_IF_ERROR(c->GetAttr("crop_width", &cw));
      TF_RETURN_IF_ERROR(c->GetAttr("pad_channels", &pad));
      TF_RETURN_IF_ERROR(c->GetAttr("layout", &layout));
      DimensionHandle channels = c->Dim(images, 3);
      if (c->ValueKnown(channels) &&
          (static_cast<size_t>(c->Value(channels)) != mean.size() || mean.size() != std.size())) {
        return errors::InvalidArgument("mean and std need one value per channel (", c->Value(channels),
                                       "), got ", mean.size(), " and ", std.size());
      }
      for (float s : std) {
        if (s == 0.f) return errors::InvalidArgument("std must not contain 0");
      }
      DimensionHandle h = ch > 0 ? c->MakeDim(ch) : c->Dim(images, 1);
      DimensionHandle w = cw > 0 ? c->MakeDim(cw) : c->Dim(images, 2);
      DimensionHandle oc = pad ? c->MakeDim(4) : channels;
      DimensionHandle b = c->Dim(images, 0);
      c->set_output(0, layout == "NCHW" ? c->MakeShape({b, oc, h, w}) : c->MakeShape({b, h, w, oc}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Crop + per-sample horizontal flip + (x - mean) / std + layout + dtype in one pass.

crop_offsets: [batch, 2] (y, x) corner of each sample's crop (ignored rows are [0, 0]).
mirror: [batch] flip flags.
pad_channels: pad to 4 channels with zeros (aligned loads downstream).
)doc");

REGISTER_OP("TfGpuAug>Flip")
    .Input("images: T")
    .Input("horizontal: bool")
    .Input("vertical: bool")
    .Output("flipped: T")
    .Attr("T: {uint8, float, half, bfloat16, int32}")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, h, v;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &h));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &v));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc("Flips each image of a [B, H, W, C] batch by its own flags.");

REGISTER_OP("TfGpuAug>WarpAffine")
    .Input("images: uint8")
    .Input("matrices: float")
    .Input("size: int32")
    .Output("warped: uint8")
    .Attr("interpolation: {'nearest', 'bilinear'} = 'bilinear'")
    .Attr("fill_value: float = 128")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, matrices;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 3, &matrices));
      DimensionHandle unused, h, w;
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(matrices, 1), 2, &unused));
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(matrices, 2), 3, &unused));
      TF_RETURN_IF_ERROR(SizeDims(c, 2, &h, &w));
      c->set_output(0, c->MakeShape({c->Dim(images, 0), h, w, c->Dim(images, 3)}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Affine warp per sample, as PIL's Image.transform(AFFINE): matrices [B, 2, 3] map output
pixel centres (x + 0.5, y + 0.5) to input coordinates; outside samples take fill_value.
)doc");

REGISTER_OP("TfGpuAug>PasteResize")
    .Input("values: uint8")
    .Input("shapes: int32")
    .Input("sources: int32")
    .Input("boxes: float")
    .Input("regions: int32")
    .Input("size: int32")
    .Output("canvas: uint8")
    .Attr("method: {'nearest', 'bilinear', 'bicubic', 'area'} = 'bilinear'")
    .Attr("antialias: bool = false")
    .Attr("fill_value: int = 0")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle values, shapes, sources, boxes, regions;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &values));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &shapes));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 2, &sources));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 3, &boxes));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(4), 3, &regions));
      DimensionHandle unused, batch, tiles, h, w;
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(boxes, 2), 4, &unused));
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(regions, 2), 4, &unused));
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(sources, 0), c->Dim(boxes, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(regions, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(sources, 1), c->Dim(boxes, 1), &tiles));
      TF_RETURN_IF_ERROR(c->Merge(tiles, c->Dim(regions, 1), &tiles));
      TF_RETURN_IF_ERROR(SizeDims(c, 5, &h, &w));
      c->set_output(0, c->MakeShape({batch, h, w, c->Dim(values, 1)}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Pastes resampled crops into a canvas per sample (DALI's multi_paste with a resize): tile k of
sample b is the crop boxes[b, k] (y, x, height, width in source pixels) of image sources[b, k],
resampled to fill regions[b, k] (y, x, height, width in canvas pixels, inside the canvas; an
empty region pastes nothing). Later tiles cover earlier ones; the rest is fill_value. For
Mosaic with a centre per sample. values and shapes: the source images as CropResize takes them.
)doc");

}  // namespace tensorflow
