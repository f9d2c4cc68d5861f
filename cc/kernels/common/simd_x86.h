// SSE2 helpers (baseline x86-64) for CPU loops that process the channels of one pixel as
// four float lanes. Each lane runs the same IEEE operations, in the same order, as the
// scalar inline math the CUDA kernels run, so results are bit-identical to it. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_COMMON_SIMD_X86_H_
#define TFGPUAUG_CC_KERNELS_COMMON_SIMD_X86_H_

#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#define TFGPUAUG_HAVE_SSE2 1
#else
#define TFGPUAUG_HAVE_SSE2 0
#endif

// Hot loops get an AVX2 clone picked at load time on CPUs that have it; the default build
// stays baseline x86-64 so the library runs everywhere. Contraction is off (build flags),
// so both clones round every multiply and add alike: results do not depend on the CPU.
// Not under ThreadSanitizer: a clone's resolver runs while the library is relocated, before
// the TSan runtime is set up, and an instrumented resolver crashes the load.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
#define TFGPUAUG_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TFGPUAUG_VECTOR_CLONES
#endif

// Hand-written AVX2 loops (target("avx2") functions picked at run time by CpuHasAvx2).
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TFGPUAUG_HAVE_AVX2_LOOPS 1
#else
#define TFGPUAUG_HAVE_AVX2_LOOPS 0
#endif

namespace tfgpuaug {

#if TFGPUAUG_HAVE_AVX2_LOOPS
// Whether this CPU runs the AVX2 loops. TFGPUAUG_DISABLE_AVX2 forces the baseline loops,
// so tests can compare the two paths bit for bit.
inline bool CpuHasAvx2() {
  static const bool has = __builtin_cpu_supports("avx2") && std::getenv("TFGPUAUG_DISABLE_AVX2") == nullptr;
  return has;
}

// Whether this CPU also has FMA (every AVX2 CPU but a few early VIA ones), for loops whose
// per-pixel math uses fmaf; TFGPUAUG_DISABLE_AVX2 turns those off too.
inline bool CpuHasAvx2Fma() {
  static const bool has = CpuHasAvx2() && __builtin_cpu_supports("fma");
  return has;
}

// AVX-512 loops (target functions picked at run time by CpuHasAvx512Vbmi).
#define TFGPUAUG_AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi")))

// Whether this CPU also runs the AVX-512 VBMI loops (byte permutes over 128-byte tables: Intel
// Ice Lake and later, AMD Zen 4 and later). TFGPUAUG_DISABLE_AVX512 keeps the AVX2 loops, so
// tests can compare the two bit for bit; TFGPUAUG_DISABLE_AVX2 turns these off too. GCC's and
// clang's feature tests include the operating system's saving of the AVX-512 registers.
inline bool CpuHasAvx512Vbmi() {
  static const bool has = CpuHasAvx2() && __builtin_cpu_supports("avx512f") &&
                          __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi") &&
                          std::getenv("TFGPUAUG_DISABLE_AVX512") == nullptr;
  return has;
}

// Eight bytes at p as eight floats.
__attribute__((target("avx2"))) inline __m256 LoadBytes8(const uint8_t* p) {
  return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}

// Eight int32 lanes already in 0..255 stored as eight bytes.
__attribute__((target("avx2"))) inline void StoreLanes8(__m256i q, uint8_t* dst) {
  q = _mm256_packus_epi16(_mm256_packs_epi32(q, q), q);  // bytes 0-3 and 16-19
  const uint32_t first = uint32_t(_mm256_cvtsi256_si32(q));
  const uint32_t second = uint32_t(_mm_cvtsi128_si32(_mm256_extracti128_si256(q, 1)));
  const uint64_t both = uint64_t(first) | (uint64_t(second) << 32);
  std::memcpy(dst, &both, 8);
}

// SaturateToUint8 on eight lanes (clamp to [0, 255], add 0.5, truncate), as int32 lanes.
__attribute__((target("avx2"))) inline __m256i SaturateLanes8(__m256 v) {
  const __m256 clamped = _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(255.f));
  return _mm256_cvttps_epi32(_mm256_add_ps(clamped, _mm256_set1_ps(0.5f)));
}
#endif

#if TFGPUAUG_HAVE_SSE2
// Four bytes from p as floats. For an RGB pixel, lane 3 is the next pixel's first byte:
// callers make sure p + 3 is inside the buffer and never store that lane.
inline __m128 LoadPixel4(const uint8_t* p) {
  int v;
  std::memcpy(&v, p, 4);
  const __m128i zero = _mm_setzero_si128();
  return _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(v), zero), zero));
}

// Lerp(a, b, t) = a + (b - a) * t, lane by lane.
inline __m128 Lerp4(__m128 a, __m128 b, __m128 t) { return _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(b, a), t)); }

// Truncates lanes already in [0, 256) to bytes and stores the first `c` (3 or 4).
inline void StoreTruncated(__m128 v, int c, uint8_t* o) {
  __m128i q = _mm_cvttps_epi32(v);
  q = _mm_packus_epi16(_mm_packs_epi32(q, q), q);
  const int bytes = _mm_cvtsi128_si32(q);
  std::memcpy(o, &bytes, c == 4 ? 4 : 3);
}
#endif

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_SIMD_X86_H_
