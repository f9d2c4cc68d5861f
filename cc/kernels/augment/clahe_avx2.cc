#include "cc/kernels/augment/clahe_avx2.h"

#include "cc/kernels/augment/clahe_avx512.h"
#include "cc/kernels/augment/rgb_lanes_avx2.h"
#include "cc/kernels/common/word_table_avx512.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS

#include <algorithm>
#include <cstring>
#include <vector>

namespace tfgpuaug {
namespace {

// The L*a*b* tables as the loops below read them: 32-bit words, and bytes for the last step.
struct WideLabTables {
  int gamma[256], cbrt[3072];
  uint8_t gamma_bytes[2 * 256];  // gamma as byte planes, for the AVX-512 permutes
  int light[256];                // Y << 16 | f(Y): one lookup for both
  uint8_t inv_gamma_byte[4096];  // InvGamma saturated to a byte
};

const WideLabTables& Wide() {
  static const WideLabTables tables = [] {
    WideLabTables t;
    for (int i = 0; i < 256; ++i) {
      t.gamma[i] = lab_detail::Gamma(i);
      t.light[i] = lab_detail::LightnessY(i) << 16 | lab_detail::LightnessF(i);
    }
    for (int i = 0; i < 3072; ++i) t.cbrt[i] = lab_detail::Cbrt(i);
    TableBytePlanes(t.gamma, 2, t.gamma_bytes);  // Gamma fits 16 bits
    for (int i = 0; i < 4096; ++i) t.inv_gamma_byte[i] = lab_detail::Saturate(lab_detail::InvGamma(i));
    return t;
  }();
  return tables;
}

#define TFGPUAUG_AVX2 __attribute__((target("avx2"))) inline

TFGPUAUG_AVX2 __m256i Mul(__m256i a, int b) { return _mm256_mullo_epi32(a, _mm256_set1_epi32(b)); }
TFGPUAUG_AVX2 __m256i Add(__m256i a, __m256i b) { return _mm256_add_epi32(a, b); }
TFGPUAUG_AVX2 __m256i AddConst(__m256i a, int b) { return _mm256_add_epi32(a, _mm256_set1_epi32(b)); }
TFGPUAUG_AVX2 __m256i Clamp(__m256i v, int lo, int hi) {
  return _mm256_min_epi32(_mm256_max_epi32(v, _mm256_set1_epi32(lo)), _mm256_set1_epi32(hi));
}
// lab_detail::Descale: rounded at bit N by an arithmetic shift.
template <int N>
TFGPUAUG_AVX2 __m256i Descale(__m256i x) {
  return _mm256_srai_epi32(AddConst(x, 1 << (N - 1)), N);
}

// lab_detail::XzFromF on eight lanes. The linear branch's f * 108 / 841 (C division, toward
// zero) is f times the float 108/841, truncated: the product is within 2^-22 of f * 108 / 841
// relative, less than 1/1700 here, and a quotient that is not whole is at least 1/841 from the
// next whole number; checked for every f the conversion reaches (tests/test_clahe.py). A multiply
// where a divide was: `perf` put a quarter of this loop's samples at the divide on Zen 3.
TFGPUAUG_AVX2 __m256i XzFromF(__m256i f) {
  const __m256 q = _mm256_mul_ps(_mm256_cvtepi32_ps(f), _mm256_set1_ps(108.f / 841.f));
  const __m256i linear = AddConst(_mm256_cvttps_epi32(q), -290);
  const __m256i cube =
      _mm256_srai_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(_mm256_mullo_epi32(f, f), 14), f), 14);
  return _mm256_blendv_epi8(linear, cube, _mm256_cmpgt_epi32(f, _mm256_set1_epi32(3390)));
}

// The low byte of each lane as a float.
TFGPUAUG_AVX2 __m256 LowByte(__m256i word) {
  return _mm256_cvtepi32_ps(_mm256_and_si256(word, _mm256_set1_epi32(0xff)));
}

