#include "cc/kernels/resample/row_sums.h"

#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

template <typename In>
void AccumulateRow(const In* row, float w, size_t n, float* acc) {
  for (size_t e = 0; e < n; ++e) acc[e] += w * static_cast<float>(row[e]);
}

// The first tap: acc = w * row (see WeightedRowSum on the sign of a zero).
template <typename In>
void FirstRow(const In* row, float w, size_t n, float* acc) {
  for (size_t e = 0; e < n; ++e) acc[e] = w * static_cast<float>(row[e]);
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
__attribute__((target("avx2"))) inline __m256 Load8(const uint8_t* p) { return LoadBytes8(p); }
__attribute__((target("avx2"))) inline __m256 Load8(const float* p) { return _mm256_loadu_ps(p); }

// 32 elements in registers through all taps: acc is written once instead of read and written
// per tap. Each element gets the same multiplies and adds, in the same order, as FirstRow then
// AccumulateRow (no fused multiply-add).
template <typename In>
__attribute__((target("avx2"))) void WeightedRowSumAvx2(const In* const* rows, const float* w, int taps,
                                                        size_t n, float* acc) {
  size_t e = 0;
  for (; e + 32 <= n; e += 32) {
    const __m256 w0 = _mm256_set1_ps(w[0]);
    __m256 a0 = _mm256_mul_ps(w0, Load8(rows[0] + e));
    __m256 a1 = _mm256_mul_ps(w0, Load8(rows[0] + e + 8));
    __m256 a2 = _mm256_mul_ps(w0, Load8(rows[0] + e + 16));
    __m256 a3 = _mm256_mul_ps(w0, Load8(rows[0] + e + 24));
    for (int t = 1; t < taps; ++t) {
      const __m256 wt = _mm256_set1_ps(w[t]);
      const In* r = rows[t] + e;
      a0 = _mm256_add_ps(a0, _mm256_mul_ps(wt, Load8(r)));
      a1 = _mm256_add_ps(a1, _mm256_mul_ps(wt, Load8(r + 8)));
      a2 = _mm256_add_ps(a2, _mm256_mul_ps(wt, Load8(r + 16)));
      a3 = _mm256_add_ps(a3, _mm256_mul_ps(wt, Load8(r + 24)));
    }
    _mm256_storeu_ps(acc + e, a0);
    _mm256_storeu_ps(acc + e + 8, a1);
    _mm256_storeu_ps(acc + e + 16, a2);
    _mm256_storeu_ps(acc + e + 24, a3);
  }
  for (; e + 8 <= n; e += 8) {
    __m256 a = _mm256_mul_ps(_mm256_set1_ps(w[0]), Load8(rows[0] + e));
    for (int t = 1; t < taps; ++t)
      a = _mm256_add_ps(a, _mm256_mul_ps(_mm256_set1_ps(w[t]), Load8(rows[t] + e)));
    _mm256_storeu_ps(acc + e, a);
  }
  for (; e < n; ++e) {
    float a = w[0] * static_cast<float>(rows[0][e]);
    for (int t = 1; t < taps; ++t) a += w[t] * static_cast<float>(rows[t][e]);
    acc[e] = a;
  }
}
#endif

}  // namespace

template <typename In>
void WeightedRowSum(const In* const* rows, const float* w, int taps, size_t n, float* acc) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) return WeightedRowSumAvx2(rows, w, taps, n, acc);
#endif
  FirstRow(rows[0], w[0], n, acc);
  for (int t = 1; t < taps; ++t) AccumulateRow(rows[t], w[t], n, acc);
}

template void WeightedRowSum<uint8_t>(const uint8_t* const*, const float*, int, size_t, float*);
template void WeightedRowSum<float>(const float* const*, const float*, int, size_t, float*);

}  // namespace tfgpuaug
