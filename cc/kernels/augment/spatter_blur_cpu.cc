#include "cc/kernels/augment/spatter_blur_cpu.h"

#include <algorithm>
#include <cstdint>

#include "cc/kernels/common/simd_x86.h"
#include "cc/kernels/warp/elastic_maps_cpu.h"

namespace tfgpuaug {
namespace {

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

}  // namespace

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

void SpatterLiquidRows(const SpatterParams& p, uint32_t seed, const double* taps, int t, int h, int w,
                       float* noise, double* padded, double* blurred) {
  const int r = SpatterReach(taps, t);
  ElasticNoiseCpu(seed, static_cast<uint32_t>(size_t(h) * w), true, noise);
  for (int y = 0; y < h; ++y) {
    const float* z = noise + size_t(y) * w;
    double* row = padded + r;
    for (int x = 0; x < w; ++x) row[x] = p.mean + p.std * double(z[x]);
    PadEnds(row, w, r);
    BlurPaddedRowDouble(taps + t / 2, r, padded, w, blurred + size_t(y) * w);
  }
}

}  // namespace tfgpuaug
