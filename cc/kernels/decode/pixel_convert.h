// Per-pixel colour conversions shared by the CPU decoders and the GPU decode path.
// Conventions follow PIL so that decoded images match PIL.Image.convert.
#ifndef TFGPUAUG_CC_KERNELS_DECODE_PIXEL_CONVERT_H_
#define TFGPUAUG_CC_KERNELS_DECODE_PIXEL_CONVERT_H_

#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// round(a * b / 255) without a division, as PIL's MULDIV255.
TFGPUAUG_HD uint8_t MulDiv255(int a, int b) {
  const int t = a * b + 128;
  return static_cast<uint8_t>(((t >> 8) + t) >> 8);
}

// ITU-R 601-2 luma with PIL's fixed-point rounding (Image.convert("L")).
TFGPUAUG_HD uint8_t RgbToLuma(int r, int g, int b) {
  return static_cast<uint8_t>((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16);
}

// Converts one pixel of `in_c` channels to `out_c` channels.
//   in_c: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA. out_c: 1, 3 or 4.
// Colour to gray uses luma; alpha is dropped or set opaque, as PIL does.
TFGPUAUG_HD void ConvertPixel(const uint8_t* in, int in_c, uint8_t* out, int out_c) {
  const bool gray_in = in_c <= 2;
  const uint8_t r = in[0];
  const uint8_t g = gray_in ? in[0] : in[1];
  const uint8_t b = gray_in ? in[0] : in[2];
  const uint8_t a = (in_c == 2) ? in[1] : (in_c == 4 ? in[3] : 255);
  if (out_c == 1) {
    out[0] = gray_in ? r : RgbToLuma(r, g, b);
    return;
  }
  out[0] = r;
  out[1] = g;
  out[2] = b;
  if (out_c == 4) out[3] = a;
}

// The same conversions for 16-bit samples (uint16 output): luma with the same weights,
// added alpha 65535.
TFGPUAUG_HD void ConvertPixel(const uint16_t* in, int in_c, uint16_t* out, int out_c) {
  const bool gray_in = in_c <= 2;
  const uint32_t r = in[0];
  const uint32_t g = gray_in ? in[0] : in[1];
  const uint32_t b = gray_in ? in[0] : in[2];
  const uint16_t a = (in_c == 2) ? in[1] : (in_c == 4 ? in[3] : 65535);
  if (out_c == 1) {
    out[0] = gray_in ? r
                     : static_cast<uint16_t>(
                           (uint64_t{r} * 19595 + uint64_t{g} * 38470 + uint64_t{b} * 7471 + 0x8000) >> 16);
    return;
  }
  out[0] = r;
  out[1] = g;
  out[2] = b;
  if (out_c == 4) out[3] = a;
}

// Adobe-convention (inverted) CMYK as libjpeg returns it, to RGB(A) or gray.
TFGPUAUG_HD void ConvertInvertedCmyk(const uint8_t* in, uint8_t* out, int out_c) {
  const uint8_t rgb[3] = {MulDiv255(in[0], in[3]), MulDiv255(in[1], in[3]), MulDiv255(in[2], in[3])};
  ConvertPixel(rgb, 3, out, out_c);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_DECODE_PIXEL_CONVERT_H_