TFGPUAUG_AVX2 __m256i LoadInts(const void* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
TFGPUAUG_AVX2 void StoreInts(void* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }

// The table lookups are plain loads in the loops below, between vector passes over buffers,
// not AVX2 gathers: on the AMD EPYC (Zen 3) these figures come from, one eight-lane gather took
// 3.6 ns and eight loads 2.3 ns, and the lookups were over half of CLAHE's time. noinline keeps
// the loops out of the AVX2 callers, so the compiler cannot turn them back into gathers.

// The gamma lookups of n pixels of c channels, packed for fewer loads and stores: red | green << 16
// in rg[i] (both below 2^15, the 16-bit pairs vpmaddwd multiplies) and blue in b[i], each
// pixel's three bytes read as one word. The last pixel by bytes: its word would reach past the
// image when c is 3.
__attribute__((noinline)) void GammaPairs(const int* table, const uint8_t* src, int n, int c, int* rg,
                                          int* b) {
  int i = 0;
#pragma GCC unroll 4
  for (; i + 1 < n; ++i) {
    uint32_t word;
    std::memcpy(&word, src + size_t(i) * c, 4);
    rg[i] = table[word & 0xff] | table[(word >> 8) & 0xff] << 16;
    b[i] = table[(word >> 16) & 0xff];
  }
  for (; i < n; ++i) {
    rg[i] = table[src[size_t(i) * c]] | table[src[size_t(i) * c + 1]] << 16;
    b[i] = table[src[size_t(i) * c + 2]];
  }
}

// The cube root of three index sets, two of them packed as x | y << 16 (indices below 3072,
// roots at most 2^15): out_xy[i] = cbrt[x] | cbrt[y] << 16, out_z[i] = cbrt[z].
__attribute__((noinline)) void CbrtPairs(const int* cbrt, const int* xy, const int* z, int n, int* out_xy,
                                         int* out_z) {
#pragma GCC unroll 4
  for (int i = 0; i < n; ++i) {
    out_xy[i] = cbrt[xy[i] & 0xffff] | cbrt[uint32_t(xy[i]) >> 16] << 16;
    out_z[i] = cbrt[z[i]];
  }
}

// out[i] = table[index[i]] for i < n in each of `planes` planes `stride` apart.
__attribute__((noinline)) void LookUpPlanes(const int* table, const int* index, int n, int planes, int stride,
                                            int* out) {
  for (int k = 0; k < planes; ++k) {
#pragma GCC unroll 8
    for (int i = 0; i < n; ++i) out[k * stride + i] = table[index[k * stride + i]];
  }
}

// One row's words from the transposed tables (see ClaheApplyRgbAvx2): the upper row of
// tiles' two bytes at a pixel in the low half, the lower row's in the high half; at[x] is the
// pixel's offset in a row of tiles' table (its L times the tiles across, plus its left tile).
__attribute__((noinline)) void TileBytesOfRow(const uint8_t* upper, const uint8_t* lower, const int* at,
                                              int n, uint32_t* words) {
#pragma GCC unroll 4
  for (int x = 0; x < n; ++x) {
    uint16_t top, bottom;
    std::memcpy(&top, upper + at[x], 2);
    std::memcpy(&bottom, lower + at[x], 2);
    words[x] = uint32_t(top) | uint32_t(bottom) << 16;
  }
}

// The tables of a grid eight tiles across, [tile][value] -> [value][tile], sixteen values of
// the eight tiles a step: byte, word and double-word interleaves of the eight 16-byte rows.
__attribute__((target("avx2"))) void TransposeEightTables(const uint8_t* tables, uint8_t* across) {
  for (int v = 0; v < 256; v += 16) {
    __m128i t[8];
    for (int k = 0; k < 8; ++k)
      t[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables + k * 256 + v));
    __m128i pairs[8], quads[8];
    for (int k = 0; k < 4; ++k) {
      pairs[2 * k] = _mm_unpacklo_epi8(t[2 * k], t[2 * k + 1]);  // values v..v+7 of tiles 2k, 2k+1
      pairs[2 * k + 1] = _mm_unpackhi_epi8(t[2 * k], t[2 * k + 1]);
    }
    for (int half = 0; half < 2; ++half) {
      for (int k = 0; k < 2; ++k) {  // tiles 4k..4k+3: values v + 8 half + 0..3, then + 4..7
        quads[4 * half + 2 * k] = _mm_unpacklo_epi16(pairs[4 * k + half], pairs[4 * k + 2 + half]);
        quads[4 * half + 2 * k + 1] = _mm_unpackhi_epi16(pairs[4 * k + half], pairs[4 * k + 2 + half]);
      }
    }
    for (int q = 0; q < 4; ++q) {  // values v + 4q .. v + 4q + 3, all eight tiles each
      const __m128i low = quads[4 * (q / 2) + q % 2], high = quads[4 * (q / 2) + 2 + q % 2];
      _mm_storeu_si128(reinterpret_cast<__m128i*>(across + (v + 4 * q) * 8), _mm_unpacklo_epi32(low, high));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(across + (v + 4 * q + 2) * 8),
                       _mm_unpackhi_epi32(low, high));
    }
  }
}

