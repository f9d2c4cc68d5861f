#include "cc/kernels/warp/remap_avx2.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS

#include <cstring>

namespace tfgpuaug {
namespace {

// Channel k of eight gathered little-endian pixels, as floats.
__attribute__((target("avx2"))) inline __m256 Channel(__m256i pixels, int k) {
  return _mm256_cvtepi32_ps(
      _mm256_and_si256(_mm256_srlv_epi32(pixels, _mm256_set1_epi32(8 * k)), _mm256_set1_epi32(0xFF)));
}

// Lerp of warp.h: a + (b - a) t, a multiply then an add (no FMA, as everywhere here).
__attribute__((target("avx2"))) inline __m256 Lerp8(__m256 a, __m256 b, __m256 t) {
  return _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), t));
}

// The bilinear blend of eight pixels from their four taps (c channels packed little-endian in
// each 32-bit lane) at fractions a, b, rounded as RoundHalfEvenToUint8, stored as c bytes each.
__attribute__((target("avx2"))) inline void Blend8(__m256i tl, __m256i tr, __m256i bl, __m256i br, __m256 a,
                                                   __m256 b, int c, uint8_t* out) {
  const __m256 zero = _mm256_setzero_ps();
  const __m256 magic = _mm256_set1_ps(12582912.f), top = _mm256_set1_ps(255.f);
  __m256i packed = _mm256_setzero_si256();
  for (int k = 0; k < c; ++k) {
    const __m256 upper = Lerp8(Channel(tl, k), Channel(tr, k), a);
    const __m256 lower = Lerp8(Channel(bl, k), Channel(br, k), a);
    // RoundHalfEvenToUint8: clamped, then 1.5 * 2^23 added and taken away
    const __m256 v = _mm256_min_ps(_mm256_max_ps(Lerp8(upper, lower, b), zero), top);
    const __m256i level = _mm256_cvttps_epi32(_mm256_sub_ps(_mm256_add_ps(v, magic), magic));
    packed = _mm256_or_si256(packed, _mm256_sllv_epi32(level, _mm256_set1_epi32(8 * k)));
  }
  alignas(32) uint32_t words[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(words), packed);
  if (c == 4) {
    std::memcpy(out, words, 32);
  } else if (c == 3) {
    for (int l = 0; l < 7; ++l)
      std::memcpy(out + 3 * l, words + l, 4);  // the fourth byte: the next pixel's, rewritten
    std::memcpy(out + 21, words + 7, 3);
  } else {
    for (int l = 0; l < 8; ++l) out[l] = static_cast<uint8_t>(words[l]);
  }
}

// A pixel's c bytes (1, 3 or 4) as a little-endian word, reading only those bytes.
inline uint32_t PixelWord(const uint8_t* px, int c) {
  if (c == 4) {
    uint32_t word;
    std::memcpy(&word, px, 4);
    return word;
  }
  if (c == 3) return uint32_t(px[0]) | uint32_t(px[1]) << 8 | uint32_t(px[2]) << 16;
  return px[0];
}

}  // namespace

__attribute__((target("avx2"))) bool RemapBilinear8Avx2(const uint8_t* image, int in_h, int in_w, int c,
                                                        const float* map, uint8_t* out) {
  // x0 y0 x1 y1 x2 y2 x3 y3 | x4 y4 ... -> x0 .. x7 and y0 .. y7
  const __m256 m0 = _mm256_loadu_ps(map), m1 = _mm256_loadu_ps(map + 8);
  const __m256 xs = _mm256_castpd_ps(_mm256_permute4x64_pd(
      _mm256_castps_pd(_mm256_shuffle_ps(m0, m1, _MM_SHUFFLE(2, 0, 2, 0))), _MM_SHUFFLE(3, 1, 2, 0)));
  const __m256 ys = _mm256_castpd_ps(_mm256_permute4x64_pd(
      _mm256_castps_pd(_mm256_shuffle_ps(m0, m1, _MM_SHUFFLE(3, 1, 3, 1))), _MM_SHUFFLE(3, 1, 2, 0)));
  // RemapBilinearCpu's interior test (ordered compares: NaN fails), one row higher below c = 4
  const __m256 zero = _mm256_setzero_ps();
  const float last_row = static_cast<float>(c == 4 ? in_h - 1 : in_h - 2);
  const __m256 inside = _mm256_and_ps(
      _mm256_and_ps(_mm256_cmp_ps(xs, zero, _CMP_GE_OQ),
                    _mm256_cmp_ps(xs, _mm256_set1_ps(static_cast<float>(in_w - 1)), _CMP_LT_OQ)),
      _mm256_and_ps(_mm256_cmp_ps(ys, zero, _CMP_GE_OQ),
                    _mm256_cmp_ps(ys, _mm256_set1_ps(last_row), _CMP_LT_OQ)));
  if (_mm256_movemask_ps(inside) != 0xFF) return false;
  const __m256i x0 = _mm256_cvttps_epi32(xs), y0 = _mm256_cvttps_epi32(ys);  // floors: both >= 0
  const __m256 a = _mm256_sub_ps(xs, _mm256_cvtepi32_ps(x0)), b = _mm256_sub_ps(ys, _mm256_cvtepi32_ps(y0));
  const int stride = in_w * c;
  const __m256i at = _mm256_add_epi32(_mm256_mullo_epi32(y0, _mm256_set1_epi32(stride)),
                                      _mm256_mullo_epi32(x0, _mm256_set1_epi32(c)));
  const int* base = reinterpret_cast<const int*>(image);
  const __m256i right = _mm256_set1_epi32(c), down = _mm256_set1_epi32(stride);
  if (c == 1) {
    // Where the eight taps lie within 15 bytes of the first (near-identity maps: lens
    // distortions, small warps), two 16-byte loads and byte shuffles read what the gathers
    // would (gathers are slow on AMD's cores): the same bytes, each lane's low byte.
    const int first = _mm_cvtsi128_si32(_mm256_castsi256_si128(at));
    const __m256i dx = _mm256_sub_epi32(at, _mm256_set1_epi32(first));
    const __m256i outside = _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_setzero_si256(), dx),
                                            _mm256_cmpgt_epi32(dx, _mm256_set1_epi32(14)));
    if (_mm256_testz_si256(outside, outside) && int64_t{first} + stride + 16 <= int64_t{in_h} * stride) {
      const __m256i upper =
          _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(image + first)));
      const __m256i lower = _mm256_broadcastsi128_si256(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(image + first + stride)));
      const __m256i zeros_above = _mm256_set1_epi32(int(0x80808000u));  // bytes 1-3 of each lane: 0
      const __m256i left = _mm256_or_si256(dx, zeros_above);
      const __m256i next = _mm256_or_si256(_mm256_add_epi32(dx, _mm256_set1_epi32(1)), zeros_above);
      Blend8(_mm256_shuffle_epi8(upper, left), _mm256_shuffle_epi8(upper, next),
             _mm256_shuffle_epi8(lower, left), _mm256_shuffle_epi8(lower, next), a, b, 1, out);
      return true;
    }
    // a pixel's right neighbour is the next byte of the same four: two gathers, not four
    const __m256i top = _mm256_i32gather_epi32(base, at, 1);
    const __m256i bottom = _mm256_i32gather_epi32(base, _mm256_add_epi32(at, down), 1);
    Blend8(top, _mm256_srli_epi32(top, 8), bottom, _mm256_srli_epi32(bottom, 8), a, b, 1, out);
    return true;
  }
  const __m256i tl = _mm256_i32gather_epi32(base, at, 1);
  const __m256i tr = _mm256_i32gather_epi32(base, _mm256_add_epi32(at, right), 1);
  const __m256i bl = _mm256_i32gather_epi32(base, _mm256_add_epi32(at, down), 1);
  const __m256i br = _mm256_i32gather_epi32(base, _mm256_add_epi32(_mm256_add_epi32(at, down), right), 1);
  Blend8(tl, tr, bl, br, a, b, c, out);
  return true;
}

