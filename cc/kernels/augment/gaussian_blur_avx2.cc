// Gaussian blur's two passes on AVX2 with FMA, 32 values a step: the symmetric sums of
// BlurRowSum and BlurPixel (the pair on either side added, then one fused multiply-add a
// distance, outwards from the centre), so the bytes are the per-pixel function's.
#include "cc/kernels/augment/augment_avx2.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS

namespace tfgpuaug {
namespace {

// Eight bytes as int32 lanes (the load folds into the widening shuffle).
__attribute__((target("avx2,fma"))) inline __m256i Ints8(const uint8_t* p) {
  return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}

}  // namespace

__attribute__((target("avx2,fma"))) size_t BlurRowBytesAvx2(const uint8_t* centre, int c, const float* w,
                                                            int r, size_t n, float* out) {
  const __m256 wc = _mm256_set1_ps(w[r]);
  size_t e = 0;
  for (; e + 32 <= n; e += 32) {
    __m256 acc[4];
    for (int i = 0; i < 4; ++i) acc[i] = _mm256_mul_ps(wc, _mm256_cvtepi32_ps(Ints8(centre + e + 8 * i)));
    for (int d = 1; d <= r; ++d) {
      const uint8_t* left = centre + e - size_t(d) * c;
      const uint8_t* right = centre + e + size_t(d) * c;
      const __m256 wd = _mm256_set1_ps(w[r + d]);
      for (int i = 0; i < 4; ++i) {
        const __m256i pair = _mm256_add_epi32(Ints8(left + 8 * i), Ints8(right + 8 * i));  // exact
        acc[i] = _mm256_fmadd_ps(wd, _mm256_cvtepi32_ps(pair), acc[i]);
      }
    }
    for (int i = 0; i < 4; ++i) _mm256_storeu_ps(out + e + 8 * i, acc[i]);
  }
  return e;
}

__attribute__((target("avx2,fma"))) size_t BlurColumnsAvx2(const float* const* rows, const float* w, int r,
                                                           size_t n, uint8_t* out) {
  const __m256 wc = _mm256_set1_ps(w[r]);
  size_t e = 0;
  for (; e + 32 <= n; e += 32) {
    __m256 acc[4];
    for (int i = 0; i < 4; ++i) acc[i] = _mm256_mul_ps(wc, _mm256_loadu_ps(rows[0] + e + 8 * i));
    for (int d = 1; d <= r; ++d) {
      const float* up = rows[2 * d - 1] + e;
      const float* down = rows[2 * d] + e;
      const __m256 wd = _mm256_set1_ps(w[r + d]);
      for (int i = 0; i < 4; ++i)
        acc[i] = _mm256_fmadd_ps(
            wd, _mm256_add_ps(_mm256_loadu_ps(up + 8 * i), _mm256_loadu_ps(down + 8 * i)), acc[i]);
    }
    // packs interleave the 128-bit halves; the permute puts the 32 bytes back in order
    const __m256i words01 = _mm256_packs_epi32(SaturateLanes8(acc[0]), SaturateLanes8(acc[1])),
                  words23 = _mm256_packs_epi32(SaturateLanes8(acc[2]), SaturateLanes8(acc[3]));
    const __m256i bytes = _mm256_packus_epi16(words01, words23);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + e),
                        _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
  }
  return e;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_HAVE_AVX2_LOOPS
