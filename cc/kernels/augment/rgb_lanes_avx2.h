// Three interleaved channels of eight pixels to and from 32-bit AVX2 lanes by byte shuffles:
// lanes written one by one and loaded as a vector would stall on store forwarding. Shared by
// the CPU augment loops (CLAHE's L*a*b*, gray, channel shuffle). CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_RGB_LANES_AVX2_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_RGB_LANES_AVX2_H_

#include <cstdint>
#include <cstring>

#include "cc/kernels/common/simd_x86.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS

namespace tfgpuaug {

// Channels 0, 1, 2 of eight 3- or 4-channel pixels as 32-bit lanes, by byte shuffles (lanes
// written one by one and loaded as a vector would stall on store forwarding).
struct ThreeChannels {
  __m128i from_lo[3], from_hi[3];  // shuffles of bytes 0..15 and 16..31 of the eight pixels
  int c;
};

__attribute__((target("avx2"))) inline ThreeChannels ThreeChannelsOf(int c) {
  ThreeChannels t;
  t.c = c;
  for (int k = 0; k < 3; ++k) {
    alignas(16) int8_t lo[16], hi[16];
    for (int l = 0; l < 16; ++l) {
      const int at = l < 8 ? l * c + k : -1;  // lanes 8..15 unused
      lo[l] = static_cast<int8_t>(at >= 0 && at < 16 ? at : -1);
      hi[l] = static_cast<int8_t>(at >= 16 ? at - 16 : -1);
    }
    t.from_lo[k] = _mm_load_si128(reinterpret_cast<const __m128i*>(lo));
    t.from_hi[k] = _mm_load_si128(reinterpret_cast<const __m128i*>(hi));
  }
  return t;
}

// The shuffles for 3- and 4-channel pixels, made once (any other c gets the 3-channel ones,
// which callers use only for 3 or 4 channels).
__attribute__((target("avx2"))) inline const ThreeChannels& ThreeChannelsFor(int c) {
  static const ThreeChannels rgb = ThreeChannelsOf(3), rgba = ThreeChannelsOf(4);
  return c == 4 ? rgba : rgb;
}

__attribute__((target("avx2"))) inline void LoadThree(const ThreeChannels& t, const uint8_t* p, __m256i* v0,
                                                      __m256i* v1, __m256i* v2) {
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i hi = t.c == 4 ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16))
                              : _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + 16));  // 24 bytes in all
  __m256i* out[3] = {v0, v1, v2};
  for (int k = 0; k < 3; ++k)
    *out[k] = _mm256_cvtepu8_epi32(
        _mm_or_si128(_mm_shuffle_epi8(lo, t.from_lo[k]), _mm_shuffle_epi8(hi, t.from_hi[k])));
}

// Eight pixels' three bytes (lanes of v0, v1, v2, each 0..255) interleaved into p[0..23].
__attribute__((target("avx2"))) inline void StoreThree(__m256i v0, __m256i v1, __m256i v2, uint8_t* p) {
  // per 128-bit half: bytes v0[0..3], v1[0..3], v2[0..3], 0 x 4 (the other half: lanes 4..7)
  const __m256i bytes =
      _mm256_packus_epi16(_mm256_packus_epi32(v0, v1), _mm256_packus_epi32(v2, _mm256_setzero_si256()));
  const __m256i order = _mm256_setr_epi8(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, -1, -1, -1, -1, 0, 4, 8, 1, 5,
                                         9, 2, 6, 10, 3, 7, 11, -1, -1, -1, -1);
  const __m256i rgb = _mm256_shuffle_epi8(bytes, order);
  const __m128i first = _mm256_castsi256_si128(rgb), second = _mm256_extracti128_si256(rgb, 1);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), first);  // 12 bytes and 4 the next store replaces
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p + 12), second);
  const int last = _mm_extract_epi32(second, 2);
  std::memcpy(p + 20, &last, 4);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_HAVE_AVX2_LOOPS

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_RGB_LANES_AVX2_H_
