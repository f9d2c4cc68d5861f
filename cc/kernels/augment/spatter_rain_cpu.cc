#include "cc/kernels/augment/spatter_rain_cpu.h"

#include <algorithm>
#include <cstring>

#include "cc/kernels/augment/spatter_blur_cpu.h"
#include "cc/kernels/augment/spatter_rain.h"
#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

// The scratch's parts for n pixels and rows of w (padded rows hold w + kMaxSpatterTaps).
struct RainScratch {
  double* blurred;     // the row-blurred liquid
  double* padded_row;  // a liquid row with its replicated ends
  double* sums;        // a row: the liquid's column sums, later float rows (soften sums, minima)
  float* noise;        // the noise, then the distances
  float* rows;         // row blurs (the magnitudes before them, as int32)
  float* relief;       // the clipped relief (Sobel's 16-bit dx, dy pairs before it)
  float* drops;        // the equalised layer / 255, then m
  float* padded_f;     // a float row with its replicated ends
  float* work;         // the distance transform's plane, (h + 4) (w + 4)
  uint32_t* stack;     // hysteresis
  uint8_t* level;      // the liquid's bytes
  uint8_t* cls;        // Canny's classes
  uint8_t* q;          // the softened distance's bytes
};

RainScratch Carve(uint8_t* scratch, int h, int w) {
  const size_t n = size_t(h) * w, padded = size_t(w) + kMaxSpatterTaps;
  RainScratch s;
  s.blurred = reinterpret_cast<double*>(scratch);
  s.padded_row = s.blurred + n;
  s.sums = s.padded_row + padded;
  s.noise = reinterpret_cast<float*>(s.sums + w);
  s.rows = s.noise + n;
  s.relief = s.rows + n;
  s.drops = s.relief + n;
  s.padded_f = s.drops + n;
  s.work = s.padded_f + padded;
  s.stack = reinterpret_cast<uint32_t*>(s.work + size_t(h + 4) * (w + 4));
  s.level = reinterpret_cast<uint8_t*>(s.stack + n);
  s.cls = s.level + n;
  s.q = s.cls + n;
  return s;
}

// The float32 rows of `plane` blurred by the taps (centred) into `out`, replicated ends.
void BlurRows(const float* centre, int r, const float* plane, int h, int w, float* padded, float* out) {
  for (int y = 0; y < h; ++y) {
    float* row = padded + r;
    std::memcpy(row, plane + size_t(y) * w, sizeof(float) * w);
    PadEnds(row, w, r);
    BlurPaddedRowFloat(centre, r, padded, w, out + size_t(y) * w);
  }
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
// Pixels [0, w rounded down to 8) of an RGB row under their drops, eight (24 bytes) a step:
// m the pixels' drop weights (over the peak), colour the three levels / 255. RainByte's
// operations lane for lane (the drop's products in float64 four lanes at a time, rounded to
// float32; cvtps rounds to the nearest even). Returns the pixels done.
__attribute__((target("avx2"))) int RainRowAvx2(const uint8_t* src, const float* m, const double* colour,
                                                double strength, int w, uint8_t* out) {
  const __m256i spread[3] = {_mm256_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2),
                             _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 4, 5),
                             _mm256_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7)};
  __m256d c[6];  // block b's colours: c[2 b] lanes 0-3, c[2 b + 1] lanes 4-7
  for (int b = 0; b < 6; ++b)
    c[b] = _mm256_setr_pd(colour[(4 * b) % 3], colour[(4 * b + 1) % 3], colour[(4 * b + 2) % 3],
                          colour[(4 * b + 3) % 3]);
  const __m256d s = _mm256_set1_pd(strength);
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f), level = _mm256_set1_ps(255.f);
  int x = 0;
  for (; x + 8 <= w; x += 8) {
    const __m256 weights = _mm256_loadu_ps(m + x);
    for (int b = 0; b < 3; ++b) {
      const __m256 mb = _mm256_permutevar8x32_ps(weights, spread[b]);
      const __m128 lo = _mm256_cvtpd_ps(
          _mm256_mul_pd(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(mb)), c[2 * b]), s));
      const __m128 hi = _mm256_cvtpd_ps(
          _mm256_mul_pd(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(mb, 1)), c[2 * b + 1]), s));
      const uint8_t* bytes = src + 3 * x + 8 * b;
      const __m256 v =
          _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(bytes))));
      __m256 sum = _mm256_add_ps(_mm256_div_ps(v, level), _mm256_set_m128(hi, lo));
      sum = _mm256_min_ps(_mm256_max_ps(sum, zero), one);
      StoreLanes8(_mm256_cvtps_epi32(_mm256_mul_ps(sum, level)), out + 3 * x + 8 * b);
    }
  }
  return x;
}

