// Fused decode + crop + resize of one encoded image: only the rows and columns the resize
// reads are decoded, at a reduced DCT scale when the crop is much larger than the output.
#ifndef TFGPUAUG_CC_KERNELS_DECODE_DECODE_CROP_RESIZE_H_
#define TFGPUAUG_CC_KERNELS_DECODE_DECODE_CROP_RESIZE_H_

#include <memory>

#include "cc/kernels/decode/crop_boxes.h"
#include "cc/kernels/decode/image_decode.h"
#include "cc/kernels/resample/placement.h"
#include "cc/kernels/resample/resample.h"

namespace tfgpuaug {

// A crop in input pixel coordinates (fractional allowed).
struct CropBox {
  float y, x, height, width;
};

struct ResizeSpec {
  int out_h, out_w;
  ResizeMethod method;
  bool antialias;
};

// Checks that the box lies inside an img_h x img_w image and has a positive size.
Status ValidateBox(const CropBox& box, int img_h, int img_w);

// Resampling axes that map the output onto the box of an image of the given size.
void CropAxes(const CropBox& box, int img_h, int img_w, const ResizeSpec& spec, ResampleAxis* ay,
              ResampleAxis* ax);

// Largest DCT scale denominator (1, 2, 4, 8; at most max_dct_denom) that still leaves the
// crop at least as large as the output in both dimensions.
int ChooseDctDenom(const CropBox& box, const ResizeSpec& spec, int max_dct_denom);

// One image's decoded window and the resampling axes that map it onto the output (the
// axes' in_size is the window's height and width).
struct DecodedCrop {
  std::unique_ptr<uint8_t[]> storage;
  StridedPixels pixels;
  int channels = 0;
  ResampleAxis ay, ax;
  size_t bytes() const { return size_t(pixels.row_stride) * ay.in_size; }
};

// Which box to decode: a given one, or one drawn from `random` (InceptionCropBox) on the
// image's size once its header is read.
struct BoxRule {
  CropBox box{};
  const RandomBoxDraws* random = nullptr;
  BoxRule(const CropBox& b) : box(b) {}                    // NOLINT: a box is a rule
  BoxRule(const RandomBoxDraws* draws) : random(draws) {}  // NOLINT
};

// Decodes the rows and columns of the box the resize will read (at a reduced DCT scale when
// the box stays at least the output size, up to max_dct_denom). `request` gives the decode
// options (channels, dct method, orientation, pixel limit).
Status DecodeCrop(const uint8_t* data, size_t size, const DecodeRequest& request, const BoxRule& rule,
                  const ResizeSpec& spec, int max_dct_denom, DecodedCrop* crop);

// A placed resize of one image (scale jitter, letterbox): where it goes and how it is sampled.
struct PlacedRequest {
  PlacementRule rule;
  float u_scale = 0.f, u_y = 0.f, u_x = 0.f;  // the image's uniforms
  int out_h = 0, out_w = 0;
  bool mirror = false;
  ResizeMethod method = ResizeMethod::kBilinear;
  bool antialias = false;
};
struct PlacedCrop {
  int img_h = 0, img_w = 0;  // the (oriented) image's size
  Placement placement{};
  VisibleRect visible{};
  ResizeSpec spec{};  // the visible rectangle's size
};

// The placement of an img_h x img_w image, the input box its visible rectangle samples and
// the resize spec of that rectangle.
PlacedCrop PlanPlaced(int img_h, int img_w, const PlacedRequest& request, CropBox* box);

// Decodes the part of an encoded image that a placed resize shows (the box and the output
// size follow from the header), at a reduced DCT scale where the box allows.
Status DecodePlaced(const uint8_t* data, size_t size, const DecodeRequest& request,
                    const PlacedRequest& placed, int max_dct_denom, PlacedCrop* plan, DecodedCrop* crop);

// Resamples a decoded crop to out [out_h, out_w, channels], then applies the epilogue
// (mirror, and normalisation when Out is float); rows `out_row_stride` elements apart (0:
// contiguous). Out: uint8_t or float.
template <typename Out>
void ResampleCrop(const DecodedCrop& crop, const ResizeSpec& spec, const Epilogue& epilogue, Out* out,
                  long out_row_stride = 0);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_DECODE_DECODE_CROP_RESIZE_H_