__attribute__((target("avx2"))) int64_t PutRgbChannelAvx2(const uint8_t* plane, int ch, int64_t pixels,
                                                          uint8_t* image) {
  // for each 16 bytes of the 48 that 16 pixels take: where channel ch falls, which plane byte
  __m128i pick[3], where[3];
  for (int part = 0; part < 3; ++part) {
    alignas(16) int8_t index[16], mine[16];
    for (int i = 0; i < 16; ++i) {
      const int q = 16 * part + i - ch;
      const bool ours = q >= 0 && q % 3 == 0;
      index[i] = ours ? static_cast<int8_t>(q / 3) : int8_t(-128);
      mine[i] = ours ? int8_t(-1) : int8_t(0);
    }
    pick[part] = _mm_load_si128(reinterpret_cast<const __m128i*>(index));
    where[part] = _mm_load_si128(reinterpret_cast<const __m128i*>(mine));
  }
  int64_t i = 0;
  for (; i + 16 <= pixels; i += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(plane + i));
    __m128i* dst = reinterpret_cast<__m128i*>(image + 3 * i);
    for (int part = 0; part < 3; ++part) {
      _mm_storeu_si128(dst + part, _mm_blendv_epi8(_mm_loadu_si128(dst + part),
                                                   _mm_shuffle_epi8(bytes, pick[part]), where[part]));
    }
  }
  return i;
}

// RemapPixel's bilinear path on eight lanes: floor (negative coordinates too), BorderIndex per
// tap, the fill where a constant border gives none.
__attribute__((target("avx2"))) bool RemapBilinearBorder8Avx2(const uint8_t* image, const RemapParams& p,
                                                              const float* map, uint8_t* out) {
  alignas(32) float mx[8], my[8];
  alignas(32) uint32_t taps[4][8];
  const int c = p.channels;
  uint32_t fill = 0;
  for (int k = 0; k < c; ++k) fill |= uint32_t(p.fill) << (8 * k);
  for (int l = 0; l < 8; ++l) {
    mx[l] = map[2 * l];
    my[l] = map[2 * l + 1];
    if (!RemapCoordinateUsable(mx[l]) || !RemapCoordinateUsable(my[l])) return false;
    const int x0 = FloorToInt(mx[l]), y0 = FloorToInt(my[l]);
    const int cols[2] = {BorderIndex(x0, p.in_w, p.border), BorderIndex(x0 + 1, p.in_w, p.border)};
    const int rows[2] = {BorderIndex(y0, p.in_h, p.border), BorderIndex(y0 + 1, p.in_h, p.border)};
    for (int t = 0; t < 4; ++t) {
      const int row = rows[t >> 1], col = cols[t & 1];
      uint32_t word = fill;
      if (row >= 0 && col >= 0) {
        word = PixelWord(image + (static_cast<int64_t>(row) * p.in_w + col) * c, c);
      }
      taps[t][l] = word;
    }
  }
  const __m256 xs = _mm256_load_ps(mx), ys = _mm256_load_ps(my);
  const __m256 a = _mm256_sub_ps(xs, _mm256_floor_ps(xs)), b = _mm256_sub_ps(ys, _mm256_floor_ps(ys));
  __m256i tap[4];
  for (int t = 0; t < 4; ++t) tap[t] = _mm256_load_si256(reinterpret_cast<const __m256i*>(taps[t]));
  Blend8(tap[0], tap[1], tap[2], tap[3], a, b, c, out);
  return true;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_HAVE_AVX2_LOOPS