// Relief row y, x in [1, w - 1) eight at a time (RainRelief's operations lane for lane: each
// tap a multiply then an add, from zero, in its order; clipped by max and min); returns the
// column the blocks stopped at.
__attribute__((target("avx2"))) int ReliefRowAvx2(const float* up, const float* mid, const float* down, int w,
                                                  float* out) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f);
  const __m256 m2 = _mm256_set1_ps(-2.f), m1 = _mm256_set1_ps(-1.f), p2 = _mm256_set1_ps(2.f);
  int x = 1;
  for (; x + 8 <= w - 1; x += 8) {
    __m256 s = _mm256_add_ps(zero, _mm256_mul_ps(m2, _mm256_loadu_ps(up + x - 1)));
    s = _mm256_add_ps(s, _mm256_mul_ps(m1, _mm256_loadu_ps(up + x)));
    s = _mm256_add_ps(s, _mm256_mul_ps(m1, _mm256_loadu_ps(mid + x - 1)));
    s = _mm256_add_ps(s, _mm256_loadu_ps(mid + x));
    s = _mm256_add_ps(s, _mm256_loadu_ps(mid + x + 1));
    s = _mm256_add_ps(s, _mm256_loadu_ps(down + x));
    s = _mm256_add_ps(s, _mm256_mul_ps(p2, _mm256_loadu_ps(down + x + 1)));
    _mm256_storeu_ps(out + x, _mm256_min_ps(_mm256_max_ps(s, zero), one));
  }
  return x;
}
#endif

// The relief plane of the equalised layer e (RainRelief at every pixel; the middle of each row
// eight at a time where the CPU has AVX2).
void Relief(const float* e, int h, int w, float* out) {
  for (int y = 0; y < h; ++y) {
    float* row = out + size_t(y) * w;
    int x = 1;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (CpuHasAvx2() && w > 2) {
      const float* up = e + size_t(RainReflect1(y - 1, h)) * w;
      const float* down = e + size_t(RainReflect1(y + 1, h)) * w;
      x = ReliefRowAvx2(up, e + size_t(y) * w, down, w, row);
    }
#endif
    row[0] = RainRelief(e, h, w, y, 0);
    for (; x < w; ++x) row[x] = RainRelief(e, h, w, y, x);
  }
}

// An RGB row of w pixels under their drops (the AVX2 loop where the CPU has it, then RainByte).
void RainRow(const uint8_t* src, const float* m, const double* colour, double strength, int w, uint8_t* out) {
  int x = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) x = RainRowAvx2(src, m, colour, strength, w, out);
#endif
  for (; x < w; ++x)
    for (int k = 0; k < 3; ++k) out[3 * x + k] = RainByte(src[3 * x + k], m[x], colour[k], strength);
}

