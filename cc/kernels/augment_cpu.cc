#include "cc/kernels/augment_cpu.h"

#include <cstring>
#include <string>
#include <vector>

#include "cc/kernels/geometry_cpu.h"
#include "cc/kernels/row_sums.h"
#include "cc/kernels/simd_cpu.h"

namespace tfgpuaug {
namespace {

void Histograms(const uint8_t* src, const AugmentImage& im, uint32_t* hist) {
  // Even and odd pixels count into separate tables: neighbouring pixels often share a
  // value, and back-to-back increments of one counter would wait on each other.
  uint32_t odd[4 * 256];
  std::memset(hist, 0, sizeof(uint32_t) * 256 * im.c);
  std::memset(odd, 0, sizeof(uint32_t) * 256 * im.c);
  const size_t n = size_t(im.h) * im.w, c = im.c;
  size_t i = 0;
  for (; i + 1 < n; i += 2) {
    for (size_t k = 0; k < c; ++k) {
      ++hist[k * 256 + src[i * c + k]];
      ++odd[k * 256 + src[(i + 1) * c + k]];
    }
  }
  for (; i < n; ++i)
    for (size_t k = 0; k < c; ++k) ++hist[k * 256 + src[i * c + k]];
  for (size_t j = 0; j < 256 * c; ++j) hist[j] += odd[j];
}

// ImageEnhance.Color of an RGB image: each channel blended with the pixel's luma.
void ColorRgb(const uint8_t* src, size_t n, float param, uint8_t* dst) {
  size_t i = 0;
#if TFGPUAUG_HAVE_SSE2
  // BlendPil on four lanes; the last pixel stays scalar (its 4-byte load would overrun).
  const __m128 alpha = _mm_set1_ps(param), lo = _mm_setzero_ps(), hi = _mm_set1_ps(255.f);
  for (; i + 1 < n; ++i) {
    const uint8_t* px = src + 3 * i;
    const __m128 gray = _mm_set1_ps(float(RgbToLuma(px[0], px[1], px[2])));
    const __m128 t = Lerp4(gray, LoadPixel4(px), alpha);
    StoreTruncated(_mm_min_ps(_mm_max_ps(t, lo), hi), 3, dst + 3 * i);
  }
#endif
  for (; i < n; ++i) {
    const uint8_t* px = src + 3 * i;
    const uint8_t gray = RgbToLuma(px[0], px[1], px[2]);
    for (int k = 0; k < 3; ++k) dst[3 * i + k] = BlendPil(gray, px[k], param);
  }
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
// Hue shift or saturation scale of eight RGB pixels per step: RgbToHsv, the stage's change
// and HsvToRgb of augment.h with the same IEEE operations in the same order, their
// branches turned into lane selects (lanes a branch does not take may compute NaN or
// infinity; selects drop them). The per-pixel code branches on the data (largest channel,
// hue sector), which photos make unpredictable.
__attribute__((target("avx2"))) inline __m256 Select(__m256 mask, __m256 if_true, __m256 if_false) {
  return _mm256_blendv_ps(if_false, if_true, mask);
}

__attribute__((target("avx2"))) inline __m256 SectorIs(__m256i sector, int k) {
  return _mm256_castsi256_ps(_mm256_cmpeq_epi32(sector, _mm256_set1_epi32(k)));
}

__attribute__((target("avx2"))) void HueSaturationAvx2(const uint8_t* src, size_t n, int c,
                                                        bool hue, float param, uint8_t* dst) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f), six = _mm256_set1_ps(6.f);
  const __m256 c255 = _mm256_set1_ps(255.f), p = _mm256_set1_ps(param);
  for (size_t i0 = 0; i0 < n; i0 += 8) {
    const int lanes = n - i0 < 8 ? int(n - i0) : 8;
    alignas(32) float in[3][8] = {};
    for (int l = 0; l < lanes; ++l)
      for (int k = 0; k < 3; ++k) in[k][l] = src[(i0 + l) * c + k];
    const __m256 r = _mm256_div_ps(_mm256_load_ps(in[0]), c255);
    const __m256 g = _mm256_div_ps(_mm256_load_ps(in[1]), c255);
    const __m256 b = _mm256_div_ps(_mm256_load_ps(in[2]), c255);
    // RgbToHsv
    const __m256 mx = _mm256_max_ps(r, _mm256_max_ps(g, b)), mn = _mm256_min_ps(r, _mm256_min_ps(g, b));
    const __m256 d = _mm256_sub_ps(mx, mn);
    const __m256 v = mx;
    __m256 s = Select(_mm256_cmp_ps(mx, zero, _CMP_GT_OQ), _mm256_div_ps(d, mx), zero);
    const __m256 is_r = _mm256_cmp_ps(mx, r, _CMP_EQ_OQ);
    const __m256 is_g = _mm256_andnot_ps(is_r, _mm256_cmp_ps(mx, g, _CMP_EQ_OQ));
    const __m256 num = Select(is_r, _mm256_sub_ps(g, b), Select(is_g, _mm256_sub_ps(b, r), _mm256_sub_ps(r, g)));
    const __m256 q0 = _mm256_div_ps(num, d);
    const __m256 offset = Select(is_g, _mm256_set1_ps(2.f), _mm256_set1_ps(4.f));
    __m256 hh = _mm256_div_ps(Select(is_r, q0, _mm256_add_ps(offset, q0)), six);
    hh = Select(_mm256_cmp_ps(hh, zero, _CMP_LT_OQ), _mm256_add_ps(hh, one), hh);
    __m256 h = Select(_mm256_cmp_ps(d, zero, _CMP_LE_OQ), zero, hh);
    // The stage
    if (hue) {
      h = _mm256_add_ps(h, p);
    } else {
      s = _mm256_min_ps(one, _mm256_max_ps(zero, _mm256_mul_ps(s, p)));
    }
    // HsvToRgb
    h = _mm256_sub_ps(h, _mm256_floor_ps(h));
    const __m256 h6 = _mm256_mul_ps(h, six);
    __m256i sector = _mm256_cvttps_epi32(h6);
    sector = _mm256_blendv_epi8(sector, _mm256_setzero_si256(),
                                _mm256_cmpeq_epi32(sector, _mm256_set1_epi32(6)));  // % 6 of 0..6
    const __m256 f = _mm256_sub_ps(h6, _mm256_floor_ps(h6));
    const __m256 pp = _mm256_mul_ps(v, _mm256_sub_ps(one, s));
    const __m256 qq = _mm256_mul_ps(v, _mm256_sub_ps(one, _mm256_mul_ps(s, f)));
    const __m256 tt = _mm256_mul_ps(v, _mm256_sub_ps(one, _mm256_mul_ps(s, _mm256_sub_ps(one, f))));
    const __m256 s0 = SectorIs(sector, 0), s1 = SectorIs(sector, 1), s2 = SectorIs(sector, 2);
    const __m256 s3 = SectorIs(sector, 3), s4 = SectorIs(sector, 4);
    // sector: 0 -> (v, t, p), 1 -> (q, v, p), 2 -> (p, v, t), 3 -> (p, q, v), 4 -> (t, p, v), 5 -> (v, p, q)
    const __m256 out_r = Select(s0, v, Select(s1, qq, Select(_mm256_or_ps(s2, s3), pp, Select(s4, tt, v))));
    const __m256 out_g = Select(s0, tt, Select(_mm256_or_ps(s1, s2), v, Select(s3, qq, pp)));
    const __m256 out_b = Select(_mm256_or_ps(s0, s1), pp, Select(s2, tt, Select(_mm256_or_ps(s3, s4), v, qq)));
    alignas(32) int out[3][8];
    const __m256 rgb[3] = {out_r, out_g, out_b};
    for (int k = 0; k < 3; ++k)  // SaturateToUint8(x * 255)
      _mm256_store_si256(reinterpret_cast<__m256i*>(out[k]), SaturateLanes8(_mm256_mul_ps(rgb[k], c255)));
    for (int l = 0; l < lanes; ++l) {
      uint8_t* o = dst + (i0 + l) * c;
      for (int k = 0; k < 3; ++k) o[k] = static_cast<uint8_t>(out[k][l]);
      for (int k = 3; k < c; ++k) o[k] = src[(i0 + l) * c + k];
    }
  }
}

// HashUniform of augment.h on eight indices.
__attribute__((target("avx2"))) inline __m256 HashUniform8(uint32_t seed, __m256i index) {
  __m256i x = _mm256_xor_si256(_mm256_set1_epi32(int(seed * 0x9E3779B9u)),
                               _mm256_add_epi32(index, _mm256_set1_epi32(0x7F4A7C15)));
  x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 16));
  x = _mm256_mullo_epi32(x, _mm256_set1_epi32(int(0x85EBCA6Bu)));
  x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 13));
  x = _mm256_mullo_epi32(x, _mm256_set1_epi32(int(0xC2B2AE35u)));
  x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 16));
  const __m256 top = _mm256_cvtepi32_ps(_mm256_srli_epi32(x, 8));  // < 2^24: exact
  return _mm256_mul_ps(_mm256_add_ps(top, _mm256_set1_ps(0.5f)), _mm256_set1_ps(1.f / 16777216.f));
}

