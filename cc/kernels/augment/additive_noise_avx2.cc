#include "cc/kernels/augment/additive_noise_avx2.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS
#include "cc/kernels/augment/augment.h"
#include "cc/kernels/common/random_avx2.h"

namespace tfgpuaug {
namespace {

// StandardNoise of values first .. first + 15 (first even), in order, into z[0] and z[1].
__attribute__((target("avx2"))) inline void StandardNoise16(NoiseFamily family, uint32_t seed, uint32_t first,
                                                            __m256* z) {
  if (family == NoiseFamily::kNormal) {  // eight Box-Muller pairs: cosine to even values, sine to odd
    const __m256i pairs =
        _mm256_add_epi32(_mm256_set1_epi32(int(first)), _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14));
    __m256 z_sin;
    const __m256 z_cos = GaussianPair8(
        HashUniform8(seed, pairs), HashUniform8(seed, _mm256_add_epi32(pairs, _mm256_set1_epi32(1))), &z_sin);
    const __m256 lo = _mm256_unpacklo_ps(z_cos, z_sin), hi = _mm256_unpackhi_ps(z_cos, z_sin);
    z[0] = _mm256_permute2f128_ps(lo, hi, 0x20);
    z[1] = _mm256_permute2f128_ps(lo, hi, 0x31);
    return;
  }
  const __m256 one = _mm256_set1_ps(1.f), two = _mm256_set1_ps(2.f), half = _mm256_set1_ps(0.5f);
  for (int h = 0; h < 2; ++h) {
    const __m256i index =
        _mm256_add_epi32(_mm256_set1_epi32(int(first + 8 * h)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256 u = HashUniform8(seed, index);
    if (family == NoiseFamily::kUniform) {
      z[h] = _mm256_sub_ps(_mm256_mul_ps(two, u), one);
      continue;
    }
    const __m256 low = _mm256_cmp_ps(u, half, _CMP_LT_OQ);
    const __m256 arg =
        _mm256_blendv_ps(_mm256_sub_ps(two, _mm256_mul_ps(two, u)), _mm256_mul_ps(two, u), low);
    const __m256 log = LogPositive8(arg);
    z[h] = _mm256_blendv_ps(_mm256_xor_ps(log, _mm256_set1_ps(-0.f)), log, low);
  }
}

// NoiseAddedByte on eight bytes: noise held within +-512 (NaN: 0), truncated, added, saturated.
__attribute__((target("avx2"))) inline void AddNoise8(const uint8_t* src, __m256 noise, uint8_t* dst) {
  noise = _mm256_and_ps(noise, _mm256_cmp_ps(noise, noise, _CMP_ORD_Q));
  noise = _mm256_min_ps(_mm256_max_ps(noise, _mm256_set1_ps(-512.f)), _mm256_set1_ps(512.f));
  const __m256i bytes = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(src)));
  __m256i sum = _mm256_add_epi32(bytes, _mm256_cvttps_epi32(noise));
  StoreLanes8(_mm256_min_epi32(_mm256_max_epi32(sum, _mm256_setzero_si256()), _mm256_set1_epi32(255)), dst);
}

}  // namespace

__attribute__((target("avx2"))) void AdditiveNoiseAvx2(int op, uint32_t seed, float scale, float location,
                                                       const uint8_t* src, size_t n, int c, uint8_t* dst) {
  const NoiseFamily family = AdditiveNoiseFamily(op);
  const bool shared = AdditiveNoiseShared(op);
  const size_t values = shared ? n : n * size_t(c);
  const __m256 scale8 = _mm256_set1_ps(scale), location8 = _mm256_set1_ps(location);
  size_t i = 0;
  for (; i + 16 <= values; i += 16) {
    __m256 z[2];
    StandardNoise16(family, seed, uint32_t(i), z);
    __m256 noise[2];
    for (int h = 0; h < 2; ++h) noise[h] = _mm256_add_ps(location8, _mm256_mul_ps(scale8, z[h]));
    if (!shared) {
      AddNoise8(src + i, noise[0], dst + i);
      AddNoise8(src + i + 8, noise[1], dst + i + 8);
      continue;
    }
    float held[16];
    _mm256_storeu_ps(held, noise[0]);
    _mm256_storeu_ps(held + 8, noise[1]);
    for (int p = 0; p < 16; ++p)
      for (int k = 0; k < c; ++k) dst[(i + p) * c + k] = NoiseAddedByte(src[(i + p) * c + k], held[p]);
  }
  if (shared) {
    for (; i < n; ++i)
      AdditiveNoisePixel(op, seed, uint32_t(i), scale, location, src + i * c, c, dst + i * c);
    return;
  }
  for (; i < values; ++i)
    dst[i] = NoiseAddedByte(src[i], location + scale * StandardNoise(family, seed, uint32_t(i)));
}

}  // namespace tfgpuaug
#endif