// The smaller of each of the 7 earlier-row neighbours' distances plus their costs (a row of
// the forward pass: the serial step then only adds the left neighbour), and of the 7 later-row
// ones (the backward pass). The minimum of a set, so any order gives RainDistance's values.
TFGPUAUG_VECTOR_CLONES void EarlierRows(const float* __restrict t, int stride, int w,
                                        float* __restrict best) {
  const float hv = 1.f, diag = 1.4f, far = 2.1969f;
  for (int x = 0; x < w; ++x) {
    float v = t[x - 2 * stride - 1] + far;
    v = RainLower(v, t[x - 2 * stride + 1] + far);
    v = RainLower(v, t[x - stride - 2] + far);
    v = RainLower(v, t[x - stride - 1] + diag);
    v = RainLower(v, t[x - stride] + hv);
    v = RainLower(v, t[x - stride + 1] + diag);
    v = RainLower(v, t[x - stride + 2] + far);
    best[x] = v;
  }
}

TFGPUAUG_VECTOR_CLONES void LaterRows(const float* __restrict t, int stride, int w, float* __restrict best) {
  const float hv = 1.f, diag = 1.4f, far = 2.1969f;
  for (int x = 0; x < w; ++x) {
    float v = t[x + 2 * stride + 1] + far;
    v = RainLower(v, t[x + 2 * stride - 1] + far);
    v = RainLower(v, t[x + stride + 2] + far);
    v = RainLower(v, t[x + stride + 1] + diag);
    v = RainLower(v, t[x + stride] + hv);
    v = RainLower(v, t[x + stride - 1] + diag);
    v = RainLower(v, t[x + stride - 2] + far);
    best[x] = v;
  }
}

// RainDistance's result with the rows' neighbour minima vectorised (`best`: w floats).
void DistanceRows(const uint8_t* cls, int h, int w, float* work, float* best, float* out) {
  const int stride = w + 4;
  for (int i = 0; i < (h + 4) * stride; ++i) work[i] = 3.402823466e+38f;
  for (int y = 0; y < h; ++y) {
    float* t = work + size_t(y + 2) * stride + 2;
    EarlierRows(t, stride, w, best);
    const uint8_t* edges = cls + size_t(y) * w;
    for (int x = 0; x < w; ++x) t[x] = edges[x] == 2 ? 0.f : RainLower(best[x], t[x - 1] + 1.f);
  }
  for (int y = h - 1; y >= 0; --y) {
    float* t = work + size_t(y + 2) * stride + 2;
    LaterRows(t, stride, w, best);
    float* d = out + size_t(y) * w;
    for (int x = w - 1; x >= 0; --x) {
      float v = t[x];
      if (v > 1.f) {
        v = RainLower(RainLower(v, best[x]), t[x + 1] + 1.f);
        t[x] = v;
      }
      d[x] = v;
    }
  }
}

// RainSobel's derivatives and |dx| + |dy| for columns [1, w - 1) of a row with rows above and
// below (no edge to replicate there), as integers: vectorised.
TFGPUAUG_VECTOR_CLONES void SobelRow(const uint8_t* __restrict up, const uint8_t* __restrict mid,
                                     const uint8_t* __restrict down, int w, int* __restrict magnitude,
                                     int16_t* __restrict derivatives) {
  for (int x = 1; x + 1 < w; ++x) {
    const int dx = (int(up[x + 1]) + 2 * int(mid[x + 1]) + int(down[x + 1])) -
                   (int(up[x - 1]) + 2 * int(mid[x - 1]) + int(down[x - 1]));
    const int dy = (int(down[x - 1]) + 2 * int(down[x]) + int(down[x + 1])) -
                   (int(up[x - 1]) + 2 * int(up[x]) + int(up[x + 1]));
    magnitude[x] = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
    derivatives[2 * x] = static_cast<int16_t>(dx);
    derivatives[2 * x + 1] = static_cast<int16_t>(dy);
  }
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
// RainDistanceByte of a row eight at a time (clamped to [0, 255], cvtps rounding half to even
// as RoundHalfEvenToUint8 does); returns the columns done.
__attribute__((target("avx2"))) int DistanceBytesAvx2(const float* d, int w, uint8_t* q) {
  const __m256 top = _mm256_set1_ps(255.f), zero = _mm256_setzero_ps();
  int x = 0;
  for (; x + 8 <= w; x += 8) {
    const __m256 v = _mm256_mul_ps(_mm256_loadu_ps(d + x), top);
    StoreLanes8(_mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(v, zero), top)), q + x);
  }
  return x;
}

