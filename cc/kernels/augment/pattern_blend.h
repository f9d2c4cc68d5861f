// Albumentations' plasma blends of uint8 pixels with a per-pixel pattern p in [0, 1] (float32,
// as its functions compute them): the shadow v (1 - i p), clipped to [0, 255] and truncated; the
// brightness-contrast x = clip(v / 255 + p b), w = p c + 1, clip(clip(x w) + mean (1 - w)),
// rounded half to even at 255 x, where the mean is over the sample's brightened values x. The
// mean is summed in fixed point (x in 2^-24 steps, 64-bit integers), so any summation order on
// either device gives the same mean. Inline math shared by the CPU loop and the CUDA kernels.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_PATTERN_BLEND_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_PATTERN_BLEND_H_

#include <cstdint>

#include "cc/kernels/common/host_device.h"
#include "cc/kernels/common/portable_math.h"

namespace tfgpuaug {

enum class PatternBlendMode { kShadow, kBrightnessContrast };

// Two selects in the max-then-min shape vector units have (the loops over bytes vectorize).
TFGPUAUG_HD float Clip01(float v) {
  v = v > 0.f ? v : 0.f;
  return v < 1.f ? v : 1.f;
}

TFGPUAUG_HD uint8_t PlasmaShadowByte(uint8_t v, float p, float intensity) {
  const float out = static_cast<float>(v) * (1.f - p * intensity);
  return static_cast<uint8_t>(out < 0.f ? 0.f : (out > 255.f ? 255.f : out));  // truncated, as a cast
}

TFGPUAUG_HD float PlasmaBrightened(uint8_t v, float p, float brightness) {
  return Clip01(static_cast<float>(v) / 255.f + p * brightness);
}

// x in [0, 1] in 2^-24 steps, rounded: at most 2^24, so 128 of them sum within 32 bits and a
// sample of 2^31 within 64.
TFGPUAUG_HD uint32_t PlasmaFixedPoint(float x) {
  return static_cast<uint32_t>(static_cast<int32_t>(x * 16777216.f + 0.5f));
}

TFGPUAUG_HD float PlasmaMean(uint64_t sum, int64_t count) {
  return count > 0 ? static_cast<float>(static_cast<double>(sum) / 16777216.0 / static_cast<double>(count))
                   : 0.f;
}

// The contrast step in two parts (the CPU runs each as its own vectorized loop): the weight
// w = p c + 1 and clip(x w), then clip(that + mean (1 - w)) as a level in [0, 255].
TFGPUAUG_HD float PlasmaContrastWeight(float p, float contrast) { return p * contrast + 1.f; }
TFGPUAUG_HD float PlasmaScaled(float x, float w) { return Clip01(x * w); }
TFGPUAUG_HD float PlasmaShiftedLevel(float scaled, float w, float mean) {
  return Clip01(scaled + mean * (1.f - w)) * 255.f;
}

TFGPUAUG_HD uint8_t PlasmaContrastByte(float x, float p, float contrast, float mean) {
  const float w = PlasmaContrastWeight(p, contrast);
  return RoundThenClampToUint8(PlasmaShiftedLevel(PlasmaScaled(x, w), w, mean));  // half to even
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_PATTERN_BLEND_H_