// GaussianFromUniforms of portable_math.h on eight lanes, operation for operation.
__attribute__((target("avx2"))) inline __m256 GaussianFromUniforms8(__m256 u1, __m256 u2) {
  const __m256 one = _mm256_set1_ps(1.f);
  // LogPositive(u1)
  const __m256i bits = _mm256_castps_si256(u1);
  __m256i e = _mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(127));
  __m256 m = _mm256_castsi256_ps(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0x7fffff)),
                                                 _mm256_set1_epi32(0x3f800000)));
  const __m256 big = _mm256_cmp_ps(m, _mm256_set1_ps(kSqrtTwo), _CMP_GT_OQ);
  m = _mm256_blendv_ps(m, _mm256_mul_ps(m, _mm256_set1_ps(0.5f)), big);
  e = _mm256_sub_epi32(e, _mm256_castps_si256(big));  // the mask is -1 where m was halved
  const __m256 s = _mm256_div_ps(_mm256_sub_ps(m, one), _mm256_add_ps(m, one));
  const __m256 s2 = _mm256_mul_ps(s, s);
  __m256 p = _mm256_mul_ps(s2, _mm256_set1_ps(2.f / 9.f));
  p = _mm256_mul_ps(s2, _mm256_add_ps(_mm256_set1_ps(2.f / 7.f), p));
  p = _mm256_mul_ps(s2, _mm256_add_ps(_mm256_set1_ps(2.f / 5.f), p));
  p = _mm256_mul_ps(s2, _mm256_add_ps(_mm256_set1_ps(2.f / 3.f), p));
  p = _mm256_mul_ps(s, _mm256_add_ps(_mm256_set1_ps(2.f), p));
  const __m256 ef = _mm256_cvtepi32_ps(e);
  const __m256 log_u1 = _mm256_add_ps(_mm256_mul_ps(ef, _mm256_set1_ps(kLn2Hi)),
                                      _mm256_add_ps(_mm256_mul_ps(ef, _mm256_set1_ps(kLn2Lo)), p));
  // CosTurns(u2)
  const __m256 y = _mm256_mul_ps(u2, _mm256_set1_ps(4.f));
  const __m256i q = _mm256_cvttps_epi32(_mm256_add_ps(y, _mm256_set1_ps(0.5f)));
  const __m256 a = _mm256_mul_ps(_mm256_sub_ps(y, _mm256_cvtepi32_ps(q)), _mm256_set1_ps(kHalfPi));
  const __m256 a2 = _mm256_mul_ps(a, a);
  __m256 c = _mm256_mul_ps(a2, _mm256_set1_ps(1.f / 40320.f));
  c = _mm256_mul_ps(a2, _mm256_sub_ps(_mm256_set1_ps(1.f / 720.f), c));
  c = _mm256_mul_ps(a2, _mm256_sub_ps(_mm256_set1_ps(1.f / 24.f), c));
  c = _mm256_mul_ps(a2, _mm256_sub_ps(_mm256_set1_ps(1.f / 2.f), c));
  c = _mm256_sub_ps(one, c);
  __m256 sn = _mm256_mul_ps(a2, _mm256_set1_ps(1.f / 362880.f));
  sn = _mm256_mul_ps(a2, _mm256_sub_ps(_mm256_set1_ps(1.f / 5040.f), sn));
  sn = _mm256_mul_ps(a2, _mm256_sub_ps(_mm256_set1_ps(1.f / 120.f), sn));
  sn = _mm256_mul_ps(a2, _mm256_sub_ps(_mm256_set1_ps(1.f / 6.f), sn));
  sn = _mm256_mul_ps(a, _mm256_sub_ps(one, sn));
  const __m256i quadrant = _mm256_and_si256(q, _mm256_set1_epi32(3));
  const __m256 odd = _mm256_castsi256_ps(_mm256_slli_epi32(quadrant, 31));  // quadrants 1, 3
  const __m256 negate = _mm256_castsi256_ps(  // sign bit for quadrants 1 and 2
      _mm256_slli_epi32(_mm256_xor_si256(quadrant, _mm256_srli_epi32(quadrant, 1)), 31));
  const __m256 cos_u2 = _mm256_xor_ps(_mm256_blendv_ps(c, sn, odd), negate);
  const __m256 r = _mm256_sqrt_ps(_mm256_mul_ps(_mm256_set1_ps(-2.f), log_u1));
  return _mm256_mul_ps(r, cos_u2);
}