// RainLevel of a row of blurred liquid zeroed below the cutout, four at a time (the product
// in float64, clamped, truncated by cvttpd as the cast truncates); returns the columns done.
__attribute__((target("avx2"))) int LevelsAvx2(const double* sums, int w, double cutout, uint8_t* level) {
  const __m256d cut = _mm256_set1_pd(cutout), top = _mm256_set1_pd(255.0), zero = _mm256_setzero_pd();
  int x = 0;
  for (; x + 4 <= w; x += 4) {
    const __m256d v = _mm256_loadu_pd(sums + x);
    const __m256d kept = _mm256_blendv_pd(v, zero, _mm256_cmp_pd(v, cut, _CMP_LT_OQ));
    const __m128i lanes =
        _mm256_cvttpd_epi32(_mm256_min_pd(_mm256_max_pd(_mm256_mul_pd(kept, top), zero), top));
    const int packed = _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packus_epi32(lanes, lanes), lanes));
    std::memcpy(level + x, &packed, 4);
  }
  return x;
}
#endif

// RainDistanceByte and RainLevel of a row (the AVX2 loops where the CPU has them).
void DistanceBytes(const float* d, int w, uint8_t* q) {
  int x = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) x = DistanceBytesAvx2(d, w, q);
#endif
  for (; x < w; ++x) q[x] = RainDistanceByte(d[x]);
}

void Levels(const double* sums, int w, double cutout, uint8_t* level) {
  int x = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) x = LevelsAvx2(sums, w, cutout, level);
#endif
  for (; x < w; ++x) level[x] = RainLevel(sums[x] < cutout ? 0.0 : sums[x]);
}

// The 256-bin histogram of n bytes, counted in four tables so runs of one value (most softened
// distances saturate at 255) do not wait on one counter.
void Histogram(const uint8_t* q, size_t n, uint32_t* hist) {
  uint32_t t[4][256] = {};
  size_t e = 0;
  for (; e + 4 <= n; e += 4) {
    ++t[0][q[e]];
    ++t[1][q[e + 1]];
    ++t[2][q[e + 2]];
    ++t[3][q[e + 3]];
  }
  for (; e < n; ++e) ++t[0][q[e]];
  for (int j = 0; j < 256; ++j) hist[j] = t[0][j] + t[1][j] + t[2][j] + t[3][j];
}

}  // namespace

size_t SpatterRainScratchBytes(int h, int w) {
  const size_t n = size_t(h) * w, padded = size_t(w) + kMaxSpatterTaps;
  return (n + padded + w) * sizeof(double) + (4 * n + padded + size_t(h + 4) * (w + 4)) * sizeof(float) +
         n * sizeof(uint32_t) + 3 * n;
}

