#include "cc/kernels/augment/spatter_cpu.h"

#include <algorithm>
#include <cstring>

#include "cc/kernels/augment/spatter_blur_cpu.h"
#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

// The scratch's parts for n pixels and rows of w: the row-blurred liquid (float64), a liquid
// row with its replicated ends, a row of sums (float64), the noise and later the mask
// (float32), the row-blurred marks, a marks row with its replicated ends, the marks.
struct SpatterScratch {
  double* blurred;
  double* liquid_row;
  double* sums;
  float* noise;
  float* rows;
  float* marks_row;
  uint8_t* marks;
};

SpatterScratch Carve(uint8_t* scratch, size_t n, int w) {
  const size_t padded = size_t(w) + kMaxSpatterTaps;
  SpatterScratch s;
  s.blurred = reinterpret_cast<double*>(scratch);
  s.liquid_row = s.blurred + n;
  s.sums = s.liquid_row + padded;
  s.noise = reinterpret_cast<float*>(s.sums + w);
  s.rows = s.noise + n;
  s.marks_row = s.rows + n;
  s.marks = reinterpret_cast<uint8_t*>(s.marks_row + padded);
  return s;
}

// SpatterMarked of a row of blurred liquid, branch-free (a value below the cutout is zeroed,
// so it is marked exactly when 0 passes); returns the marks' count.
TFGPUAUG_VECTOR_CLONES int MarkRow(const double* __restrict blurred, int w, double cutout,
                                   uint8_t* __restrict marks) {
  const uint8_t zero_passes = 0.0 > cutout ? 1 : 0;
  for (int x = 0; x < w; ++x) {
    const bool below = blurred[x]<cutout, above = blurred[x]> cutout;  // above: not below
    marks[x] = uint8_t((below & zero_passes) | above);
  }
  int count = 0;
  for (int x = 0; x < w; ++x) count += marks[x];
  return count;
}

// The largest of n non-negative floats, by their bits (which order as the floats do).
TFGPUAUG_VECTOR_CLONES float PeakOf(const float* __restrict values, size_t n) {
  uint32_t top = 0;
  for (size_t e = 0; e < n; ++e) {
    uint32_t bits;
    std::memcpy(&bits, values + e, 4);
    top = bits > top ? bits : top;
  }
  float peak;
  std::memcpy(&peak, &top, 4);
  return peak;
}

// SpatterMask of a row whose peak is above 0: m / peak * intensity.
TFGPUAUG_VECTOR_CLONES void MaskRow(const float* __restrict m, int w, float peak, float intensity,
                                    float* __restrict out) {
  for (int x = 0; x < w; ++x) out[x] = m[x] / peak * intensity;
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
// float32(clip((c - mud) / c, 0, 1)) of four lanes, in float64.
__attribute__((target("avx2"))) inline __m128 NonMud4(__m128 mud, __m256d c) {
  const __m256d q = _mm256_div_pd(_mm256_sub_pd(c, _mm256_cvtps_pd(mud)), c);
  return _mm256_cvtpd_ps(_mm256_min_pd(_mm256_max_pd(q, _mm256_setzero_pd()), _mm256_set1_pd(1.0)));
}

// Eight bytes through the mud: m their pixels' masks, c_lo and c_hi their colours / 255.
// SpatterMudByteOf's operations lane for lane (products and quotients in float64 four lanes at
// a time, rounded to float32; the 1 - mask of a 0 colour chosen after the division, whose lanes
// are then unused; cvtps rounds to the nearest even, as rintf).
__attribute__((target("avx2"))) inline void Mud8(const uint8_t* src, __m256 m, __m256d c_lo, __m256d c_hi,
                                                 uint8_t* out) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f);
  const __m128 mud_lo = _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(m)), c_lo));
  const __m128 mud_hi = _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(m, 1)), c_hi));
  const __m256 mud = _mm256_set_m128(mud_hi, mud_lo);
  const __m256 quotient = _mm256_set_m128(NonMud4(mud_hi, c_hi), NonMud4(mud_lo, c_lo));
  const __m256 coloured =
      _mm256_cmp_ps(_mm256_set_m128(_mm256_cvtpd_ps(c_hi), _mm256_cvtpd_ps(c_lo)), zero, _CMP_GT_OQ);
  const __m256 non_mud = _mm256_blendv_ps(_mm256_sub_ps(one, m), quotient, coloured);
  const __m256 v =
      _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(src))));
  __m256 x = _mm256_add_ps(_mm256_mul_ps(_mm256_div_ps(v, _mm256_set1_ps(255.f)), non_mud), mud);
  x = _mm256_min_ps(_mm256_max_ps(x, zero), one);
  StoreLanes8(_mm256_cvtps_epi32(_mm256_mul_ps(x, _mm256_set1_ps(255.f))), out);
}

