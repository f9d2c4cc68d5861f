// Where a resized image lands in a fixed-size output: scale jitter (TF Model Garden's
// resize_and_crop_image: the image fit into a randomly scaled target, a random crop of the
// output size, padding where the image is smaller) and letterboxing (fit, pad, centred).
// Pure per-image arithmetic, shared by the CPU ops and the Python reference in the tests.
#ifndef TFGPUAUG_CC_KERNELS_RESAMPLE_PLACEMENT_H_
#define TFGPUAUG_CC_KERNELS_RESAMPLE_PLACEMENT_H_

#include <cmath>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

struct PlacementRule {
  float scale_lo = 1.f, scale_hi = 1.f;  // the target is the output size times a scale in this range
  bool jitter = false;                   // a random crop offset where the scaled image is larger
  bool center = false;                   // centre the scaled image (offsets may be negative)
};

// The image scaled to scaled_h x scaled_w, shifted so that scaled pixel (offset_y, offset_x)
// lands on output pixel (0, 0); output pixels outside the scaled image are padding.
struct Placement {
  int scaled_h, scaled_w;
  int offset_y, offset_x;
};

// u_scale, u_y, u_x: uniforms in [0, 1). Model Garden's arithmetic: target = round(s * out),
// scale = min(target / image) per axis, scaled = round(image * scale) (half to even, as
// tf.round), offset = int(uniform * max(scaled - out, 0)).
TFGPUAUG_HD Placement Place(int img_h, int img_w, int out_h, int out_w, const PlacementRule& rule,
                            float u_scale, float u_y, float u_x) {
  const float s = rule.scale_lo + u_scale * (rule.scale_hi - rule.scale_lo);
  const float th = rintf(s * static_cast<float>(out_h)), tw = rintf(s * static_cast<float>(out_w));
  const float scale = fminf(th / static_cast<float>(img_h), tw / static_cast<float>(img_w));
  Placement p;
  p.scaled_h = static_cast<int>(rintf(static_cast<float>(img_h) * scale));
  p.scaled_w = static_cast<int>(rintf(static_cast<float>(img_w) * scale));
  if (p.scaled_h < 1) p.scaled_h = 1;
  if (p.scaled_w < 1) p.scaled_w = 1;
  p.offset_y = p.offset_x = 0;
  if (rule.center) {
    p.offset_y = -static_cast<int>(floorf(static_cast<float>(out_h - p.scaled_h) / 2.f));
    p.offset_x = -static_cast<int>(floorf(static_cast<float>(out_w - p.scaled_w) / 2.f));
  } else if (rule.jitter) {
    const int max_y = p.scaled_h > out_h ? p.scaled_h - out_h : 0;
    const int max_x = p.scaled_w > out_w ? p.scaled_w - out_w : 0;
    p.offset_y = static_cast<int>(static_cast<float>(max_y) * u_y);
    p.offset_x = static_cast<int>(static_cast<float>(max_x) * u_x);
  }
  return p;
}

// The output rectangle [y0, y1) x [x0, x1) the scaled image covers (never empty).
struct VisibleRect {
  int y0, y1, x0, x1;
};
TFGPUAUG_HD VisibleRect VisibleOf(const Placement& p, int out_h, int out_w) {
  VisibleRect r;
  r.y0 = p.offset_y < 0 ? -p.offset_y : 0;
  r.x0 = p.offset_x < 0 ? -p.offset_x : 0;
  r.y1 = p.scaled_h - p.offset_y < out_h ? p.scaled_h - p.offset_y : out_h;
  r.x1 = p.scaled_w - p.offset_x < out_w ? p.scaled_w - p.offset_x : out_w;
  return r;
}

// The input box (image pixels: y, x, height, width) the visible rectangle samples. With
// `mirror` the image is flipped left-right before it is scaled and placed: the box holds the
// mirrored columns and the resampled rows are written reversed, so padding stays where the
// placement puts it.
struct SourceBox {
  float y, x, height, width;
};
TFGPUAUG_HD SourceBox SourceBoxOf(const Placement& p, const VisibleRect& v, int img_h, int img_w,
                                  bool mirror) {
  const float fy = static_cast<float>(img_h) / static_cast<float>(p.scaled_h);
  const float fx = static_cast<float>(img_w) / static_cast<float>(p.scaled_w);
  const int first_col = mirror ? p.scaled_w - (v.x1 + p.offset_x) : v.x0 + p.offset_x;
  return SourceBox{static_cast<float>(v.y0 + p.offset_y) * fy, static_cast<float>(first_col) * fx,
                   static_cast<float>(v.y1 - v.y0) * fy, static_cast<float>(v.x1 - v.x0) * fx};
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_RESAMPLE_PLACEMENT_H_
