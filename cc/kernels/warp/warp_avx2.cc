#include "cc/kernels/warp/warp_avx2.h"

#include <cstring>

#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {

#if TFGPUAUG_HAVE_AVX2_LOOPS
namespace {

#define TFGPUAUG_AVX2 __attribute__((target("avx2")))

// Lerp(a, b, t) = a + (b - a) * t, lane by lane.
TFGPUAUG_AVX2 inline __m256 Lerp8(__m256 a, __m256 b, __m256 t) {
  return _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), t));
}

// FloorToInt lane by lane: truncate, then step down where truncation rounded up.
TFGPUAUG_AVX2 inline __m256i FloorToInt8(__m256 v) {
  const __m256i t = _mm256_cvttps_epi32(v);
  const __m256 rounded_up = _mm256_cmp_ps(v, _mm256_cvtepi32_ps(t), _CMP_LT_OQ);
  return _mm256_add_epi32(t, _mm256_castps_si256(rounded_up));  // true lanes are -1
}

// Byte k of every 32-bit lane, as floats.
template <int k>
TFGPUAUG_AVX2 inline __m256 ByteAsFloat(__m256i v) {
  return _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(v, 8 * k), _mm256_set1_epi32(0xff)));
}

// Four bytes at image + offset[i] in lane i. Scalar loads: AVX2 gathers are microcoded
// and several times slower on CPUs with the Gather Data Sampling mitigation.
TFGPUAUG_AVX2 inline __m256i Load8(const uint8_t* image, __m256i offsets) {
  alignas(32) int o[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(o), offsets);
  int v[8];
  for (int i = 0; i < 8; ++i) std::memcpy(&v[i], image + o[i], 4);
  return _mm256_setr_epi32(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
}

template <int C>
TFGPUAUG_AVX2 inline __m256i TimesChannels(__m256i v) {
  if (C == 4) return _mm256_slli_epi32(v, 2);
  if (C == 3) return _mm256_add_epi32(_mm256_slli_epi32(v, 1), v);
  return v;
}

// Channel k of eight bilinear samples from the four loaded neighbours, rounded as
// RoundBlend, placed in byte k of each lane.
template <int k>
TFGPUAUG_AVX2 inline __m256i BlendChannel(__m256i aa, __m256i ab, __m256i ba, __m256i bb, __m256 dx,
                                          __m256 dy) {
  const __m256 top = Lerp8(ByteAsFloat<k>(aa), ByteAsFloat<k>(ab), dx);
  const __m256 bottom = Lerp8(ByteAsFloat<k>(ba), ByteAsFloat<k>(bb), dx);
  const __m256 v = _mm256_add_ps(Lerp8(top, bottom, dy), _mm256_set1_ps(0.5f));
  return _mm256_slli_epi32(_mm256_cvttps_epi32(v), 8 * k);
}

// Stores the first C bytes of each of the eight 32-bit lanes, packed, at o.
template <int C>
TFGPUAUG_AVX2 inline void StorePixels8(__m256i px, uint8_t* o) {
  if (C == 4) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), px);
    return;
  }
  const __m256i pack = C == 3 ? _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1,
                                                 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1)
                              : _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                 0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  alignas(32) uint8_t packed[32];
  _mm256_store_si256(reinterpret_cast<__m256i*>(packed), _mm256_shuffle_epi8(px, pack));
  std::memcpy(o, packed, 4 * C);
  std::memcpy(o + 4 * C, packed + 16, 4 * C);
}

