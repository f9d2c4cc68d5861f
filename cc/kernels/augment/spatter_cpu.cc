#include "cc/kernels/augment/spatter_cpu.h"

#include <algorithm>
#include <cstring>

#include "cc/kernels/common/simd_x86.h"
#include "cc/kernels/warp/elastic_maps_cpu.h"

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

// The middle of a row's blur, out[x] for x in [lo, hi) (every tap inside the row): a tap at a
// time over all those outputs, which vectorises and sums each element in SpatterBlurAt's order.
TFGPUAUG_VECTOR_CLONES void BlurMiddleDouble(const double* __restrict centre, int r,
                                             const double* __restrict row, int lo, int hi,
                                             double* __restrict out) {
  for (int x = lo; x < hi; ++x) out[x] = 0.0;
  for (int k = -r; k <= r; ++k) {
    const double g = centre[k];
    for (int x = lo; x < hi; ++x) out[x] += g * row[x + k];
  }
}

TFGPUAUG_VECTOR_CLONES void BlurMiddleFloat(const float* __restrict centre, int r,
                                            const float* __restrict row, int lo, int hi,
                                            float* __restrict out) {
  for (int x = lo; x < hi; ++x) out[x] = 0.f;
  for (int k = -r; k <= r; ++k) {
    const float g = centre[k];
    for (int x = lo; x < hi; ++x) out[x] += g * row[x + k];
  }
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
// The same sums sixteen (float64) or thirty-two (float32) outputs a step, held in registers
// across the taps (a multiply, then an add); returns where the blocks stopped.
__attribute__((target("avx2"))) int BlurMiddleDoubleAvx2(const double* centre, int r, const double* row,
                                                         int lo, int hi, double* out) {
  int x = lo;
  for (; x + 16 <= hi; x += 16) {
    __m256d a[4] = {_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()};
    for (int k = -r; k <= r; ++k) {
      const __m256d g = _mm256_set1_pd(centre[k]);
      for (int v = 0; v < 4; ++v)
        a[v] = _mm256_add_pd(a[v], _mm256_mul_pd(g, _mm256_loadu_pd(row + x + k + 4 * v)));
    }
    for (int v = 0; v < 4; ++v) _mm256_storeu_pd(out + x + 4 * v, a[v]);
  }
  return x;
}

__attribute__((target("avx2"))) int BlurMiddleFloatAvx2(const float* centre, int r, const float* row, int lo,
                                                        int hi, float* out) {
  int x = lo;
  for (; x + 32 <= hi; x += 32) {
    __m256 a[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
    for (int k = -r; k <= r; ++k) {
      const __m256 g = _mm256_set1_ps(centre[k]);
      for (int v = 0; v < 4; ++v)
        a[v] = _mm256_add_ps(a[v], _mm256_mul_ps(g, _mm256_loadu_ps(row + x + k + 8 * v)));
    }
    for (int v = 0; v < 4; ++v) _mm256_storeu_ps(out + x + 8 * v, a[v]);
  }
  return x;
}
#endif

// out[x] = SpatterBlurAt along a row of w for every x, from the row with its ends replicated r
// times (padded[i] = row[clamp(i - r)]): every output a middle one.
void BlurPaddedRowDouble(const double* centre, int r, const double* padded, int w, double* out) {
  int x = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) x = BlurMiddleDoubleAvx2(centre, r, padded + r, 0, w, out);
#endif
  BlurMiddleDouble(centre, r, padded + r, x, w, out);
}

void BlurPaddedRowFloat(const float* centre, int r, const float* padded, int w, float* out) {
  int x = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) x = BlurMiddleFloatAvx2(centre, r, padded + r, 0, w, out);
#endif
  BlurMiddleFloat(centre, r, padded + r, x, w, out);
}

// Row y of the column blur of an h x w plane from column x0 on: sums[x] over the rows y - r ..
// y + r (clamped), each from zero in tap order, one pass a tap.
TFGPUAUG_VECTOR_CLONES void BlurColumnsDouble(const double* __restrict centre, int r, const double* plane,
                                              int h, int w, int y, int x0, double* __restrict sums) {
  for (int x = x0; x < w; ++x) sums[x] = 0.0;
  for (int k = -r; k <= r; ++k) {
    const double g = centre[k];
    const double* __restrict src = plane + int64_t(std::clamp(y + k, 0, h - 1)) * w;
    for (int x = x0; x < w; ++x) sums[x] += g * src[x];
  }
}