// NoisyByte of augment.h over every byte (all channels, as the per-pixel code), eight
// bytes per step.
__attribute__((target("avx2"))) void GaussianNoiseAvx2(const uint8_t* src, size_t elements,
                                                        uint32_t seed, float param, uint8_t* dst) {
  const __m256 sigma = _mm256_set1_ps(param);
  const __m256i lane2 = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
  size_t i = 0;
  for (; i + 8 <= elements; i += 8) {
    const __m256i even = _mm256_add_epi32(_mm256_set1_epi32(int(uint32_t(2 * i))), lane2);
    const __m256 z = GaussianFromUniforms8(HashUniform8(seed, even),
                                           HashUniform8(seed, _mm256_add_epi32(even, _mm256_set1_epi32(1))));
    __m256i q = SaturateLanes8(_mm256_add_ps(LoadBytes8(src + i), _mm256_mul_ps(sigma, z)));
    q = _mm256_packus_epi16(_mm256_packs_epi32(q, q), q);  // bytes 0-3 and 16-19
    const uint32_t lo = uint32_t(_mm256_cvtsi256_si32(q));
    const uint32_t hi = uint32_t(_mm_cvtsi128_si32(_mm256_extracti128_si256(q, 1)));
    const uint64_t both = uint64_t(lo) | (uint64_t(hi) << 32);
    std::memcpy(dst + i, &both, 8);
  }
  for (; i < elements; ++i) dst[i] = NoisyByte(seed, static_cast<uint32_t>(i), param, src[i]);
}
#endif