// Pixels [0, w rounded down to 8) of an RGB row through the mud, eight (24 bytes) a step: unit
// the pixels' masks, colour the three levels / 255. Each block of eight bytes takes its
// pixels' masks by one permute and its colours from a fixed pattern. Returns the pixels done.
__attribute__((target("avx2"))) int MudRowAvx2(const uint8_t* src, const float* unit, const double* colour,
                                               int w, uint8_t* out) {
  const __m256i spread[3] = {_mm256_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2),
                             _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 4, 5),
                             _mm256_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7)};
  __m256d c[6];  // block b's colours: c[2 b] lanes 0-3, c[2 b + 1] lanes 4-7
  for (int b = 0; b < 3; ++b) {
    c[2 * b] = _mm256_setr_pd(colour[(8 * b) % 3], colour[(8 * b + 1) % 3], colour[(8 * b + 2) % 3],
                              colour[(8 * b + 3) % 3]);
    c[2 * b + 1] = _mm256_setr_pd(colour[(8 * b + 4) % 3], colour[(8 * b + 5) % 3], colour[(8 * b + 6) % 3],
                                  colour[(8 * b + 7) % 3]);
  }
  int x = 0;
  for (; x + 8 <= w; x += 8) {
    const __m256 m = _mm256_loadu_ps(unit + x);
    for (int b = 0; b < 3; ++b)
      Mud8(src + 3 * x + 8 * b, _mm256_permutevar8x32_ps(m, spread[b]), c[2 * b], c[2 * b + 1],
           out + 3 * x + 8 * b);
  }
  return x;
}
#endif

// An RGB row of w pixels through the mud (the AVX2 loop where the CPU has it, then
// SpatterMudByteOf): unit the pixels' masks, colour the three levels / 255.
void MudRow(const uint8_t* src, const float* unit, const double* colour, int w, uint8_t* out) {
  int x = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) x = MudRowAvx2(src, unit, colour, w, out);
#endif
  for (; x < w; ++x)
    for (int k = 0; k < 3; ++k) out[3 * x + k] = SpatterMudByteOf(src[3 * x + k], unit[x], colour[k]);
}

}  // namespace

size_t SpatterScratchBytes(int h, int w) {
  const size_t n = size_t(h) * w;
  const size_t padded = size_t(w) + kMaxSpatterTaps;
  return (n + padded + w) * sizeof(double) + (2 * n + padded) * sizeof(float) + n;
}

void SpatterMudCpu(const uint8_t* image, int h, int w, const SpatterMudPlan& plan, uint8_t* scratch,
                   uint8_t* out) {
  const size_t n = size_t(h) * w;
  const SpatterParams& p = plan.params;
  if (p.intensity == 0.0) {  // the sample is left alone: the arithmetic would give back every byte
    std::memcpy(out, image, n * 3);
    return;
  }
  const SpatterScratch s = Carve(scratch, n, w);
  const int r1 = SpatterReach(plan.taps1, plan.t1), r2 = SpatterReach(plan.taps2, plan.t2);
  const double* c1 = plan.taps1 + plan.t1 / 2;
  const float* c2 = plan.taps2 + plan.t2 / 2;
  // the liquid layer, blurred along its rows (float64, as numpy's normal and cv2's float64 blur)
  SpatterLiquidRows(p, plan.seed, plan.taps1, plan.t1, h, w, s.noise, s.liquid_row, s.blurred);
  // down the columns, then the cutout: the marks
  size_t marked = 0;
  for (int y = 0; y < h; ++y) {
    ColumnsDouble(c1, r1, s.blurred, h, w, y, s.sums);
    marked += MarkRow(s.sums, w, p.cutout, s.marks + size_t(y) * w);
  }
  if (marked == 0) {  // Albumentations marks max(1, int(0.1 n)) pixels at random
    const uint32_t count = static_cast<uint32_t>(n), k = SpatterFallbackCount(count);
    const int half = SpatterHalfBits(count);
    for (uint32_t i = 0; i < k; ++i) s.marks[SpatterPermuted(i, count, half, plan.seed)] = 1;
  }
  // the marks blurred (float32): rows into `rows`, then columns into the noise's memory
  for (int y = 0; y < h; ++y) {
    const uint8_t* marks = s.marks + size_t(y) * w;
    float* row = s.marks_row + r2;
    for (int x = 0; x < w; ++x) row[x] = float(marks[x]);
    PadEnds(row, w, r2);
    BlurPaddedRowFloat(c2, r2, s.marks_row, w, s.rows + size_t(y) * w);
  }
  float* mask = s.noise;
  for (int y = 0; y < h; ++y) ColumnsFloat(c2, r2, s.rows, h, w, y, mask + size_t(y) * w);
  const float peak = PeakOf(mask, n);
  // the blend a row at a time
  const float intensity = static_cast<float>(p.intensity);
  const double colour[3] = {plan.colour[0] / 255.0, plan.colour[1] / 255.0, plan.colour[2] / 255.0};
  float* unit = reinterpret_cast<float*>(s.sums);  // a row's mask values (w floats)
  for (int y = 0; y < h; ++y) {
    const float* m = mask + size_t(y) * w;
    if (peak > 0.f) {
      MaskRow(m, w, peak, intensity, unit);
    } else {
      for (int x = 0; x < w; ++x) unit[x] = SpatterMask(m[x], peak, y == 0 && x == 0, intensity);
    }
    MudRow(image + size_t(y) * w * 3, unit, colour, w, out + size_t(y) * w * 3);
  }
}

}  // namespace tfgpuaug
