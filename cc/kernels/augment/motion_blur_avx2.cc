// Motion blur's rows on AVX2 (the driver, augment_cpu.cc, pads the image reflect-101 so every
// output row's taps are plain pointers): the taps' bytes summed in 16-bit lanes (at most 31
// taps of 255: 7905 fits), then rounded half up as MotionPixel: (2 sum + n) / (2 n), by the
// float division of the scalar loop (a whole quotient is exact, any other at least 1 / (2 n)
// from the next).
#include "cc/kernels/augment/augment_avx2.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS

namespace tfgpuaug {
namespace {

__attribute__((target("avx2"))) inline __m256i QuotientBytes8(__m256i sums16_half, __m256 two, __m256 n,
                                                              __m256 divisor) {
  const __m256 acc =
      _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(sums16_half), two), n);  // 2 sum + n, exact
  return _mm256_cvttps_epi32(_mm256_div_ps(acc, divisor));
}

}  // namespace

__attribute__((target("avx2"))) size_t MotionBlurRowAvx2(const uint8_t* const* taps, int n, size_t row,
                                                         uint8_t* out) {
  const __m256 two = _mm256_set1_ps(2.f), nf = _mm256_set1_ps(float(n)),
               divisor = _mm256_set1_ps(float(2 * n));
  size_t e = 0;
  for (; e + 32 <= row; e += 32) {
    __m256i lo = _mm256_setzero_si256(), hi = _mm256_setzero_si256();  // 16-bit sums of bytes 0..15, 16..31
    for (int i = 0; i < n; ++i) {
      const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(taps[i] + e));
      lo = _mm256_add_epi16(lo, _mm256_cvtepu8_epi16(_mm256_castsi256_si128(bytes)));
      hi = _mm256_add_epi16(hi, _mm256_cvtepu8_epi16(_mm256_extracti128_si256(bytes, 1)));
    }
    const __m256i q0 = QuotientBytes8(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(lo)), two, nf, divisor);
    const __m256i q1 =
        QuotientBytes8(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(lo, 1)), two, nf, divisor);
    const __m256i q2 = QuotientBytes8(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(hi)), two, nf, divisor);
    const __m256i q3 =
        QuotientBytes8(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(hi, 1)), two, nf, divisor);
    // packs interleave the 128-bit halves: words [q0 0-3, q1 0-3 | q0 4-7, q1 4-7], then bytes
    // [q0 0-3, q1 0-3, q2 0-3, q3 0-3 | q0 4-7, ...]; the permute puts them in order.
    const __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(q0, q1), _mm256_packus_epi32(q2, q3));
    const __m256i ordered = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + e), ordered);
  }
  return e;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_HAVE_AVX2_LOOPS
