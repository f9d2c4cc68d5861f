// AVX2 loops of the CPU augment driver, eight lanes per step, bit-identical to the
// per-pixel inline math of augment.h (which the CUDA kernels run). Callers check
// CpuHasAvx2() first. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_AUGMENT_AVX2_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_AUGMENT_AVX2_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {

#if TFGPUAUG_HAVE_AVX2_LOOPS
// Hue shift (hue = true; param in turns) or saturation scale of n pixels of c >= 3 channels.
void HueSaturationAvx2(const uint8_t* src, size_t n, int c, bool hue, float param, uint8_t* dst);

// hsv_shift (HsvShiftPixel) of n pixels of c >= 3 channels by whole-level shifts (HsvShiftsOf).
// Needs CpuHasAvx2Fma().
void HsvShiftAvx2(const uint8_t* src, size_t n, int c, int hue_add, int sat_add, int val_add, uint8_t* dst);

// Gaussian noise of standard deviation param over every byte.
void GaussianNoiseAvx2(const uint8_t* src, size_t elements, uint32_t seed, float param, uint8_t* dst);

// Gaussian blur's horizontal pass: out[e] = BlurRowSum about centre + e (a row padded by r
// pixels of c channels each side) for e below the returned count (n rounded down to 32).
// Needs CpuHasAvx2Fma().
size_t BlurRowBytesAvx2(const uint8_t* centre, int c, const float* w, int r, size_t n, float* out);

// Its vertical pass: out[e] = BlurPixel's saturated sum of rows[0][e] (the centre row's sums)
// and the pairs rows[2d - 1][e] + rows[2d][e] (d rows up and down), for e below the returned
// count (n rounded down to 32). Needs CpuHasAvx2Fma().
size_t BlurColumnsAvx2(const float* const* rows, const float* w, int r, size_t n, uint8_t* out);

// Sharpen/emboss (the 3x3 weights wt, rows reflected 101) of the interior columns 1 .. w - 2
// of an h x w x c image (w > 2), ReliefPixel's bytes.
void ReliefInteriorAvx2(const uint8_t* src, int h, int w, int c, const float* wt, uint8_t* dst);

// One output row of motion blur: byte e is the rounded mean of taps[0..n)[e] (MotionPixel's
// rounding), for e below the returned count (row rounded down to 32 bytes); the caller does
// the rest.
size_t MotionBlurRowAvx2(const uint8_t* const* taps, int n, size_t row, uint8_t* out);

// The side x side median (side 5 or 7) of every byte of an h x w x c image, rows and columns
// replicated at the border (MedianPixel's values). Needs rows of at least 32 bytes (w c >= 32).
void MedianAvx2(const uint8_t* src, int h, int w, int c, int side, uint8_t* dst);

// grayscale (RgbToLuma into R, G and B) of n RGB pixels (3 channels).
void GrayscaleRgbAvx2(const uint8_t* src, size_t n, uint8_t* dst);

// channel_shuffle of n RGB pixels (3 channels): output channel k = input channel perm[k].
void ChannelShuffleRgbAvx2(const uint8_t* src, size_t n, const int* perm, uint8_t* dst);

// sepia (SepiaPixel) of n pixels of c >= 3 channels (channels past the third kept).
void SepiaAvx2(const uint8_t* src, size_t n, int c, uint8_t* dst);

// Bit j % 8 of bits[j / 8] = HashUniform(seed, stride * (first + j)) < probability, for j <
// count (32-bit indices wrap as the per-pixel functions' do): the dropout stages' decisions,
// eight a step.
void DropBitsAvx2(uint32_t seed, uint32_t stride, size_t first, size_t count, float probability,
                  uint8_t* bits);

// iso_noise (IsoNoisePixel) of n pixels of c >= 3 channels.
void IsoNoiseAvx2(const uint8_t* src, size_t n, int c, uint32_t seed, float intensity, float color_sigma,
                  float lambda, float p0, uint8_t* dst);

// multiplicative_noise (MultiplicativeNoisePixel) of n pixels of c channels, 1 <= c <= 4: a
// factor per pixel, or per byte with per_channel.
void MultiplicativeNoiseAvx2(const uint8_t* src, size_t n, int c, bool per_channel, uint32_t seed, float low,
                             float high, uint8_t* dst);
#endif

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_AUGMENT_AVX2_H_