template <int C>
TFGPUAUG_AVX2 void WarpBilinearAvx2(const uint8_t* image, const AffineParams& p, const float* matrix,
                                    uint8_t* out) {
  const float m[6] = {matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5]};
  const __m256 m0 = _mm256_set1_ps(m[0]), m2 = _mm256_set1_ps(m[2]);
  const __m256 m3 = _mm256_set1_ps(m[3]), m5 = _mm256_set1_ps(m[5]);
  const __m256 half = _mm256_set1_ps(0.5f), zero = _mm256_setzero_ps();
  const __m256 w = _mm256_set1_ps(static_cast<float>(p.in_w));
  const __m256 h = _mm256_set1_ps(static_cast<float>(p.in_h));
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), one = _mm256_set1_epi32(1);
  const __m256i last_x = _mm256_set1_epi32(p.in_w - 1), last_y = _mm256_set1_epi32(p.in_h - 1);
  const __m256i row_bytes = _mm256_set1_epi32(p.in_w * C);
  // Load8 reads 4 bytes per pixel: a group whose furthest load would pass the end of the
  // image (only near the last pixel, for C < 4) takes the per-pixel function instead.
  const long bytes = long(p.in_h) * p.in_w * C;
  const __m256i last_load = _mm256_set1_epi32(bytes >= 4 ? int(bytes - 4) : -1);
  const uint8_t fill = SaturateToUint8(p.fill);
  const __m256i fill_px = _mm256_set1_epi32(int(fill * 0x01010101u));
  for (int y = 0; y < p.out_h; ++y) {
    const float yo = y + 0.5f;
    // AffineCoordinate(a, b, c, xo, yo) = (a * xo + b * yo) + c; b * yo is the same for
    // the whole row, so it is the same product the per-pixel code computes.
    const __m256 x_from_y = _mm256_set1_ps(m[1] * yo), y_from_y = _mm256_set1_ps(m[4] * yo);
    uint8_t* row = out + size_t(y) * p.out_w * C;
    int x = 0;
    for (; x + 8 <= p.out_w; x += 8) {
      const __m256 xo = _mm256_add_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(x), lane)), half);
      __m256 xin = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(m0, xo), x_from_y), m2);
      __m256 yin = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(m3, xo), y_from_y), m5);
      const __m256 inside = _mm256_and_ps(
          _mm256_and_ps(_mm256_cmp_ps(xin, zero, _CMP_GE_OQ), _mm256_cmp_ps(xin, w, _CMP_LT_OQ)),
          _mm256_and_ps(_mm256_cmp_ps(yin, zero, _CMP_GE_OQ), _mm256_cmp_ps(yin, h, _CMP_LT_OQ)));
      if (_mm256_movemask_ps(inside) == 0) {
        std::memset(row + x * C, fill, 8 * C);
        continue;
      }
      xin = _mm256_sub_ps(xin, half);
      yin = _mm256_sub_ps(yin, half);
      const __m256i x0 = FloorToInt8(xin), y0 = FloorToInt8(yin);
      const __m256 dx = _mm256_sub_ps(xin, _mm256_cvtepi32_ps(x0));
      const __m256 dy = _mm256_sub_ps(yin, _mm256_cvtepi32_ps(y0));
      // LowNeighbour / HighNeighbour; outside lanes read pixel 0 and are replaced by fill.
      const __m256i in = _mm256_castps_si256(inside);
      const __m256i xa = _mm256_and_si256(in, _mm256_max_epi32(x0, _mm256_setzero_si256()));
      const __m256i xb = _mm256_and_si256(in, _mm256_min_epi32(_mm256_add_epi32(x0, one), last_x));
      const __m256i ya = _mm256_and_si256(in, _mm256_max_epi32(y0, _mm256_setzero_si256()));
      const __m256i yb = _mm256_and_si256(in, _mm256_min_epi32(_mm256_add_epi32(y0, one), last_y));
      const __m256i ra = _mm256_mullo_epi32(ya, row_bytes), rb = _mm256_mullo_epi32(yb, row_bytes);
      const __m256i ca = TimesChannels<C>(xa), cb = TimesChannels<C>(xb);
      const __m256i bb_offset = _mm256_add_epi32(rb, cb);  // the furthest of the four
      if (_mm256_movemask_epi8(_mm256_cmpgt_epi32(bb_offset, last_load)) != 0) {
        for (int i = x; i < x + 8; ++i)
          AffineSamplePixelT<C, Interpolation::kBilinear>(image, p, m, y, i, row + i * C);
        continue;
      }
      const __m256i aa = Load8(image, _mm256_add_epi32(ra, ca));
      const __m256i ab = Load8(image, _mm256_add_epi32(ra, cb));
      const __m256i ba = Load8(image, _mm256_add_epi32(rb, ca));
      const __m256i bb = Load8(image, bb_offset);
      __m256i px = BlendChannel<0>(aa, ab, ba, bb, dx, dy);
      if (C >= 3) {
        px = _mm256_or_si256(px, BlendChannel<1>(aa, ab, ba, bb, dx, dy));
        px = _mm256_or_si256(px, BlendChannel<2>(aa, ab, ba, bb, dx, dy));
      }
      if (C == 4) px = _mm256_or_si256(px, BlendChannel<3>(aa, ab, ba, bb, dx, dy));
      StorePixels8<C>(_mm256_blendv_epi8(fill_px, px, in), row + x * C);
    }
    for (; x < p.out_w; ++x) AffineSamplePixelT<C, Interpolation::kBilinear>(image, p, m, y, x, row + x * C);
  }
}

#undef TFGPUAUG_AVX2

}  // namespace
#endif  // TFGPUAUG_HAVE_AVX2_LOOPS

bool WarpAffineBilinearAvx2(const uint8_t* image, const AffineParams& p, const float* m, uint8_t* out) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (p.interpolation != Interpolation::kBilinear || !CpuHasAvx2()) return false;
  switch (p.channels) {
    case 1:
      WarpBilinearAvx2<1>(image, p, m, out);
      return true;
    case 3:
      WarpBilinearAvx2<3>(image, p, m, out);
      return true;
    case 4:
      WarpBilinearAvx2<4>(image, p, m, out);
      return true;
    default:
      return false;
  }
#else
  (void)image, (void)p, (void)m, (void)out;
  return false;
#endif
}

}  // namespace tfgpuaug