// Channels 0..2 of n pixels through the table from three index planes `stride` apart; the
// channels past 2 copied from src. RGB and RGBA have their own loops: no per-pixel loop over
// the extra channels, and one store a pixel.
__attribute__((noinline)) void StoreRgbOfRow(const uint8_t* table, const int* index, int stride, int n, int c,
                                             const uint8_t* src, uint8_t* dst) {
  if (c == 3) {
    // one word store a pixel, not three byte stores (its fourth byte is the next pixel's first,
    // stored next); the last pixel by bytes, so nothing past the row is touched (in CLAHE that
    // is the next row's L*a*b*, not yet read)
    int x = 0;
#pragma GCC unroll 4
    for (; x + 1 < n; ++x) {
      const uint32_t word = uint32_t(table[index[x]]) | uint32_t(table[index[stride + x]]) << 8 |
                            uint32_t(table[index[2 * stride + x]]) << 16;
      std::memcpy(dst + 3 * size_t(x), &word, 4);
    }
    for (; x < n; ++x) {
      dst[3 * x] = table[index[x]];
      dst[3 * x + 1] = table[index[stride + x]];
      dst[3 * x + 2] = table[index[2 * stride + x]];
    }
    return;
  }
  if (c == 4) {
#pragma GCC unroll 4
    for (int x = 0; x < n; ++x) {
      const uint32_t word = uint32_t(table[index[x]]) | uint32_t(table[index[stride + x]]) << 8 |
                            uint32_t(table[index[2 * stride + x]]) << 16 |
                            uint32_t(src[4 * size_t(x) + 3]) << 24;
      std::memcpy(dst + 4 * size_t(x), &word, 4);
    }
    return;
  }
#pragma GCC unroll 4
  for (int x = 0; x < n; ++x) {
    uint8_t* o = dst + size_t(x) * c;
    o[0] = table[index[x]];
    o[1] = table[index[stride + x]];
    o[2] = table[index[2 * stride + x]];
    for (int k = 3; k < c; ++k) o[k] = src[size_t(x) * c + k];
  }
}

}  // namespace

__attribute__((target("avx2"))) void LabFromRgbAvx2(const uint8_t* src, size_t n, int c, uint8_t* lab) {
  const WideLabTables& t = Wide();
  const bool vbmi = c <= 4 && CpuHasAvx512Vbmi();  // sixteen pixels fill at most 64 bytes
  constexpr int kChunk = 256;                      // pixels a step: three planes of ints each, on the stack
  alignas(32) int linear[3 * kChunk], index[3 * kChunk], f[3 * kChunk];
  // The packed layout (GammaPairs, CbrtPairs) in the first two planes of each buffer.
  int *rg = linear, *blue = linear + kChunk, *index_xy = index, *index_z = index + kChunk, *f_xy = f,
      *f_z = f + kChunk;
  const __m256i rg_to_x = _mm256_set1_epi32(1777 | 1541 << 16), rg_to_y = _mm256_set1_epi32(871 | 2929 << 16),
                rg_to_z = _mm256_set1_epi32(73 | 448 << 16), low_half = _mm256_set1_epi32(0xffff);
  size_t i0 = 0;
  while (i0 + 8 <= n) {
    const int m = static_cast<int>(std::min<size_t>(kChunk, (n - i0) & ~size_t(7)));
    if (vbmi) {
      WordTablePlanesAvx512(t.gamma_bytes, src + i0 * c, m, c, kChunk, linear);
      for (int j = 0; j < m; j += 8) {
        const __m256i r = LoadInts(linear + j), g = LoadInts(linear + kChunk + j),
                      b = LoadInts(linear + 2 * kChunk + j);
        const __m256i y = Descale<12>(Add(Add(Mul(r, 871), Mul(g, 2929)), Mul(b, 296)));
        StoreInts(index_xy + j,
                  _mm256_or_si256(Descale<12>(Add(Add(Mul(r, 1777), Mul(g, 1541)), Mul(b, 778))),
                                  _mm256_slli_epi32(y, 16)));
        StoreInts(index_z + j, Descale<12>(Add(Add(Mul(r, 73), Mul(g, 448)), Mul(b, 3575))));
      }
    } else {
      GammaPairs(t.gamma, src + i0 * c, m, c, rg, blue);
      for (int j = 0; j < m; j += 8) {
        // red * k0 + green * k1 in one vpmaddwd (products and sums exact: all below 2^31)
        const __m256i pair = LoadInts(rg + j), b = LoadInts(blue + j);
        const __m256i y = Descale<12>(Add(_mm256_madd_epi16(pair, rg_to_y), Mul(b, 296)));
        StoreInts(index_xy + j,
                  _mm256_or_si256(Descale<12>(Add(_mm256_madd_epi16(pair, rg_to_x), Mul(b, 778))),
                                  _mm256_slli_epi32(y, 16)));
        StoreInts(index_z + j, Descale<12>(Add(_mm256_madd_epi16(pair, rg_to_z), Mul(b, 3575))));
      }
    }
    CbrtPairs(t.cbrt, index_xy, index_z, m, f_xy, f_z);
    for (int j = 0; j < m; j += 8) {
      const __m256i both = LoadInts(f_xy + j), fz = LoadInts(f_z + j);
      const __m256i fx = _mm256_and_si256(both, low_half), fy = _mm256_srli_epi32(both, 16);
      StoreThree(Clamp(Descale<15>(AddConst(Mul(fy, 296), -1336934)), 0, 255),
                 Clamp(Descale<15>(AddConst(Mul(_mm256_sub_epi32(fx, fy), 500), 128 << 15)), 0, 255),
                 Clamp(Descale<15>(AddConst(Mul(_mm256_sub_epi32(fy, fz), 200), 128 << 15)), 0, 255),
                 lab + (i0 + j) * 3);
    }
    i0 += m;
  }
  for (; i0 < n; ++i0) LabFromRgbOpenCv(src + i0 * c, lab + i0 * 3);
}

