// Albumentations' Spatter, "mud" mode, per sample: a liquid layer of normal noise (mean, std)
// blurred by a Gaussian with replicated edges (cv2.GaussianBlur, float64), zeroed below the
// cutout and thresholded above it into a mask (when nothing passes, a tenth of the pixels
// picked at random), the mask blurred again (float32 taps), divided by its peak and scaled by
// the intensity, then each channel img (c - mud) / c + mud for colour c = colour / 255 in
// Albumentations' dtypes (float64 where it divides, float32 elsewhere; [0, 1], rint). The
// per-element steps below are shared by the CPU loops and the CUDA kernels, which sum in the
// same order, so both devices give the same bits.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/common/counter_hash.h"
#include "cc/kernels/common/host_device.h"
#include "cc/kernels/common/portable_math.h"
#include "cc/kernels/warp/elastic_maps.h"

namespace tfgpuaug {

// Bounds the op checks before allocating: a side, the pixels of an image (32-bit hash
// counters and permutation domain), the blur frames' taps.
constexpr int kMaxSpatterSide = 1 << 15;
constexpr int64_t kMaxSpatterPixels = int64_t{1} << 28;
constexpr int kMaxSpatterTaps = 2047;

// One sample's draws: the liquid's mean and standard deviation, the cutout, the intensity.
// An intensity of 0 leaves the image as it is (the arithmetic below gives back every byte).
struct SpatterParams {
  double mean, std, cutout, intensity;
};

// The reach of a blur frame of `taps` (odd) values centred on taps / 2: its outer zeros dropped.
template <typename T>
TFGPUAUG_HD int SpatterReach(const T* kernel, int taps) {
  int r = taps / 2;
  while (r > 0 && kernel[taps / 2 - r] == T(0) && kernel[taps / 2 + r] == T(0)) --r;
  return r;
}

// One blurred element along an axis of n (stride apart) at pos: taps from -r up, each reading
// the clamped element (BORDER_REPLICATE), summed in T from zero.
template <typename T, typename V>
TFGPUAUG_HD T SpatterBlurAt(const T* centre, int r, const V* line, int64_t stride, int n, int pos) {
  T acc = T(0);
  for (int k = -r; k <= r; ++k) {
    const int at = pos + k < 0 ? 0 : (pos + k >= n ? n - 1 : pos + k);
    acc += centre[k] * T(line[int64_t(at) * stride]);
  }
  return acc;
}

// The liquid layer's element e before the blur: mean + std z, z the standard normal of the
// elastic fields' noise (counter hash, Box-Muller pairs).
TFGPUAUG_HD double SpatterLiquid(uint32_t seed, uint32_t e, const SpatterParams& p) {
  return p.mean + p.std * double(ElasticNoise(seed, e, true));
}

// liquid[liquid < cutout] = 0, then mask = liquid > cutout (so a negative cutout marks every
// pixel it zeroed).
TFGPUAUG_HD uint8_t SpatterMarked(double blurred, double cutout) {
  const double kept = blurred < cutout ? 0.0 : blurred;
  return kept > cutout ? 1 : 0;
}

// The pixels Albumentations marks when none passes the cutout: max(1, int(0.1 n)).
TFGPUAUG_HD uint32_t SpatterFallbackCount(uint32_t n) {
  const uint32_t k = static_cast<uint32_t>(0.1 * double(n));
  return k > 0 ? k : 1;
}

// Half the bits of the permutation's domain: the smallest even power of two at least n.
TFGPUAUG_HD int SpatterHalfBits(uint32_t n) {
  int bits = 2;
  while (bits < 32 && (uint64_t{1} << bits) < n) bits += 2;
  return bits / 2;
}

// Entry i of a random permutation of [0, n) (n <= 2^28): a four-round Feistel network on
// 2 half bits, walked until it lands below n (a bijection of [0, n), so the first k entries are
// k distinct pixels, as numpy's choice without replacement draws them).
TFGPUAUG_HD uint32_t SpatterPermuted(uint32_t i, uint32_t n, int half, uint32_t seed) {
  const uint32_t mask = (1u << half) - 1u, key = seed * 0x2545F491u + 0x68E31DA4u;
  uint32_t x = i;
  do {
    uint32_t l = x >> half, r = x & mask;
    for (uint32_t round = 0; round < 4; ++round) {
      const uint32_t t = l ^ (HashBits(key + round, r) & mask);
      l = r;
      r = t;
    }
    x = (l << half) | r;
  } while (x >= n);
  return x;
}

// The mask's value at a pixel from its blurred value m, the peak and the intensity (float32, as
// numpy: m / peak, times the intensity; a zero peak marks pixel 0 alone).
TFGPUAUG_HD float SpatterMask(float m, float peak, bool first_pixel, float intensity) {
  const float unit = peak > 0.f ? m / peak : (first_pixel ? 1.f : 0.f);
  return unit * intensity;
}

// One byte through the mud: c = level / 255 in [0, 1] (float64), mud = float32(mask c),
// non_mud = float32(clip((c - mud) / c, 0, 1)) (1 - mask for c = 0); img * non_mud + mud in
// float32, clipped to [0, 1], rint(x 255).
TFGPUAUG_HD uint8_t SpatterMudByteOf(uint8_t v, float mask, double colour) {
  const float mud = static_cast<float>(double(mask) * colour);
  float non_mud;
  if (colour > 0.0) {
    const double q = (colour - double(mud)) / colour;
    non_mud = static_cast<float>(q < 0.0 ? 0.0 : (q > 1.0 ? 1.0 : q));
  } else {
    non_mud = 1.f - mask;
  }
  float x = float(v) / 255.f * non_mud + mud;
  x = x < 0.f ? 0.f : (x > 1.f ? 1.f : x);
  return RoundHalfEvenToUint8(x * 255.f);
}

TFGPUAUG_HD uint8_t SpatterMudByte(uint8_t v, float mask, double level) {
  return SpatterMudByteOf(v, mask, level / 255.0);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_H_
