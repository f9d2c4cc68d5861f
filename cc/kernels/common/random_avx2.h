// The counter-hash uniforms and Box-Muller normals on eight AVX2 lanes, operation for operation
// the scalar functions of counter_hash.h and portable_math.h (which the CUDA kernels run), so the
// CPU's vector loops draw the same bits. CPU only; callers check CpuHasAvx2() first.
#ifndef TFGPUAUG_CC_KERNELS_COMMON_RANDOM_AVX2_H_
#define TFGPUAUG_CC_KERNELS_COMMON_RANDOM_AVX2_H_

#include <cstdint>

#include "cc/kernels/common/portable_math.h"
#include "cc/kernels/common/simd_x86.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS
namespace tfgpuaug {

// HashUniform of counter_hash.h on eight indices.
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

// LogPositive of portable_math.h on eight lanes, operation for operation.
__attribute__((target("avx2"))) inline __m256 LogPositive8(__m256 u) {
  const __m256 one = _mm256_set1_ps(1.f);
  const __m256i bits = _mm256_castps_si256(u);
  __m256i e = _mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(127));
  __m256 m = _mm256_castsi256_ps(
      _mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0x7fffff)), _mm256_set1_epi32(0x3f800000)));
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
  return _mm256_add_ps(_mm256_mul_ps(ef, _mm256_set1_ps(kLn2Hi)),
                       _mm256_add_ps(_mm256_mul_ps(ef, _mm256_set1_ps(kLn2Lo)), p));
}

// GaussianPairFromUniforms of portable_math.h on eight lanes, operation for operation: the
// cosine normals, and the sine ones into *z_sin.
__attribute__((target("avx2"))) inline __m256 GaussianPair8(__m256 u1, __m256 u2, __m256* z_sin) {
  const __m256 one = _mm256_set1_ps(1.f);
  const __m256 log_u1 = LogPositive8(u1);
  // CosSinTurns(u2)
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
  const __m256 negate = _mm256_castsi256_ps(                                // sign bit for quadrants 1 and 2
      _mm256_slli_epi32(_mm256_xor_si256(quadrant, _mm256_srli_epi32(quadrant, 1)), 31));
  const __m256 cos_u2 = _mm256_xor_ps(_mm256_blendv_ps(c, sn, odd), negate);
  // sine: quadrant 0 s, 1 c, 2 -s, 3 -c (negated in quadrants 2 and 3)
  const __m256 sin_negate = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_srli_epi32(quadrant, 1), 31));
  const __m256 sin_u2 = _mm256_xor_ps(_mm256_blendv_ps(sn, c, odd), sin_negate);
  const __m256 r = _mm256_sqrt_ps(_mm256_mul_ps(_mm256_set1_ps(-2.f), log_u1));
  *z_sin = _mm256_mul_ps(r, sin_u2);
  return _mm256_mul_ps(r, cos_u2);
}

// GaussianFromUniforms of portable_math.h on eight lanes (the pair's cosine normals).
__attribute__((target("avx2"))) inline __m256 GaussianFromUniforms8(__m256 u1, __m256 u2) {
  __m256 unused;
  return GaussianPair8(u1, u2, &unused);
}

}  // namespace tfgpuaug
#endif

#endif  // TFGPUAUG_CC_KERNELS_COMMON_RANDOM_AVX2_H_