__attribute__((target("avx2"))) void ClaheApplyRgbAvx2(const uint8_t* lab, const uint8_t* luts,
                                                       const ClaheGrid& g, const uint8_t* src, int h, int w,
                                                       int c, uint8_t* dst) {
  const WideLabTables& t = Wide();
  const bool vbmi = CpuHasAvx512Vbmi();
  const ThreeChannels& lab_channels = ThreeChannelsFor(3);
  // The tables transposed to [tile row][value][tile column], so that the two bytes at a
  // pixel's left tile hold its right tile's entry too (the next byte, or the same tile at the
  // grid's edges); 1 byte of padding for the last pair.
  const int tx_n = g.tiles_x;
  thread_local std::vector<uint8_t> across_buffer;
  across_buffer.resize(size_t(g.tiles_y) * 256 * tx_n + 1);
  uint8_t* across = across_buffer.data();
  for (int ty = 0; ty < g.tiles_y; ++ty) {
    if (tx_n == 8) {  // the default grid
      TransposeEightTables(luts + size_t(ty) * 8 * 256, across + size_t(ty) * 256 * 8);
      continue;
    }
    for (int tx = 0; tx < tx_n; ++tx)
      for (int v = 0; v < 256; ++v)
        across[(size_t(ty) * 256 + v) * tx_n + tx] = luts[(size_t(ty) * tx_n + tx) * 256 + v];
  }
  // Row buffers, whole vectors long (the lanes past w compute on zeros and are not stored):
  // the column taps (left tile, the right tile's byte shift 8 or 0, weights), the row's L*a*b*,
  // the pixels' offsets in the tables and the tiles' words, the blended L, its Y and f(Y), and
  // the three channels' table indices.
  const int wv = (w + 15) & ~15;  // whole vectors of either width
  thread_local std::vector<int> int_buffer;
  thread_local std::vector<float> weights;
  thread_local std::vector<uint8_t> lab_row_buffer;
  int_buffer.resize(size_t(wv) * 9);
  weights.resize(2 * size_t(wv));
  lab_row_buffer.assign(size_t(wv) * 3 + 8, 0);
  int* first = int_buffer.data();
  int* shift = first + wv;
  int* light = shift + wv;
  int* light_y_f = light + wv;
  int* rgb_index = light_y_f + wv;  // three planes wv apart
  int* tile_at = rgb_index + 3 * size_t(wv);
  uint32_t* tile_bytes = reinterpret_cast<uint32_t*>(tile_at + wv);
  float* w_first = weights.data();
  float* w_second = w_first + wv;
  uint8_t* lab_row = lab_row_buffer.data();
  for (int x = 0; x < wv; ++x) {
    const ClaheTaps taps = ClaheTapsOf(x < w ? x : w - 1, g.tile_w, g.tiles_x);
    first[x] = taps.first;
    shift[x] = (taps.second - taps.first) * 8;  // 0 or 1 tile apart
    w_first[x] = taps.w_first;
    w_second[x] = taps.w_second;
  }
  const __m256 magic = _mm256_set1_ps(12582912.f), zero = _mm256_setzero_ps(),
               top_level = _mm256_set1_ps(255.f);
  const __m256i low_half = _mm256_set1_epi32(0xffff);
  const int coef[3][3] = {{12615, -6296, -2223}, {-3773, 7684, 185}, {217, -836, 4715}};
  for (int y = 0; y < h; ++y) {
    const ClaheTaps rows = ClaheTapsOf(y, g.tile_h, g.tiles_y);
    std::memcpy(lab_row, lab + size_t(y) * w * 3, size_t(w) * 3);
    for (int x0 = 0; x0 < wv; x0 += 8) {
      __m256i v, a, b;
      LoadThree(lab_channels, lab_row + size_t(x0) * 3, &v, &a, &b);
      StoreInts(tile_at + x0, Add(Mul(v, tx_n), LoadInts(first + x0)));
    }
    TileBytesOfRow(across + size_t(rows.first) * 256 * tx_n, across + size_t(rows.second) * 256 * tx_n,
                   tile_at, wv, tile_bytes);
    const __m256 wy1 = _mm256_set1_ps(rows.w_first), wy2 = _mm256_set1_ps(rows.w_second);
    for (int x0 = 0; x0 < wv; x0 += 8) {
      const __m256i words = LoadInts(tile_bytes + x0);
      const __m256i top = _mm256_and_si256(words, low_half), bottom = _mm256_srli_epi32(words, 16);
      const __m256i second_shift = LoadInts(shift + x0);
      const __m256 wx1 = _mm256_loadu_ps(w_first + x0), wx2 = _mm256_loadu_ps(w_second + x0);
      // ClaheValue's products and sums, in its order (no fused multiply-adds)
      const __m256 upper = _mm256_add_ps(_mm256_mul_ps(LowByte(top), wx1),
                                         _mm256_mul_ps(LowByte(_mm256_srlv_epi32(top, second_shift)), wx2));
      const __m256 lower =
          _mm256_add_ps(_mm256_mul_ps(LowByte(bottom), wx1),
                        _mm256_mul_ps(LowByte(_mm256_srlv_epi32(bottom, second_shift)), wx2));
      __m256 res = _mm256_add_ps(_mm256_mul_ps(upper, wy1), _mm256_mul_ps(lower, wy2));
      res = _mm256_min_ps(_mm256_max_ps(res, zero), top_level);  // RoundHalfEvenToUint8
      StoreInts(light + x0, _mm256_cvttps_epi32(_mm256_sub_ps(_mm256_add_ps(res, magic), magic)));
    }
    LookUpPlanes(t.light, light, wv, 1, wv, light_y_f);
    // RgbFromLabOpenCv up to the inverse gamma's index
    if (vbmi) ClaheRgbIndicesAvx512(lab_row, light_y_f, wv, wv, rgb_index);
    for (int x0 = 0; !vbmi && x0 < wv; x0 += 8) {
      __m256i v, a, b;
      LoadThree(lab_channels, lab_row + size_t(x0) * 3, &v, &a, &b);
      const __m256i both = LoadInts(light_y_f + x0);
      const __m256i yy = _mm256_srli_epi32(both, 16), fy = _mm256_and_si256(both, low_half);
      const __m256i a_term =
          AddConst(_mm256_srai_epi32(AddConst(Mul(a, 5 * 53687), 1 << 7), 13), -(128 * 16384 / 500));
      const __m256i b_term =
          AddConst(_mm256_srai_epi32(AddConst(Mul(b, 41943), 1 << 4), 9), -(128 * 16384 / 200) + 1);
      const __m256i xx = XzFromF(Add(fy, a_term)), zz = XzFromF(_mm256_sub_epi32(fy, b_term));
      for (int k = 0; k < 3; ++k) {
        const __m256i dot = Add(Add(Mul(xx, coef[k][0]), Mul(yy, coef[k][1])), Mul(zz, coef[k][2]));
        StoreInts(rgb_index + size_t(k) * wv + x0, Clamp(Descale<14>(dot), 0, 4095));
      }
    }
    StoreRgbOfRow(t.inv_gamma_byte, rgb_index, wv, w, c, src + size_t(y) * w * c, dst + size_t(y) * w * c);
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_HAVE_AVX2_LOOPS
