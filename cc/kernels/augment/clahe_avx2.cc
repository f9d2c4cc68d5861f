#include "cc/kernels/augment/clahe_avx2.h"

#include "cc/kernels/augment/rgb_lanes_avx2.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS

#include <vector>

namespace tfgpuaug {
namespace {

// The L*a*b* tables widened to 32 bits for the gathers.
struct WideLabTables {
  int gamma[256], cbrt[3072], inv_gamma[4096];
  int light[256];  // Y << 16 | f(Y): one gather for both
};

const WideLabTables& Wide() {
  static const WideLabTables tables = [] {
    WideLabTables t;
    for (int i = 0; i < 256; ++i) {
      t.gamma[i] = lab_detail::Gamma(i);
      t.light[i] = lab_detail::LightnessY(i) << 16 | lab_detail::LightnessF(i);
    }
    for (int i = 0; i < 3072; ++i) t.cbrt[i] = lab_detail::Cbrt(i);
    for (int i = 0; i < 4096; ++i) t.inv_gamma[i] = lab_detail::InvGamma(i);
    return t;
  }();
  return tables;
}

#define TFGPUAUG_AVX2 __attribute__((target("avx2"))) inline

TFGPUAUG_AVX2 __m256i Gather(const int* table, __m256i index) {
  return _mm256_i32gather_epi32(table, index, 4);
}
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
// zero) is the float quotient truncated: |f * 108| < 2^24 is exact in float, and a quotient that
// is not whole is at least 1/841 from the next whole number, far beyond float's error here.
TFGPUAUG_AVX2 __m256i XzFromF(__m256i f) {
  const __m256 q = _mm256_div_ps(_mm256_cvtepi32_ps(Mul(f, 108)), _mm256_set1_ps(841.f));
  const __m256i linear = AddConst(_mm256_cvttps_epi32(q), -290);
  const __m256i cube =
      _mm256_srai_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(_mm256_mullo_epi32(f, f), 14), f), 14);
  return _mm256_blendv_epi8(linear, cube, _mm256_cmpgt_epi32(f, _mm256_set1_epi32(3390)));
}

// The low byte of each lane as a float.
TFGPUAUG_AVX2 __m256 LowByte(__m256i word) {
  return _mm256_cvtepi32_ps(_mm256_and_si256(word, _mm256_set1_epi32(0xff)));
}

TFGPUAUG_AVX2 __m256i Load(const int (&lanes)[8]) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes));
}

}  // namespace

__attribute__((target("avx2"))) void LabFromRgbAvx2(const uint8_t* src, size_t n, int c, uint8_t* lab) {
  const WideLabTables& t = Wide();
  const ThreeChannels& channels = ThreeChannelsFor(c);
  size_t i0 = 0;
  for (; i0 + 8 <= n && (c == 3 || c == 4); i0 += 8) {
    __m256i r, g, b;
    LoadThree(channels, src + i0 * c, &r, &g, &b);
    r = Gather(t.gamma, r);
    g = Gather(t.gamma, g);
    b = Gather(t.gamma, b);
    const __m256i fx = Gather(t.cbrt, Descale<12>(Add(Add(Mul(r, 1777), Mul(g, 1541)), Mul(b, 778))));
    const __m256i fy = Gather(t.cbrt, Descale<12>(Add(Add(Mul(r, 871), Mul(g, 2929)), Mul(b, 296))));
    const __m256i fz = Gather(t.cbrt, Descale<12>(Add(Add(Mul(r, 73), Mul(g, 448)), Mul(b, 3575))));
    StoreThree(Clamp(Descale<15>(AddConst(Mul(fy, 296), -1336934)), 0, 255),
               Clamp(Descale<15>(AddConst(Mul(_mm256_sub_epi32(fx, fy), 500), 128 << 15)), 0, 255),
               Clamp(Descale<15>(AddConst(Mul(_mm256_sub_epi32(fy, fz), 200), 128 << 15)), 0, 255),
               lab + i0 * 3);
  }
  for (; i0 < n; ++i0) LabFromRgbOpenCv(src + i0 * c, lab + i0 * 3);
}