void SpatterRainCpu(const uint8_t* image, int h, int w, const SpatterRainPlan& plan, uint8_t* scratch,
                    uint8_t* out) {
  const size_t n = size_t(h) * w;
  const SpatterParams& p = plan.params;
  if (p.intensity == 0.0) {  // the sample is left alone: the arithmetic would give back every byte
    std::memcpy(out, image, n * 3);
    return;
  }
  const RainScratch s = Carve(scratch, h, w);
  const int r1 = SpatterReach(plan.taps1, plan.t1);
  const double* c1 = plan.taps1 + plan.t1 / 2;
  // the liquid (as the mud mode), zeroed below the cutout, as bytes
  SpatterLiquidRows(p, plan.seed, plan.taps1, plan.t1, h, w, s.noise, s.padded_row, s.blurred);
  for (int y = 0; y < h; ++y) {
    ColumnsDouble(c1, r1, s.blurred, h, w, y, s.sums);
    Levels(s.sums, w, p.cutout, s.level + size_t(y) * w);
  }
  // Canny's edges
  // (the derivatives kept as 16-bit pairs in the relief's plane for the classes' pass)
  int* magnitude = reinterpret_cast<int*>(s.rows);
  int16_t* derivatives = reinterpret_cast<int16_t*>(s.relief);
  for (int y = 0; y < h; ++y) {
    const size_t row = size_t(y) * w;
    const auto replicated = [&](int x) {  // a pixel whose neighbourhood crosses the image's edge
      int dx, dy;
      RainSobel(s.level, h, w, y, x, &dx, &dy);
      magnitude[row + x] = std::abs(dx) + std::abs(dy);
      derivatives[2 * (row + x)] = static_cast<int16_t>(dx);
      derivatives[2 * (row + x) + 1] = static_cast<int16_t>(dy);
    };
    if (y > 0 && y + 1 < h && w > 2) {
      SobelRow(s.level + row - w, s.level + row, s.level + row + w, w, magnitude + row,
               derivatives + 2 * row);
      replicated(0);
      replicated(w - 1);
    } else {
      for (int x = 0; x < w; ++x) replicated(x);
    }
  }
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const size_t e = size_t(y) * w + x;
      s.cls[e] = RainCannyClass(magnitude, h, w, y, x, derivatives[2 * e], derivatives[2 * e + 1]);
    }
  }
  RainHysteresis(s.cls, h, w, s.stack);
  // the distance to the edges, truncated at 20, softened, as bytes; their histogram
  float* distance = s.noise;
  DistanceRows(s.cls, h, w, s.work, reinterpret_cast<float*>(s.sums), distance);
  for (size_t e = 0; e < n; ++e) distance[e] = distance[e] > 20.f ? 20.f : distance[e];
  float soften[3], smooth[5];
  for (int k = 0; k < 3; ++k) soften[k] = RainSoftenTap(k);
  for (int k = 0; k < 5; ++k) smooth[k] = RainSmoothTap(k);
  BlurRows(soften + 1, 1, distance, h, w, s.padded_f, s.rows);
  float* sums = reinterpret_cast<float*>(s.sums);
  for (int y = 0; y < h; ++y) {
    ColumnsFloat(soften + 1, 1, s.rows, h, w, y, sums);
    DistanceBytes(sums, w, s.q + size_t(y) * w);
  }
  uint32_t hist[256];
  Histogram(s.q, n, hist);
  // equalised, back to [0, 1], the relief, clipped
  uint8_t table[256];
  RainEqualizeTable(hist, static_cast<uint32_t>(n), table);
  float unit[256];  // each table entry / 255, as RainEqualiseKernel divides
  for (int j = 0; j < 256; ++j) unit[j] = float(table[j]) / 255.f;
  for (size_t e = 0; e < n; ++e) s.drops[e] = unit[s.q[e]];
  Relief(s.drops, h, w, s.relief);
  // smoothed, times the liquid's bytes: m, over its peak
  BlurRows(smooth + 2, 2, s.relief, h, w, s.padded_f, s.rows);
  float peak = 0.f;
  for (int y = 0; y < h; ++y) {
    float* m = s.drops + size_t(y) * w;
    ColumnsFloat(smooth + 2, 2, s.rows, h, w, y, m);
    const uint8_t* level = s.level + size_t(y) * w;
    for (int x = 0; x < w; ++x) {
      m[x] = float(level[x]) * m[x];
      peak = std::max(peak, m[x]);
    }
  }
  const float scale = peak > 0.f ? 1.f / peak : 0.f;
  const double strength = p.intensity * 0.9;
  double colour[3];
  for (int k = 0; k < 3; ++k) colour[k] = plan.colour[k] / 255.0;
  for (size_t e = 0; e < n; ++e) s.drops[e] *= scale;
  for (int y = 0; y < h; ++y)
    RainRow(image + size_t(y) * w * 3, s.drops + size_t(y) * w, colour, strength, w, out + size_t(y) * w * 3);
}

}  // namespace tfgpuaug