// PIL: int(mean of the L image + 0.5); the L image of a gray image is itself.
int LumaMean(const uint8_t* src, const AugmentImage& im) {
  const size_t n = size_t(im.h) * im.w;
  uint64_t sum = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = src + i * im.c;
    sum += im.c >= 3 ? RgbToLuma(p[0], p[1], p[2]) : p[0];
  }
  return static_cast<int>(double(sum) / double(n) + 0.5);
}

// Interior bytes of one row of a 1- or 3-channel image (all channels sharpened), as the
// per-pixel code computes them; written as one flat loop so that it vectorises.
template <int C>
TFGA_VECTOR_CLONES void SharpenRowT(const uint8_t* s, size_t row, float param, uint8_t* o) {
  for (size_t i = C; i + C < row; ++i) o[i] = BlendPil(SmoothPilAt(s + i, row, C), s[i], param);
}

void SharpenRow(const uint8_t* s, size_t row, int c, float param, uint8_t* o) {
  if (c == 3) return SharpenRowT<3>(s, row, param, o);
  if (c == 1) return SharpenRowT<1>(s, row, param, o);
  for (size_t i = c; i + c < row; ++i) o[i] = BlendPil(SmoothPilAt(s + i, row, c), s[i], param);
}

// SaturateToUint8 over a row: clamp to [0, 255], add 0.5, truncate; 16 values per step
// with SSE2 (the same operations on each lane), the tail one by one.
void SaturateRow(const float* in, size_t n, uint8_t* out) {
  size_t e = 0;
#if TFGPUAUG_HAVE_SSE2
  const __m128 lo = _mm_setzero_ps(), hi = _mm_set1_ps(255.f), half = _mm_set1_ps(0.5f);
  auto lanes = [&](size_t at) {
    const __m128 v = _mm_min_ps(_mm_max_ps(_mm_loadu_ps(in + at), lo), hi);
    return _mm_cvttps_epi32(_mm_add_ps(v, half));
  };
  for (; e + 16 <= n; e += 16) {
    const __m128i a = _mm_packs_epi32(lanes(e), lanes(e + 4));
    const __m128i b = _mm_packs_epi32(lanes(e + 8), lanes(e + 12));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + e), _mm_packus_epi16(a, b));
  }
