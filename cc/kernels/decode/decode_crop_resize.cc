#include "cc/kernels/decode/decode_crop_resize.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "cc/kernels/resample/resample_cpu.h"

namespace tfgpuaug {
namespace {

constexpr float kBoxSlack = 1e-3f;  // float boxes computed from integer sizes may overshoot

std::string BoxText(const CropBox& b) {
  return "[y=" + std::to_string(b.y) + ", x=" + std::to_string(b.x) + ", h=" + std::to_string(b.height) +
         ", w=" + std::to_string(b.width) + "]";
}

}  // namespace

Status ValidateBox(const CropBox& b, int img_h, int img_w) {
  const bool ok = b.height > 0.f && b.width > 0.f && b.y >= -kBoxSlack && b.x >= -kBoxSlack &&
                  b.y + b.height <= img_h + kBoxSlack && b.x + b.width <= img_w + kBoxSlack;
  if (ok) return Status::Ok();
  return Status::Invalid("crop box " + BoxText(b) + " does not fit the " + std::to_string(img_h) + "x" +
                         std::to_string(img_w) + " image");
}

void CropAxes(const CropBox& box, int img_h, int img_w, const ResizeSpec& spec, ResampleAxis* ay,
              ResampleAxis* ax) {
  *ay = MakeAxis(spec.method, spec.antialias, box.y, box.height, spec.out_h, img_h);
  *ax = MakeAxis(spec.method, spec.antialias, box.x, box.width, spec.out_w, img_w);
}

int ChooseDctDenom(const CropBox& box, const ResizeSpec& spec, int max_dct_denom) {
  int denom = 1;
  while (denom * 2 <= max_dct_denom && box.height / (denom * 2) >= spec.out_h &&
         box.width / (denom * 2) >= spec.out_w) {
    denom *= 2;
  }
  return denom;
}

namespace {

// Decodes the rows and columns of `box` (full-size image pixels) that the resize reads.
Status DecodeBox(const uint8_t* data, size_t size, DecodeRequest r, const DecodePlan& full,
                 const CropBox& box, const ResizeSpec& spec, int max_dct_denom, DecodedCrop* crop) {
  TFGPUAUG_RETURN_IF_ERROR(ValidateBox(box, full.full_height, full.full_width));
  const int denom = full.info.format == ImageFormat::kJpeg ? ChooseDctDenom(box, spec, max_dct_denom) : 1;
  r.dct_denom = denom;
  const int hs = ScaledSize(full.full_height, denom), ws = ScaledSize(full.full_width, denom);
  // libjpeg's scaled image is ceil(size / denom) pixels: map the box by the exact ratio.
  const float sy = float(hs) / full.full_height, sx = float(ws) / full.full_width;
  const CropBox scaled{box.y * sy, box.x * sx, box.height * sy, box.width * sx};
  CropAxes(scaled, hs, ws, spec, &crop->ay, &crop->ax);
  int y0, y1, x0, x1;
  NeededRange(crop->ay, spec.out_h, &y0, &y1);
  NeededRange(crop->ax, spec.out_w, &x0, &x1);
  r.has_window = true;
  r.window = Window{y0, x0, y1 - y0 + 1, x1 - x0 + 1};
  DecodePlan plan;
  TFGPUAUG_RETURN_IF_ERROR(PlanFromInfo(full.info, r, &plan));
  TFGPUAUG_RETURN_IF_ERROR(ExecuteDecodeStrided(data, size, r, plan, &crop->storage, &crop->pixels));
  // Shift the axes into the decoded window; taps never leave it, except at image edges,
  // where the window's edge is the image's.
  crop->ay.start -= y0;
  crop->ax.start -= x0;
  crop->ay.in_size = plan.out_height;
  crop->ax.in_size = plan.out_width;
  crop->channels = plan.out_channels;
  return Status::Ok();
}

// The full-size plan (header only) of an encoded image.
Status PlanFull(const uint8_t* data, size_t size, const DecodeRequest& request, DecodeRequest* r,
                DecodePlan* full) {
  *r = request;
  r->has_window = false;
  r->dct_denom = 1;
  return PlanDecode(data, size, *r, full);
}

}  // namespace

Status DecodeCrop(const uint8_t* data, size_t size, const DecodeRequest& request, const BoxRule& rule,
                  const ResizeSpec& spec, int max_dct_denom, DecodedCrop* crop) {
  DecodeRequest r;
  DecodePlan full;
  TFGPUAUG_RETURN_IF_ERROR(PlanFull(data, size, request, &r, &full));
  CropBox box = rule.box;
  if (rule.random != nullptr) {
    const BoxYXHW b = InceptionCropBox(float(full.full_height), float(full.full_width), *rule.random);
    box = CropBox{b.y, b.x, b.height, b.width};
  }
  return DecodeBox(data, size, r, full, box, spec, max_dct_denom, crop);
}

PlacedCrop PlanPlaced(int img_h, int img_w, const PlacedRequest& request, CropBox* box) {
  PlacedCrop plan;
  plan.img_h = img_h;
  plan.img_w = img_w;
  plan.placement = Place(img_h, img_w, request.out_h, request.out_w, request.rule, request.u_scale,
                         request.u_y, request.u_x);
  plan.visible = VisibleOf(plan.placement, request.out_h, request.out_w);
  const SourceBox b = SourceBoxOf(plan.placement, plan.visible, img_h, img_w, request.mirror);
  *box = CropBox{b.y, b.x, b.height, b.width};
  plan.spec = ResizeSpec{plan.visible.y1 - plan.visible.y0, plan.visible.x1 - plan.visible.x0, request.method,
                         request.antialias};
  return plan;
}

Status DecodePlaced(const uint8_t* data, size_t size, const DecodeRequest& request,
                    const PlacedRequest& placed, int max_dct_denom, PlacedCrop* plan, DecodedCrop* crop) {
  DecodeRequest r;
  DecodePlan full;
  TFGPUAUG_RETURN_IF_ERROR(PlanFull(data, size, request, &r, &full));
  CropBox box;
  *plan = PlanPlaced(full.full_height, full.full_width, placed, &box);
  return DecodeBox(data, size, r, full, box, plan->spec, max_dct_denom, crop);
}

template <typename Out>
void ResampleCrop(const DecodedCrop& crop, const ResizeSpec& spec, const Epilogue& epilogue, Out* out,
                  long out_row_stride) {
  ResampleImageCpu<uint8_t, Out>(crop.pixels.first, crop.ay.in_size, crop.ax.in_size, crop.channels,
                                 crop.pixels.row_stride, crop.ay, crop.ax, spec.out_h, spec.out_w, out,
                                 epilogue, out_row_stride);
}

template void ResampleCrop<uint8_t>(const DecodedCrop&, const ResizeSpec&, const Epilogue&, uint8_t*, long);
template void ResampleCrop<float>(const DecodedCrop&, const ResizeSpec&, const Epilogue&, float*, long);

}  // namespace tfgpuaug