__attribute__((target("avx2"))) void ClaheApplyRgbAvx2(const uint8_t* lab, const uint8_t* luts,
                                                       const ClaheGrid& g, const uint8_t* src, int h, int w,
                                                       int c, uint8_t* dst) {
  const WideLabTables& t = Wide();
  const ThreeChannels& lab_channels = ThreeChannelsFor(3);
  // The tables transposed to [tile row][value][tile column], so that one word gathered at a
  // pixel's left tile holds its right tile's entry too (the next byte, or the same tile at the
  // grid's edges); 4 bytes of padding for the last words.
  const int tx_n = g.tiles_x;
  thread_local std::vector<uint8_t> across_buffer;
  across_buffer.resize(size_t(g.tiles_y) * 256 * tx_n + 4);
  uint8_t* across = across_buffer.data();
  for (int ty = 0; ty < g.tiles_y; ++ty)
    for (int tx = 0; tx < tx_n; ++tx)
      for (int v = 0; v < 256; ++v)
        across[(size_t(ty) * 256 + v) * tx_n + tx] = luts[(size_t(ty) * tx_n + tx) * 256 + v];
  // The column taps as lanes: the left tile, the right tile's byte shift (8 or 0), weights.
  thread_local std::vector<int> column_ints;
  thread_local std::vector<float> weights;
  column_ints.resize(2 * size_t(w));
  weights.resize(2 * size_t(w));
  int* first = column_ints.data();
  int* shift = first + w;
  float* w_first = weights.data();
  float* w_second = w_first + w;
  for (int x = 0; x < w; ++x) {
    const ClaheTaps taps = ClaheTapsOf(x, g.tile_w, g.tiles_x);
    first[x] = taps.first;
    shift[x] = (taps.second - taps.first) * 8;  // 0 or 1 tile apart
    w_first[x] = taps.w_first;
    w_second[x] = taps.w_second;
  }
  const __m256 magic = _mm256_set1_ps(12582912.f), zero = _mm256_setzero_ps(),
               top_level = _mm256_set1_ps(255.f);
  for (int y = 0; y < h; ++y) {
    const ClaheTaps rows = ClaheTapsOf(y, g.tile_h, g.tiles_y);
    const int* upper_table = reinterpret_cast<const int*>(across + size_t(rows.first) * 256 * tx_n);
    const int* lower_table = reinterpret_cast<const int*>(across + size_t(rows.second) * 256 * tx_n);
    const __m256 wy1 = _mm256_set1_ps(rows.w_first), wy2 = _mm256_set1_ps(rows.w_second);
    int x0 = 0;
    for (; x0 + 8 <= w; x0 += 8) {
      const size_t i0 = size_t(y) * w + x0;
      __m256i v, a, b;
      LoadThree(lab_channels, lab + i0 * 3, &v, &a, &b);
      const __m256i at = Add(Mul(v, tx_n), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(first + x0)));
      const __m256i second_shift = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(shift + x0));
      const __m256i top = _mm256_i32gather_epi32(upper_table, at, 1);
      const __m256i bottom = _mm256_i32gather_epi32(lower_table, at, 1);
      const __m256 wx1 = _mm256_loadu_ps(w_first + x0), wx2 = _mm256_loadu_ps(w_second + x0);
      // ClaheValue's products and sums, in its order (no fused multiply-adds)
      const __m256 upper = _mm256_add_ps(_mm256_mul_ps(LowByte(top), wx1),
                                         _mm256_mul_ps(LowByte(_mm256_srlv_epi32(top, second_shift)), wx2));
      const __m256 lower =
          _mm256_add_ps(_mm256_mul_ps(LowByte(bottom), wx1),
                        _mm256_mul_ps(LowByte(_mm256_srlv_epi32(bottom, second_shift)), wx2));
      __m256 res = _mm256_add_ps(_mm256_mul_ps(upper, wy1), _mm256_mul_ps(lower, wy2));
      res = _mm256_min_ps(_mm256_max_ps(res, zero), top_level);  // RoundHalfEvenToUint8
      const __m256i light = _mm256_cvttps_epi32(_mm256_sub_ps(_mm256_add_ps(res, magic), magic));
      // RgbFromLabOpenCv
      const __m256i both = Gather(t.light, light);
      const __m256i yy = _mm256_srli_epi32(both, 16), fy = _mm256_and_si256(both, _mm256_set1_epi32(0xffff));
      const __m256i a_term =
          AddConst(_mm256_srai_epi32(AddConst(Mul(a, 5 * 53687), 1 << 7), 13), -(128 * 16384 / 500));
      const __m256i b_term =
          AddConst(_mm256_srai_epi32(AddConst(Mul(b, 41943), 1 << 4), 9), -(128 * 16384 / 200) + 1);
      const __m256i xx = XzFromF(Add(fy, a_term)), zz = XzFromF(_mm256_sub_epi32(fy, b_term));
      __m256i out[3];
      const int coef[3][3] = {{12615, -6296, -2223}, {-3773, 7684, 185}, {217, -836, 4715}};
      for (int k = 0; k < 3; ++k) {
        const __m256i dot = Add(Add(Mul(xx, coef[k][0]), Mul(yy, coef[k][1])), Mul(zz, coef[k][2]));
        out[k] = Gather(t.inv_gamma, Clamp(Descale<14>(dot), 0, 4095));
      }
      if (c == 3) {
        StoreThree(out[0], out[1], out[2], dst + i0 * 3);
        continue;
      }
      alignas(32) int lanes[3][8];
      for (int k = 0; k < 3; ++k) _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[k]), out[k]);
      for (int l = 0; l < 8; ++l) {
        uint8_t* o = dst + (i0 + l) * c;
        for (int k = 0; k < 3; ++k) o[k] = static_cast<uint8_t>(lanes[k][l]);
        for (int k = 3; k < c; ++k) o[k] = src[(i0 + l) * c + k];
      }
    }
    for (int x = x0; x < w; ++x) {
      const size_t i = size_t(y) * w + x;
      const ClaheTaps columns{first[x], first[x] + shift[x] / 8, w_first[x], w_second[x]};
      uint8_t* o = dst + i * c;
      RgbFromLabOpenCv(ClaheValue(luts, g.tiles_x, rows, columns, lab[3 * i]), lab[3 * i + 1], lab[3 * i + 2],
                       o);
      for (int k = 3; k < c; ++k) o[k] = src[i * c + k];
    }
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_HAVE_AVX2_LOOPS