#endif
  for (; e < n; ++e) out[e] = SaturateToUint8(in[e]);
}

// Gaussian blur, separably: every source row's horizontal sums once, then each output
// row's vertical sum over those rows. Per element these are BlurPixel's additions in
// BlurPixel's order, so the output is bit-identical to the per-pixel (GPU) function.
void GaussianBlurCpu(const uint8_t* src, const AugmentImage& im, const StageParams& sp,
                     uint8_t* dst) {
  const int r = sp.blur_radius, c = im.c;
  const float* w = sp.blur;
  const size_t row = size_t(im.w) * c;
  if (r == 0) {
    std::memcpy(dst, src, row * im.h);
    return;
  }
  // Scratch per pool thread, reused; raw pointers so the loops do not look up the
  // thread-local storage on every access.
  thread_local std::vector<float> scratch;
  scratch.resize(row * im.h + size_t(im.w + 2 * r) * c + row);
  float* sums = scratch.data();
  float* padded = sums + row * im.h;
  float* acc = padded + size_t(im.w + 2 * r) * c;
  const float* taps[2 * kMaxBlurRadius + 1];
  for (int y = 0; y < im.h; ++y) {
    const uint8_t* s = src + size_t(y) * row;
    // The row as floats with its reflected borders (only border pixels need Reflect101).
    float* p = padded + size_t(r) * c;
    for (size_t e = 0; e < row; ++e) p[e] = s[e];
    for (int x = -r; x < 0; ++x)
      for (int k = 0; k < c; ++k) p[x * c + k] = s[Reflect101(x, im.w) * c + k];
    for (int x = im.w; x < im.w + r; ++x)
      for (int k = 0; k < c; ++k) p[x * c + k] = s[Reflect101(x, im.w) * c + k];
    // Tap t of every pixel is the padded row shifted by t pixels. (Products of the
    // non-negative weights and pixels are never -0, so assigning the first one equals
    // BlurPixel's adding it to +0.)
    for (int t = 0; t <= 2 * r; ++t) taps[t] = padded + size_t(t) * c;
    WeightedRowSum(taps, w, 2 * r + 1, row, sums + size_t(y) * row);
  }
  for (int y = 0; y < im.h; ++y) {
    for (int t = 0; t <= 2 * r; ++t) taps[t] = sums + size_t(Reflect101(y + t - r, im.h)) * row;
    WeightedRowSum(taps, w, 2 * r + 1, row, acc);
    SaturateRow(acc, row, dst + size_t(y) * row);
  }
}

}  // namespace

