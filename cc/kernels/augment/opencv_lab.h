// OpenCV's 8-bit RGB <-> CIE L*a*b* (cv2.COLOR_RGB2LAB / COLOR_LAB2RGB on uint8), in the same
// fixed-point integer steps and tables, so the bytes are OpenCV's: L scaled to 0..255, a and b
// offset by 128. Checked against cv2 on all 2^24 inputs each way (tests/test_clahe.py).
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_OPENCV_LAB_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_OPENCV_LAB_H_

#include <cstdint>

#include "cc/kernels/augment/opencv_lab_tables.h"
#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {
namespace lab_detail {

// One copy of each table for host code and, under nvcc, one in device memory; the functions
// below pick by where they run.
static const uint16_t kGamma[256] = {TFGPUAUG_LAB_GAMMA_VALUES};
static const uint16_t kCbrt[3072] = {TFGPUAUG_LAB_CBRT_VALUES};
static const uint16_t kInvGamma[4096] = {TFGPUAUG_LAB_INV_GAMMA_VALUES};
static const uint16_t kLightness[512] = {TFGPUAUG_LAB_LIGHTNESS_VALUES};
#if defined(__CUDACC__)
__device__ static const uint16_t kGammaDevice[256] = {TFGPUAUG_LAB_GAMMA_VALUES};
__device__ static const uint16_t kCbrtDevice[3072] = {TFGPUAUG_LAB_CBRT_VALUES};
__device__ static const uint16_t kInvGammaDevice[4096] = {TFGPUAUG_LAB_INV_GAMMA_VALUES};
__device__ static const uint16_t kLightnessDevice[512] = {TFGPUAUG_LAB_LIGHTNESS_VALUES};
#endif

#if defined(__CUDA_ARCH__)
#define TFGPUAUG_LAB_TABLE(name) name##Device
#else
#define TFGPUAUG_LAB_TABLE(name) name
#endif

TFGPUAUG_HD int Gamma(int v) { return TFGPUAUG_LAB_TABLE(kGamma)[v]; }
TFGPUAUG_HD int Cbrt(int v) { return TFGPUAUG_LAB_TABLE(kCbrt)[v]; }
TFGPUAUG_HD int InvGamma(int v) { return TFGPUAUG_LAB_TABLE(kInvGamma)[v]; }
TFGPUAUG_HD int LightnessY(int l) { return TFGPUAUG_LAB_TABLE(kLightness)[2 * l]; }
TFGPUAUG_HD int LightnessF(int l) { return TFGPUAUG_LAB_TABLE(kLightness)[2 * l + 1]; }
#undef TFGPUAUG_LAB_TABLE

// x rounded at bit n: OpenCV's CV_DESCALE (an arithmetic shift, so negatives floor).
TFGPUAUG_HD int Descale(int x, int n) { return (x + (1 << (n - 1))) >> n; }

TFGPUAUG_HD int Clamp4095(int v) { return v < 0 ? 0 : (v > 4095 ? 4095 : v); }
TFGPUAUG_HD uint8_t Saturate(int v) { return static_cast<uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v)); }

// The colour matrices as OpenCV rounds them (literals, so device code needs no table):
// sRGB -> XYZ (D65) over the white point and XYZ -> sRGB times it, both times 2^12.
TFGPUAUG_HD int Xyz(int row, int r, int g, int b) {
  return row == 0 ? r * 1777 + g * 1541 + b * 778
                  : (row == 1 ? r * 871 + g * 2929 + b * 296 : r * 73 + g * 448 + b * 3575);
}
TFGPUAUG_HD int Rgb(int row, int x, int y, int z) {
  return row == 0 ? x * 12615 - y * 6296 - z * 2223
                  : (row == 1 ? -x * 3773 + y * 7684 + z * 185 : x * 217 - y * 836 + z * 4715);
}

// f(t) of X/Xn or Z/Zn times 2^14 back to t times 2^14 (OpenCV's abToXZ_b, as a formula):
// the linear segment at or below 6/29, the cube above. C++ division truncates, as there.
TFGPUAUG_HD int XzFromF(int f) {
  const int linear = f * 108 / 841 - 290;
  // f > 3390 here, so the divisions by 2^14 are shifts (f^2 >> 14 times f stays below 2^31
  // for every f the conversion reaches, <= 28719); both computed, so the choice needs no branch
  const int cube = (((f * f) >> 14) * f) >> 14;
  return f <= 3390 ? linear : cube;
}

}  // namespace lab_detail

// L (0..255) of an RGB pixel: OpenCV's RGB2Lab_b for the lightness alone.
TFGPUAUG_HD int LabLightnessOpenCv(const uint8_t* rgb) {
  using namespace lab_detail;
  const int r = Gamma(rgb[0]), g = Gamma(rgb[1]), b = Gamma(rgb[2]);
  const int fy = Cbrt(Descale(Xyz(1, r, g, b), 12));
  return Saturate(Descale(296 * fy - 1336934, 15));
}

// OpenCV's RGB2Lab_b: lab = (L * 255 / 100, a + 128, b + 128), each rounded and saturated.
TFGPUAUG_HD void LabFromRgbOpenCv(const uint8_t* rgb, uint8_t* lab) {
  using namespace lab_detail;
  const int r = Gamma(rgb[0]), g = Gamma(rgb[1]), b = Gamma(rgb[2]);
  const int fx = Cbrt(Descale(Xyz(0, r, g, b), 12));
  const int fy = Cbrt(Descale(Xyz(1, r, g, b), 12));
  const int fz = Cbrt(Descale(Xyz(2, r, g, b), 12));
  lab[0] = Saturate(Descale(296 * fy - 1336934, 15));
  lab[1] = Saturate(Descale(500 * (fx - fy) + (128 << 15), 15));
  lab[2] = Saturate(Descale(200 * (fy - fz) + (128 << 15), 15));
}

// OpenCV's Lab2RGB_b (its bit-exact integer path).
TFGPUAUG_HD void RgbFromLabOpenCv(int l, int a, int b, uint8_t* rgb) {
  using namespace lab_detail;
  const int y = LightnessY(l), fy = LightnessF(l);
  const int a_term = ((5 * a * 53687 + (1 << 7)) >> 13) - 128 * 16384 / 500;
  const int b_term = ((b * 41943 + (1 << 4)) >> 9) - 128 * 16384 / 200 + 1;
  const int x = XzFromF(fy + a_term), z = XzFromF(fy - b_term);
  rgb[0] = Saturate(InvGamma(Clamp4095(Descale(Rgb(0, x, y, z), 14))));
  rgb[1] = Saturate(InvGamma(Clamp4095(Descale(Rgb(1, x, y, z), 14))));
  rgb[2] = Saturate(InvGamma(Clamp4095(Descale(Rgb(2, x, y, z), 14))));
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_OPENCV_LAB_H_
