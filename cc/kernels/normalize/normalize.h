// Crop + mirror + (x - mean) / std + layout + dtype in one pass: per-element math shared by
// the CPU driver and the CUDA kernel.
#ifndef TFGPUAUG_CC_KERNELS_NORMALIZE_NORMALIZE_H_
#define TFGPUAUG_CC_KERNELS_NORMALIZE_NORMALIZE_H_

#include <cstdint>
#include <cstring>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

enum class OutputType : int { kFloat32 = 0, kFloat16 = 1, kBfloat16 = 2 };

struct CropMirrorNormalizeParams {
  int in_h, in_w, channels;  // input image
  int crop_h, crop_w;        // output spatial size
  int out_channels;          // channels, or 4 with pad_channels (padding is 0)
  bool nchw;
  OutputType type;
};

// IEEE binary16, round to nearest even (subnormals and overflow to inf handled).
TFGPUAUG_HD uint16_t FloatToHalfBits(float f) {
  const uint32_t x = FloatBits(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (abs < 0x38800000u) {                                               // subnormal half
    if (abs < 0x33000000u) return static_cast<uint16_t>(sign);
    const uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    const int shift = 126 - static_cast<int>(abs >> 23);  // 14..24
    const uint32_t r = mant & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
    uint32_t out = mant >> shift;
    if (r > halfway || (r == halfway && (out & 1u))) ++out;
    return static_cast<uint16_t>(sign | out);
  }
  uint32_t out = ((abs - 0x38000000u) >> 13);
  const uint32_t r = abs & 0x1fffu;
  if (r > 0x1000u || (r == 0x1000u && (out & 1u))) ++out;
  return static_cast<uint16_t>(sign | out);
}

// bfloat16: the high half of the float, round to nearest even.
TFGPUAUG_HD uint16_t FloatToBfloat16Bits(float f) {
  const uint32_t x = FloatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // NaN
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

// Value of output element (y, x, k) of one sample; (y0, x0) is the crop's corner.
TFGPUAUG_HD float CropMirrorNormalizeValue(const uint8_t* image, const CropMirrorNormalizeParams& p, int y0,
                                           int x0, bool mirror, const float* mean, const float* inv_std,
                                           int y, int x, int k) {
  if (k >= p.channels) return 0.f;
  const int sx = mirror ? x0 + p.crop_w - 1 - x : x0 + x;
  const float v = image[(size_t(y0 + y) * p.in_w + sx) * p.channels + k];
  return (v - mean[k]) * inv_std[k];
}

TFGPUAUG_HD size_t CropMirrorNormalizeOutputIndex(const CropMirrorNormalizeParams& p, int y, int x, int k) {
  return p.nchw ? (size_t(k) * p.crop_h + y) * p.crop_w + x : (size_t(y) * p.crop_w + x) * p.out_channels + k;
}

TFGPUAUG_HD void CropMirrorNormalizeStore(void* out, size_t index, OutputType type, float v) {
  if (type == OutputType::kFloat32) {
    static_cast<float*>(out)[index] = v;
  } else {
    static_cast<uint16_t*>(out)[index] =
        type == OutputType::kFloat16 ? FloatToHalfBits(v) : FloatToBfloat16Bits(v);
  }
}

TFGPUAUG_HD size_t CropMirrorNormalizeElementBytes(OutputType type) {
  return type == OutputType::kFloat32 ? 4 : 2;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_NORMALIZE_NORMALIZE_H_
