// Motion blur on AVX2 over a reflect-101 padded copy of the image, so the border takes the
// interior's loop (the per-pixel border path was most of the old time, as it was the 5x5
// median's): per output row, the taps' bytes summed in 16-bit lanes (at most 31 taps of 255:
// 7905 fits), then rounded half up as MotionPixel: (2 sum + n) / (2 n), by the float division
// of the scalar loop (a whole quotient is exact, any other at least 1 / (2 n) from the next).
#include "cc/kernels/augment/augment_avx2.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cc/kernels/augment/augment.h"

namespace tfgpuaug {
namespace {

// The image with rx columns and ry rows more on each side, reflected 101 as MotionPixel reads.
void PadReflect101(const uint8_t* src, int h, int w, int c, int ry, int rx, uint8_t* out) {
  const size_t row = size_t(w) * c, padded_row = size_t(w + 2 * rx) * c;
  for (int y = -ry; y < h + ry; ++y) {
    const uint8_t* s = src + size_t(Reflect101(y, h)) * row;
    uint8_t* o = out + size_t(y + ry) * padded_row;
    std::memcpy(o + size_t(rx) * c, s, row);
    for (int x = -rx; x < 0; ++x) std::memcpy(o + size_t(x + rx) * c, s + size_t(Reflect101(x, w)) * c, c);
    for (int x = w; x < w + rx; ++x) std::memcpy(o + size_t(x + rx) * c, s + size_t(Reflect101(x, w)) * c, c);
  }
}

__attribute__((target("avx2"))) inline __m256i QuotientBytes8(__m256i sums16_half, __m256 two, __m256 n,
                                                              __m256 divisor) {
  const __m256 acc =
      _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(sums16_half), two), n);  // 2 sum + n, exact
  return _mm256_cvttps_epi32(_mm256_div_ps(acc, divisor));
}

}  // namespace

__attribute__((target("avx2"))) void MotionBlurAvx2(const uint8_t* src, int h, int w, int c, const int* dx,
                                                    const int* dy, int n, uint8_t* dst) {
  int rx = 0, ry = 0;
  for (int i = 0; i < n; ++i) {
    rx = std::max(rx, std::abs(dx[i]));
    ry = std::max(ry, std::abs(dy[i]));
  }
  const size_t row = size_t(w) * c, padded_row = size_t(w + 2 * rx) * c;
  thread_local std::vector<uint8_t> padded_storage;
  padded_storage.resize(padded_row * size_t(h + 2 * ry));
  uint8_t* padded = padded_storage.data();
  PadReflect101(src, h, w, c, ry, rx, padded);
  const __m256 two = _mm256_set1_ps(2.f), nf = _mm256_set1_ps(float(n)),
               divisor = _mm256_set1_ps(float(2 * n));
  const float scalar_divisor = float(2 * n);
  for (int y = 0; y < h; ++y) {
    const uint8_t* taps[kMaxMotionLength];
    for (int i = 0; i < n; ++i)
      taps[i] = padded + size_t(y + ry + dy[i]) * padded_row + size_t(rx + dx[i]) * c;
    uint8_t* o = dst + size_t(y) * row;
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
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + e), ordered);
    }
    for (; e < row; ++e) {
      int sum = 0;
      for (int i = 0; i < n; ++i) sum += taps[i][e];
      o[e] = static_cast<uint8_t>(static_cast<int>(float(2 * sum + n) / scalar_divisor));
    }
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_HAVE_AVX2_LOOPS
