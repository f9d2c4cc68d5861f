// Sharpen and emboss (3x3 relief kernels) on AVX2: each source row is converted to floats once
// (a ring of three rows) instead of nine times, then eight outputs a step. The nine products
// are added to +0 in ReliefPixel's order and rounded and clamped as ReliefRowInterior does, so
// the bytes are the per-pixel function's.
#include "cc/kernels/augment/augment_avx2.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS

#include <algorithm>
#include <vector>

#include "cc/kernels/augment/augment.h"

namespace tfgpuaug {
namespace {

// Row r of the image as floats, from the ring (slot r % 3: the rows y - 1, y and y + 1 of one
// output row never share a slot; the reflected ones at the edges are among them).
__attribute__((target("avx2"))) const float* FloatRow(const uint8_t* src, size_t row, int r, float* ring,
                                                      int* held) {
  float* out = ring + size_t(r % 3) * row;
  if (held[r % 3] == r) return out;
  held[r % 3] = r;
  const uint8_t* in = src + size_t(r) * row;
  size_t e = 0;
  for (; e + 8 <= row; e += 8) _mm256_storeu_ps(out + e, LoadBytes8(in + e));
  for (; e < row; ++e) out[e] = in[e];
  return out;
}

}  // namespace

__attribute__((target("avx2"))) void ReliefInteriorAvx2(const uint8_t* src, int h, int w, int c,
                                                        const float* wt, uint8_t* dst) {
  const size_t row = size_t(w) * c, end = row - size_t(c);
  thread_local std::vector<float> ring_storage;
  ring_storage.resize(3 * row);
  float* ring = ring_storage.data();
  int held[3] = {-1, -1, -1};
  __m256 k[9];
  for (int t = 0; t < 9; ++t) k[t] = _mm256_set1_ps(wt[t]);
  const __m256 round = _mm256_set1_ps(12582912.f);  // 1.5 * 2^23: adding it rounds half to even
  for (int y = 0; y < h; ++y) {
    const float* rows[3] = {FloatRow(src, row, Reflect101(y - 1, h), ring, held),
                            FloatRow(src, row, y, ring, held),
                            FloatRow(src, row, Reflect101(y + 1, h), ring, held)};
    uint8_t* o = dst + size_t(y) * row;
    size_t e = c;
    for (; e + 8 <= end; e += 8) {
      __m256 acc = _mm256_setzero_ps();
      for (int dy = 0; dy < 3; ++dy) {
        const float* p = rows[dy] + e;
        acc = _mm256_add_ps(acc, _mm256_mul_ps(k[3 * dy], _mm256_loadu_ps(p - c)));
        acc = _mm256_add_ps(acc, _mm256_mul_ps(k[3 * dy + 1], _mm256_loadu_ps(p)));
        acc = _mm256_add_ps(acc, _mm256_mul_ps(k[3 * dy + 2], _mm256_loadu_ps(p + c)));
      }
      const __m256i rounded = _mm256_cvttps_epi32(_mm256_sub_ps(_mm256_add_ps(acc, round), round));
      const __m256i words = _mm256_packus_epi32(rounded, rounded);  // clamps below 0
      const __m256i bytes = _mm256_packus_epi16(words, words);      // and above 255
      const __m256i both = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(o + e), _mm256_castsi256_si128(both));
    }
    for (; e < end; ++e) {
      float acc = 0.f;
      for (int dy = 0; dy < 3; ++dy)
        for (int dx = -1; dx <= 1; ++dx) acc += wt[3 * dy + dx + 1] * rows[dy][e + dx * c];
      o[e] = RoundThenClampToUint8(acc);
    }
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_HAVE_AVX2_LOOPS
