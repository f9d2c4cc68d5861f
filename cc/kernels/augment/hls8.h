// OpenCV's 8-bit HLS (cv2.COLOR_RGB2HLS / COLOR_HLS2RGB on uint8: hue in 2-degree steps 0..180,
// lightness and saturation 0..255, each rounded to the nearest, ties to even) in float32, and a
// lightness edit through it: Albumentations' RandomSnow and RandomGravel rewrite the lightness
// of this representation. Inline math shared by the CPU loop and the CUDA kernel; no fused
// multiply-adds on either side (the GPU build passes --fmad=false), so the bytes agree.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_HLS8_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_HLS8_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

struct Hls8 {
  int hue, lightness, saturation;
};

// The RGB of a pixel as OpenCV's float levels, with their extremes.
struct Rgb01 {
  float r, g, b, vmax, vmin;
};

TFGPUAUG_HD Rgb01 ToRgb01(uint8_t red, uint8_t green, uint8_t blue) {
  const float scale = 1.f / 255.f;
  const float r = red * scale, g = green * scale, b = blue * scale;
  return Rgb01{r, g, b, fmaxf(fmaxf(r, g), b), fminf(fminf(r, g), b)};
}

// The 8-bit lightness alone (what RgbToHls8 gives as `lightness`, by the same operations).
TFGPUAUG_HD int Lightness8(const Rgb01& c) {
  return static_cast<int>(rintf((c.vmax + c.vmin) * 0.5f * 255.f));
}

TFGPUAUG_HD Hls8 RgbToHls8(const Rgb01& c) {
  const float diff = c.vmax - c.vmin, lightness = (c.vmax + c.vmin) * 0.5f;
  float hue = 0.f, saturation = 0.f;
  if (diff > 1.1920929e-07f) {  // FLT_EPSILON, as OpenCV
    saturation = lightness < 0.5f ? diff / (c.vmax + c.vmin) : diff / (2.f - c.vmax - c.vmin);
    const float per = 60.f / diff;
    hue = c.vmax == c.r ? (c.g - c.b) * per
                        : (c.vmax == c.g ? (c.b - c.r) * per + 120.f : (c.r - c.g) * per + 240.f);
    if (hue < 0.f) hue += 360.f;
  }
  return Hls8{static_cast<int>(rintf(hue * 0.5f)), static_cast<int>(rintf(lightness * 255.f)),
              static_cast<int>(rintf(saturation * 255.f))};
}

// RGB bytes of an 8-bit HLS colour into rgb[0..2].
TFGPUAUG_HD void Hls8ToRgb(const Hls8& colour, uint8_t* rgb) {
  const float l = colour.lightness * (1.f / 255.f), s = colour.saturation * (1.f / 255.f);
  float r = l, g = l, b = l;
  if (s != 0.f) {
    const float p2 = l <= 0.5f ? l * (1.f + s) : l + s - l * s;
    const float p1 = 2.f * l - p2;
    float h = colour.hue * (6.f / 180.f);
    if (h < 0.f)
      h += 6.f;
    else if (h >= 6.f)
      h -= 6.f;
    const float sector = floorf(h);
    h -= sector;
    const float rising = p1 + (p2 - p1) * h, falling = p1 + (p2 - p1) * (1.f - h);
    // (r, g, b) of each 60-degree sector as indices into (p2, p1, falling, rising): red is p2 at hue 0.
    const float values[4] = {p2, p1, falling, rising};
    const int pick[6][3] = {{0, 3, 1}, {2, 0, 1}, {1, 0, 3}, {1, 2, 0}, {3, 1, 0}, {0, 1, 2}};
    const int at = sector > 5.f ? 5 : static_cast<int>(sector);
    r = values[pick[at][0]], g = values[pick[at][1]], b = values[pick[at][2]];
  }
  const float channels[3] = {r, g, b};
  for (int k = 0; k < 3; ++k) {
    const float level = rintf(channels[k] * 255.f);
    rgb[k] = static_cast<uint8_t>(level < 0.f ? 0.f : (level > 255.f ? 255.f : level));
  }
}

// One RGB pixel with its 8-bit HLS lightness rewritten: `level` >= 0 is the new lightness
// (above 255 taken as 255); otherwise table[lightness] is, and a negative entry there keeps the
// pixel's bytes as they are.
// Pixels the edit leaves alone cost only their lightness (most of a snow or gravel image).
TFGPUAUG_HD void HlsLightnessPixel(const uint8_t* in, const int32_t* table, int32_t level, uint8_t* out) {
  const Rgb01 rgb = ToRgb01(in[0], in[1], in[2]);
  const int32_t target = level >= 0 ? level : table[Lightness8(rgb)];
  if (target < 0) {
    out[0] = in[0], out[1] = in[1], out[2] = in[2];
    return;
  }
  Hls8 colour = RgbToHls8(rgb);
  colour.lightness = target > 255 ? 255 : target;
  Hls8ToRgb(colour, out);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_HLS8_H_
