#include "cc/kernels/augment/box_blur_cpu.h"

#include <vector>

#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

// BoxBlurPixel's quotient (2 sum + n) / (2 n) through a float reciprocal: the exact quotient is
// never within 1 / (2 n) of a whole number (n is odd), far beyond float's error for these sums.
inline uint8_t BoxQuotient(uint32_t sum, int n, float inverse) {
  return static_cast<uint8_t>(static_cast<int>(float(2 * sum + uint32_t(n)) * inverse));
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
// One output row, 16 bytes a step: the window's column sums (16-bit: at most 15 x 15 x 255)
// added `side` taps apart by c, then BoxQuotient's float arithmetic on 32-bit lanes. Returns
// the bytes done (row rounded down to 16).
__attribute__((target("avx2"))) size_t BoxRowAvx2(const uint16_t* columns, int c, int side, size_t row, int n,
                                                  float inverse, uint8_t* out) {
  const __m256i bias = _mm256_set1_epi32(n);
  const __m256 scale = _mm256_set1_ps(inverse);
  size_t e = 0;
  for (; e + 16 <= row; e += 16) {
    __m256i acc = _mm256_setzero_si256();
    for (int dx = 0; dx < side; ++dx)
      acc = _mm256_add_epi16(acc, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(columns + e + dx * c)));
    __m256i q[2];
    for (int half = 0; half < 2; ++half) {
      const __m256i sum =
          _mm256_cvtepu16_epi32(half ? _mm256_extracti128_si256(acc, 1) : _mm256_castsi256_si128(acc));
      const __m256 value = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_slli_epi32(sum, 1), bias));
      q[half] = _mm256_cvttps_epi32(_mm256_mul_ps(value, scale));
    }
    // words [q0 0-3, q1 0-3 | q0 4-7, q1 4-7]: the permute restores the order, then bytes
    const __m256i words = _mm256_permute4x64_epi64(_mm256_packus_epi32(q[0], q[1]), 0xD8);
    const __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + e), bytes);
  }
  return e;
}
#endif

}  // namespace

void BoxBlurCpu(const uint8_t* src, const AugmentImage& image_info, int side, uint8_t* dst) {
  const int h = image_info.h, w = image_info.w, c = image_info.c, r = side / 2, n = side * side;
  const size_t row = size_t(w) * c, padded_row = size_t(w + 2 * r) * c;
  thread_local std::vector<uint16_t> columns_storage;
  thread_local std::vector<uint32_t> sums;
  columns_storage.assign(padded_row, 0);
  sums.resize(row);
  // The sums of the window's rows per byte (16-bit: at most 15 x 255), kept in a row padded by r
  // pixels each side: the interior follows the rows entering and leaving the window (reflected
  // at the top and bottom), the border is the interior's reflection (the sums of reflected
  // columns), so no padded copy of the image is made.
  uint16_t* __restrict columns = columns_storage.data();
  uint16_t* __restrict interior = columns + size_t(r) * c;
  auto source_row = [&](int y) { return src + size_t(Reflect101(y, h)) * row; };
  for (int dy = -r; dy < r; ++dy) {
    const uint8_t* __restrict in = source_row(dy);
    for (size_t e = 0; e < row; ++e) interior[e] += in[e];
  }
  const float inverse = 1.f / float(2 * n);
#if TFGPUAUG_HAVE_AVX2_LOOPS
  const bool avx2 = CpuHasAvx2();
#endif
  for (int y = 0; y < h; ++y) {
    const uint8_t* __restrict entering = source_row(y + r);
    for (size_t e = 0; e < row; ++e) interior[e] += entering[e];
    for (int x = 1; x <= r; ++x) {
      for (int k = 0; k < c; ++k) {
        columns[size_t(r - x) * c + k] = interior[size_t(Reflect101(-x, w)) * c + k];
        columns[size_t(r + w - 1 + x) * c + k] = interior[size_t(Reflect101(w - 1 + x, w)) * c + k];
      }
    }
    uint8_t* o = dst + size_t(y) * row;
    size_t done = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (avx2) done = BoxRowAvx2(columns, c, side, row, n, inverse, o);
#endif
    // the rest (all of the row without AVX2) in flat loops, one tap over the row at a time
    uint32_t* __restrict acc = sums.data();
    for (size_t e = done; e < row; ++e) acc[e] = 0;
    for (int dx = 0; dx < side; ++dx) {
      const uint16_t* __restrict tap = columns + size_t(dx) * c;
      for (size_t e = done; e < row; ++e) acc[e] += tap[e];
    }
    for (size_t e = done; e < row; ++e) o[e] = BoxQuotient(acc[e], n, inverse);
    const uint8_t* __restrict leaving = source_row(y - r);
    for (size_t e = 0; e < row; ++e) interior[e] -= leaving[e];
  }
}

}  // namespace tfgpuaug
