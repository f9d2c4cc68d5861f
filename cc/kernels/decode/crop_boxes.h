// Inception-style random crop boxes from pre-drawn uniforms, the same float32 arithmetic as
// tfgpuaug.geometry.random_crop_boxes (the graph reference the tests compare with), so the
// fused decode can draw its box from the header it already parsed.
#ifndef TFGPUAUG_CC_KERNELS_DECODE_CROP_BOXES_H_
#define TFGPUAUG_CC_KERNELS_DECODE_CROP_BOXES_H_

#include <cmath>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// One image's draws: `attempts` area fractions (already in the scale range) and aspect
// ratios w / h (already exponentiated), a uniform position, the fallback's aspect bounds.
struct RandomBoxDraws {
  const float* area;
  const float* aspect;
  int attempts;
  float pos_y, pos_x;
  float ratio_lo, ratio_hi;
};

struct BoxYXHW {
  float y, x, height, width;
};

// The first attempt that fits, placed uniformly; else the whole image narrowed to the
// nearest allowed aspect ratio, centred (torchvision's fallback). rintf rounds half to even,
// as tf.round.
TFGPUAUG_HD BoxYXHW InceptionCropBox(float h, float w, const RandomBoxDraws& d) {
  for (int j = 0; j < d.attempts; ++j) {
    const float area = h * w * d.area[j];
    const float r = d.aspect[j];
    const float cw = rintf(sqrtf(area * r)), ch = rintf(sqrtf(area / r));
    if (cw > 0.f && cw <= w && ch > 0.f && ch <= h) {
      return {floorf(d.pos_y * (h - ch + 1.f)), floorf(d.pos_x * (w - cw + 1.f)), ch, cw};
    }
  }
  const float aspect = w / h;
  const float fw = aspect < d.ratio_lo ? w : (aspect > d.ratio_hi ? rintf(h * d.ratio_hi) : w);
  const float fh = aspect < d.ratio_lo ? rintf(w / d.ratio_lo) : h;
  return {floorf((h - fh) / 2.f), floorf((w - fw) / 2.f), fh, fw};
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_DECODE_CROP_BOXES_H_