TFGPUAUG_VECTOR_CLONES void BlurColumnsFloat(const float* __restrict centre, int r, const float* plane, int h,
                                             int w, int y, int x0, float* __restrict sums) {
  for (int x = x0; x < w; ++x) sums[x] = 0.f;
  for (int k = -r; k <= r; ++k) {
    const float g = centre[k];
    const float* __restrict src = plane + int64_t(std::clamp(y + k, 0, h - 1)) * w;
    for (int x = x0; x < w; ++x) sums[x] += g * src[x];
  }
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
// The same sums sixteen (float64) or thirty-two (float32) columns a step, held in registers
// across the taps (a multiply, then an add, as above); returns the columns done.
__attribute__((target("avx2"))) int BlurColumnsDoubleAvx2(const double* centre, int r, const double* plane,
                                                          int h, int w, int y, double* sums) {
  int x0 = 0;
  for (; x0 + 16 <= w; x0 += 16) {
    __m256d a[4] = {_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()};
    for (int k = -r; k <= r; ++k) {
      const __m256d g = _mm256_set1_pd(centre[k]);
      const double* src = plane + int64_t(std::clamp(y + k, 0, h - 1)) * w + x0;
      for (int v = 0; v < 4; ++v) a[v] = _mm256_add_pd(a[v], _mm256_mul_pd(g, _mm256_loadu_pd(src + 4 * v)));
    }
    for (int v = 0; v < 4; ++v) _mm256_storeu_pd(sums + x0 + 4 * v, a[v]);
  }
  return x0;
}

__attribute__((target("avx2"))) int BlurColumnsFloatAvx2(const float* centre, int r, const float* plane,
                                                         int h, int w, int y, float* sums) {
  int x0 = 0;
  for (; x0 + 32 <= w; x0 += 32) {
    __m256 a[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
    for (int k = -r; k <= r; ++k) {
      const __m256 g = _mm256_set1_ps(centre[k]);
      const float* src = plane + int64_t(std::clamp(y + k, 0, h - 1)) * w + x0;
      for (int v = 0; v < 4; ++v) a[v] = _mm256_add_ps(a[v], _mm256_mul_ps(g, _mm256_loadu_ps(src + 8 * v)));
    }
    for (int v = 0; v < 4; ++v) _mm256_storeu_ps(sums + x0 + 8 * v, a[v]);
  }
  return x0;
}
#endif

// Row y of the column blurs: the AVX2 blocks where the CPU has them, the rest one pass a tap.
void ColumnsDouble(const double* centre, int r, const double* plane, int h, int w, int y, double* sums) {
  int x0 = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) x0 = BlurColumnsDoubleAvx2(centre, r, plane, h, w, y, sums);
#endif
  BlurColumnsDouble(centre, r, plane, h, w, y, x0, sums);
}

void ColumnsFloat(const float* centre, int r, const float* plane, int h, int w, int y, float* sums) {
  int x0 = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) x0 = BlurColumnsFloatAvx2(centre, r, plane, h, w, y, sums);
#endif
  BlurColumnsFloat(centre, r, plane, h, w, y, x0, sums);
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
  ElasticNoiseCpu(plan.seed, static_cast<uint32_t>(n), true, s.noise);
  for (int y = 0; y < h; ++y) {
    const float* z = s.noise + size_t(y) * w;
    double* row = s.liquid_row + r1;
    for (int x = 0; x < w; ++x) row[x] = p.mean + p.std * double(z[x]);
    for (int i = 1; i <= r1; ++i) row[-i] = row[0], row[w - 1 + i] = row[w - 1];
    BlurPaddedRowDouble(c1, r1, s.liquid_row, w, s.blurred + size_t(y) * w);
  }
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
    for (int i = 1; i <= r2; ++i) row[-i] = row[0], row[w - 1 + i] = row[w - 1];
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