void AugmentStageCpu(int op, float param, const float* aux, const uint8_t* src,
                     const AugmentImage& im, uint8_t* dst) {
  const size_t n = size_t(im.h) * im.w;
  if (op == int(AugmentOp::kIdentity)) {
    std::memcpy(dst, src, n * im.c);
    return;
  }
  if (IsLutOp(op)) {
    uint32_t hist[4 * 256];
    uint8_t lut[4 * 256];
    if (NeedsHistogram(op)) Histograms(src, im, hist);
    const int mean = NeedsLumaMean(op) ? LumaMean(src, im) : 0;
    for (int k = 0; k < im.c; ++k) BuildLut(op, param, hist + 256 * k, mean, lut + 256 * k);
    if (im.c == 3) {
      for (size_t i = 0; i < n; ++i) {
        dst[3 * i] = lut[src[3 * i]];
        dst[3 * i + 1] = lut[256 + src[3 * i + 1]];
        dst[3 * i + 2] = lut[512 + src[3 * i + 2]];
      }
      return;
    }
    for (size_t i = 0; i < n; ++i)
      for (int k = 0; k < im.c; ++k) dst[i * im.c + k] = lut[256 * k + src[i * im.c + k]];
    return;
  }
  const StageParams sp = PrepareStage(op, param, aux, im);
  // Loops specialised per family so the per-pixel work inlines; the math is the shared
  // inline code the CUDA kernel runs.
  if (IsAffineOp(op)) {
    const AffineParams p{im.h, im.w, im.c, im.h, im.w, im.interpolation, im.fill};
    WarpAffineCpu(src, p, sp.matrix, dst);
    return;
  }
  if (op == int(AugmentOp::kColor) && im.c == 3) return ColorRgb(src, n, param, dst);
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if ((op == int(AugmentOp::kHue) || op == int(AugmentOp::kSaturation)) && im.c >= 3 && CpuHasAvx2())
    return HueSaturationAvx2(src, n, im.c, op == int(AugmentOp::kHue), param, dst);
  if (op == int(AugmentOp::kGaussianNoise) && CpuHasAvx2())
    return GaussianNoiseAvx2(src, n * im.c, sp.seed, param, dst);
#endif
  if (op == int(AugmentOp::kGaussianBlur)) return GaussianBlurCpu(src, im, sp, dst);
  if (op == int(AugmentOp::kCutout)) {  // a copy, then the square: rows and columns tested apart
    std::memcpy(dst, src, n * im.c);
    const CutoutSquare sq = CutoutOf(sp, im);
    const uint8_t fill = SaturateToUint8(im.fill);
    for (int y = 0; y < im.h; ++y) {
      if (!CutoutCovers(sq.cy, sq.half, y + 0.5f)) continue;
      for (int x = 0; x < im.w; ++x)
        if (CutoutCovers(sq.cx, sq.half, x + 0.5f)) std::memset(dst + (size_t(y) * im.w + x) * im.c, fill, im.c);
    }
    return;
  }
  if ((op == int(AugmentOp::kColor) || op == int(AugmentOp::kGrayscale)) && im.c >= 3) {
    const bool gray_only = op == int(AugmentOp::kGrayscale);
    for (size_t i = 0; i < n; ++i) {
      const uint8_t* px = src + i * im.c;
      uint8_t* o = dst + i * im.c;
      const uint8_t gray = RgbToLuma(px[0], px[1], px[2]);
      for (int k = 0; k < 3; ++k) o[k] = gray_only ? gray : BlendPil(gray, px[k], param);
      for (int k = 3; k < im.c; ++k) o[k] = px[k];
    }
    return;
  }
  if (op == int(AugmentOp::kSharpness) && im.h > 2 && im.w > 2) {
    const int nc = im.c >= 3 ? 3 : im.c;
    const size_t row = size_t(im.w) * im.c;
    std::memcpy(dst, src, row);
    std::memcpy(dst + (im.h - 1) * row, src + (im.h - 1) * row, row);
    for (int y = 1; y < im.h - 1; ++y) {
      const uint8_t* s = src + y * row;
      uint8_t* o = dst + y * row;
      std::memcpy(o, s, im.c);
      std::memcpy(o + row - im.c, s + row - im.c, im.c);
      if (nc == im.c) {  // every channel sharpened: one flat loop over the row's bytes
        SharpenRow(s, row, im.c, param, o);
        continue;
      }
      for (int x = 1; x < im.w - 1; ++x) {
        for (int k = 0; k < nc; ++k)
          o[x * im.c + k] = BlendPil(SmoothPil(src, im.w, im.c, y, x, k), s[x * im.c + k], param);
        for (int k = nc; k < im.c; ++k) o[x * im.c + k] = s[x * im.c + k];
      }
    }
    return;
  }
  uint8_t* o = dst;
  for (int y = 0; y < im.h; ++y)
    for (int x = 0; x < im.w; ++x, o += im.c) AugmentPixel(sp, src, im, y, x, o);
}

Status AugmentSampleCpu(const uint8_t* in, const AugmentImage& im, const int32_t* ops,
                        const float* params, const float* aux, int num_stages, uint8_t* scratch,
                        uint8_t* out) {
  if (im.c > 4) return Status::Invalid("augment supports at most 4 channels");
  for (int k = 0; k < num_stages; ++k) {
    if (ops[k] < 0 || ops[k] >= int(AugmentOp::kNumOps)) {
      return Status::Invalid("unknown augmentation op id " + std::to_string(ops[k]));
    }
  }
  const size_t bytes = size_t(im.h) * im.w * im.c;
  if (num_stages == 0) {
    std::memcpy(out, in, bytes);
    return Status::Ok();
  }
  // Ping-pong so that the last stage writes `out`: stage k writes out when
  // (num_stages - 1 - k) is even, scratch otherwise.
  const uint8_t* src = in;
  for (int k = 0; k < num_stages; ++k) {
    uint8_t* dst = ((num_stages - 1 - k) % 2 == 0) ? out : scratch;
    AugmentStageCpu(ops[k], params[k], aux + 2 * k, src, im, dst);
    src = dst;
  }
  return Status::Ok();
}

}  // namespace tfgpuaug
