#include "cc/kernels/augment/augment_avx2.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS

#include <algorithm>
#include <cstring>
#include <utility>

#include "cc/kernels/augment/augment.h"
#include "cc/kernels/augment/rgb_lanes_avx2.h"
#include "cc/kernels/common/random_avx2.h"

namespace tfgpuaug {
namespace {

// Hue shift or saturation scale of eight RGB pixels per step: RgbToHsv, the stage's change
// and HsvToRgb of augment.h with the same IEEE operations in the same order, their
// branches turned into lane selects (lanes a branch does not take may compute NaN or
// infinity; selects drop them). The per-pixel code branches on the data (largest channel,
// hue sector), which photos make unpredictable.
__attribute__((target("avx2"))) inline __m256 Select(__m256 mask, __m256 if_true, __m256 if_false) {
  return _mm256_blendv_ps(if_false, if_true, mask);
}

// The RGB of `lanes` pixels from pixel i0 as 32-bit lanes (lanes past `lanes` are 0): a full
// step of 3- or 4-channel pixels by byte shuffles, else byte by byte.
__attribute__((target("avx2"))) inline void LoadRgbInts(const uint8_t* src, size_t i0, int lanes, int c,
                                                        __m256i* r, __m256i* g, __m256i* b) {
  if (lanes == 8 && (c == 3 || c == 4)) return LoadThree(ThreeChannelsFor(c), src + i0 * c, r, g, b);
  alignas(32) int in[3][8] = {};
  for (int l = 0; l < lanes; ++l)
    for (int k = 0; k < 3; ++k) in[k][l] = src[(i0 + l) * c + k];
  *r = _mm256_load_si256(reinterpret_cast<const __m256i*>(in[0]));
  *g = _mm256_load_si256(reinterpret_cast<const __m256i*>(in[1]));
  *b = _mm256_load_si256(reinterpret_cast<const __m256i*>(in[2]));
}

// The same as floats over 255: the load of every eight-pixel colour loop here, the
// counterpart of StoreRgbLanes.
__attribute__((target("avx2"))) inline void LoadRgbLanes(const uint8_t* src, size_t i0, int lanes, int c,
                                                         __m256* r, __m256* g, __m256* b) {
  __m256i ri, gi, bi;
  LoadRgbInts(src, i0, lanes, c, &ri, &gi, &bi);
  const __m256 c255 = _mm256_set1_ps(255.f);
  *r = _mm256_div_ps(_mm256_cvtepi32_ps(ri), c255);
  *g = _mm256_div_ps(_mm256_cvtepi32_ps(gi), c255);
  *b = _mm256_div_ps(_mm256_cvtepi32_ps(bi), c255);
}

// The RGB bytes of `lanes` pixels from pixel i0 (out[channel] lanes, already 0..255), the
// other channels copied: the store of every eight-pixel colour loop here (a full step of RGB
// pixels by byte shuffles).
__attribute__((target("avx2"))) inline void StoreRgbLanes(const __m256i (&out)[3], int lanes,
                                                          const uint8_t* src, size_t i0, int c,
                                                          uint8_t* dst) {
  if (lanes == 8 && c == 3) return StoreThree(out[0], out[1], out[2], dst + i0 * 3);
  alignas(32) int values[3][8];
  for (int k = 0; k < 3; ++k) _mm256_store_si256(reinterpret_cast<__m256i*>(values[k]), out[k]);
  for (int l = 0; l < lanes; ++l) {
    uint8_t* o = dst + (i0 + l) * c;
    for (int k = 0; k < 3; ++k) o[k] = static_cast<uint8_t>(values[k][l]);
    for (int k = 3; k < c; ++k) o[k] = src[(i0 + l) * c + k];
  }
}

__attribute__((target("avx2"))) inline __m256 SectorIs(__m256i sector, int k) {
  return _mm256_castsi256_ps(_mm256_cmpeq_epi32(sector, _mm256_set1_epi32(k)));
}

}  // namespace

__attribute__((target("avx2"))) void HueSaturationAvx2(const uint8_t* src, size_t n, int c, bool hue,
                                                       float param, uint8_t* dst) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f), six = _mm256_set1_ps(6.f);
  const __m256 c255 = _mm256_set1_ps(255.f), p = _mm256_set1_ps(param);
  for (size_t i0 = 0; i0 < n; i0 += 8) {
    const int lanes = n - i0 < 8 ? int(n - i0) : 8;
    __m256 r, g, b;
    LoadRgbLanes(src, i0, lanes, c, &r, &g, &b);
    // RgbToHsv
    const __m256 mx = _mm256_max_ps(r, _mm256_max_ps(g, b)), mn = _mm256_min_ps(r, _mm256_min_ps(g, b));
    const __m256 d = _mm256_sub_ps(mx, mn);
    const __m256 v = mx;
    __m256 s = Select(_mm256_cmp_ps(mx, zero, _CMP_GT_OQ), _mm256_div_ps(d, mx), zero);
    const __m256 is_r = _mm256_cmp_ps(mx, r, _CMP_EQ_OQ);
    const __m256 is_g = _mm256_andnot_ps(is_r, _mm256_cmp_ps(mx, g, _CMP_EQ_OQ));
    const __m256 num =
        Select(is_r, _mm256_sub_ps(g, b), Select(is_g, _mm256_sub_ps(b, r), _mm256_sub_ps(r, g)));
    const __m256 q0 = _mm256_div_ps(num, d);
    const __m256 offset = Select(is_g, _mm256_set1_ps(2.f), _mm256_set1_ps(4.f));
    __m256 hh = _mm256_div_ps(Select(is_r, q0, _mm256_add_ps(offset, q0)), six);
    hh = Select(_mm256_cmp_ps(hh, zero, _CMP_LT_OQ), _mm256_add_ps(hh, one), hh);
    __m256 h = Select(_mm256_cmp_ps(d, zero, _CMP_LE_OQ), zero, hh);
    // The stage
    if (hue) {
      h = _mm256_add_ps(h, p);
    } else {
      s = _mm256_min_ps(one, _mm256_max_ps(zero, _mm256_mul_ps(s, p)));
    }
    // HsvToRgb
    h = _mm256_sub_ps(h, _mm256_floor_ps(h));
    const __m256 h6 = _mm256_mul_ps(h, six);
    __m256i sector = _mm256_cvttps_epi32(h6);
    sector = _mm256_blendv_epi8(sector, _mm256_setzero_si256(),
                                _mm256_cmpeq_epi32(sector, _mm256_set1_epi32(6)));  // % 6 of 0..6
    const __m256 f = _mm256_sub_ps(h6, _mm256_floor_ps(h6));
    const __m256 pp = _mm256_mul_ps(v, _mm256_sub_ps(one, s));
    const __m256 qq = _mm256_mul_ps(v, _mm256_sub_ps(one, _mm256_mul_ps(s, f)));
    const __m256 tt = _mm256_mul_ps(v, _mm256_sub_ps(one, _mm256_mul_ps(s, _mm256_sub_ps(one, f))));
    const __m256 s0 = SectorIs(sector, 0), s1 = SectorIs(sector, 1), s2 = SectorIs(sector, 2);
    const __m256 s3 = SectorIs(sector, 3), s4 = SectorIs(sector, 4);
    // sector: 0 -> (v, t, p), 1 -> (q, v, p), 2 -> (p, v, t), 3 -> (p, q, v), 4 -> (t, p, v), 5 -> (v, p, q)
    const __m256 out_r = Select(s0, v, Select(s1, qq, Select(_mm256_or_ps(s2, s3), pp, Select(s4, tt, v))));
    const __m256 out_g = Select(s0, tt, Select(_mm256_or_ps(s1, s2), v, Select(s3, qq, pp)));
    const __m256 out_b =
        Select(_mm256_or_ps(s0, s1), pp, Select(s2, tt, Select(_mm256_or_ps(s3, s4), v, qq)));
    __m256i out[3];
    const __m256 rgb[3] = {out_r, out_g, out_b};
    for (int k = 0; k < 3; ++k)
      out[k] = SaturateLanes8(_mm256_mul_ps(rgb[k], c255));  // SaturateToUint8(x * 255)
    StoreRgbLanes(out, lanes, src, i0, c, dst);
  }
}

namespace {

// The two reciprocal tables of RgbToHsvOpenCv (the same function's values, so the lookups
// give its divisions' results).
struct HsvReciprocalTables {
  alignas(32) int sat[256];
  alignas(32) int hue[256];
  HsvReciprocalTables() {
    for (int i = 0; i < 256; ++i) {
      sat[i] = HsvSatReciprocal(i);
      hue[i] = HsvHueReciprocal(i);
    }
  }
};

__attribute__((target("avx2"))) inline __m256i Clamp255(__m256i x) {
  return _mm256_min_epi32(_mm256_max_epi32(x, _mm256_setzero_si256()), _mm256_set1_epi32(255));
}

}  // namespace

// hsv_shift of eight pixels per step: RgbToHsvOpenCv's integer math on int32 lanes, the
// shifts of HsvShiftPixel, and HsvToRgbOpenCv's float operations in the same order (fmaf as
// vfnmadd, its sector table as selects, the truncation as cvttps).
__attribute__((target("avx2,fma"))) void HsvShiftAvx2(const uint8_t* src, size_t n, int c, int hue_add,
                                                      int sat_add, int val_add, uint8_t* dst) {
  static const HsvReciprocalTables tables;
  const __m256i zero = _mm256_setzero_si256(), c180 = _mm256_set1_epi32(180),
                half = _mm256_set1_epi32(1 << 11);
  const __m256 one = _mm256_set1_ps(1.f), inv255 = _mm256_set1_ps(1.f / 255.f);
  const __m256 hscale = _mm256_set1_ps(6.f / 180.f), c255 = _mm256_set1_ps(255.f);
  for (size_t i0 = 0; i0 < n; i0 += 8) {
    const int lanes = n - i0 < 8 ? int(n - i0) : 8;
    __m256i r, g, b;
    LoadRgbInts(src, i0, lanes, c, &r, &g, &b);
    const __m256i mx = _mm256_max_epi32(r, _mm256_max_epi32(g, b));
    const __m256i diff = _mm256_sub_epi32(mx, _mm256_min_epi32(r, _mm256_min_epi32(g, b)));
    const __m256i is_r = _mm256_cmpeq_epi32(mx, r);
    const __m256i is_g = _mm256_andnot_si256(is_r, _mm256_cmpeq_epi32(mx, g));
    const __m256i from_g = _mm256_add_epi32(_mm256_sub_epi32(b, r), _mm256_slli_epi32(diff, 1));
    const __m256i from_b = _mm256_add_epi32(_mm256_sub_epi32(r, g), _mm256_slli_epi32(diff, 2));
    const __m256i num =
        _mm256_blendv_epi8(_mm256_blendv_epi8(from_b, from_g, is_g), _mm256_sub_epi32(g, b), is_r);
    const __m256i hdiv = _mm256_i32gather_epi32(tables.hue, diff, 4);
    const __m256i sdiv = _mm256_i32gather_epi32(tables.sat, mx, 4);
    __m256i h = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(num, hdiv), half), 12);
    h = _mm256_add_epi32(h, _mm256_and_si256(_mm256_cmpgt_epi32(zero, h), c180));
    __m256i s = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(diff, sdiv), half), 12);
    // the shifts: (h + hue_add) % 180 with both below 180; gray (s = 0) stays gray
    h = _mm256_add_epi32(h, _mm256_set1_epi32(hue_add));
    h = _mm256_sub_epi32(h, _mm256_andnot_si256(_mm256_cmpgt_epi32(c180, h), c180));
    s = _mm256_andnot_si256(_mm256_cmpeq_epi32(s, zero),
                            Clamp255(_mm256_add_epi32(s, _mm256_set1_epi32(sat_add))));
    const __m256i v = Clamp255(_mm256_add_epi32(mx, _mm256_set1_epi32(val_add)));
    // HsvToRgbOpenCv
    const __m256 sf = _mm256_mul_ps(_mm256_cvtepi32_ps(s), inv255);
    const __m256 vf = _mm256_mul_ps(_mm256_cvtepi32_ps(v), inv255);
    const __m256 hh = _mm256_mul_ps(_mm256_cvtepi32_ps(h), hscale);
    const __m256 floor_hh = _mm256_floor_ps(hh);
    const __m256i sector = _mm256_cvttps_epi32(floor_hh);  // 0..5: h < 180
    const __m256 frac = _mm256_sub_ps(hh, floor_hh);
    const __m256 t1 = _mm256_mul_ps(vf, _mm256_sub_ps(one, sf));
    const __m256 t2 = _mm256_mul_ps(vf, _mm256_fnmadd_ps(sf, frac, one));
    const __m256 t3 = _mm256_mul_ps(vf, _mm256_fnmadd_ps(sf, _mm256_sub_ps(one, frac), one));
    const __m256 s0 = SectorIs(sector, 0), s1 = SectorIs(sector, 1), s2 = SectorIs(sector, 2);
    const __m256 s3 = SectorIs(sector, 3), s4 = SectorIs(sector, 4);
    // (r, g, b) per sector: 0 (v, t3, t1), 1 (t2, v, t1), 2 (t1, v, t3), 3 (t1, t2, v), 4 (t3, t1, v), 5 (v,
    // t1, t2)
    const __m256 out_r = Select(s0, vf, Select(s1, t2, Select(_mm256_or_ps(s2, s3), t1, Select(s4, t3, vf))));
    const __m256 out_g = Select(s0, t3, Select(_mm256_or_ps(s1, s2), vf, Select(s3, t2, t1)));
    const __m256 out_b =
        Select(_mm256_or_ps(s0, s1), t1, Select(s2, t3, Select(_mm256_or_ps(s3, s4), vf, t2)));
    __m256i out[3];
    const __m256 rgb[3] = {out_r, out_g, out_b};
    for (int k = 0; k < 3; ++k)
      out[k] = _mm256_cvttps_epi32(
          _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(rgb[k], c255), _mm256_setzero_ps()), c255));
    StoreRgbLanes(out, lanes, src, i0, c, dst);
  }
}

// NoisyByte of augment.h over every byte (all channels, as the per-pixel code), sixteen
// bytes per step: eight Box-Muller pairs, the cosine normal to each even byte and the sine one
// to the odd byte after it.
__attribute__((target("avx2"))) void GaussianNoiseAvx2(const uint8_t* src, size_t elements, uint32_t seed,
                                                       float param, uint8_t* dst) {
  const __m256 sigma = _mm256_set1_ps(param);
  const __m256i lane2 = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
  size_t i = 0;
  for (; i + 16 <= elements; i += 16) {
    const __m256i pairs = _mm256_add_epi32(_mm256_set1_epi32(int(uint32_t(i))), lane2);
    __m256 z_sin;
    const __m256 z_cos = GaussianPair8(
        HashUniform8(seed, pairs), HashUniform8(seed, _mm256_add_epi32(pairs, _mm256_set1_epi32(1))), &z_sin);
    // bytes i .. i + 15 in order: (cos 0, sin 0, cos 1, sin 1, ...)
    const __m256 lo = _mm256_unpacklo_ps(z_cos, z_sin), hi = _mm256_unpackhi_ps(z_cos, z_sin);
    const __m256 z[2] = {_mm256_permute2f128_ps(lo, hi, 0x20), _mm256_permute2f128_ps(lo, hi, 0x31)};
    for (int half = 0; half < 2; ++half)
      StoreLanes8(
          SaturateLanes8(_mm256_add_ps(LoadBytes8(src + i + 8 * half), _mm256_mul_ps(sigma, z[half]))),
          dst + i + 8 * half);
  }
  for (; i < elements; ++i) dst[i] = NoisyByte(seed, static_cast<uint32_t>(i), param, src[i]);
}

// IsoNoisePixel of augment.h on eight pixels per step, operation for operation: the HLS
// conversions' branches as lane selects, the Poisson count by the scalar inversion in the
// lanes whose uniform passes exp(-lambda) (the rest count 0), the hue sector's picks per lane.
__attribute__((target("avx2"))) void IsoNoiseAvx2(const uint8_t* src, size_t n, int c, uint32_t seed,
                                                  float intensity, float color_sigma, float lambda, float p0,
                                                  uint8_t* dst) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f), half = _mm256_set1_ps(0.5f);
  const __m256 c255 = _mm256_set1_ps(255.f), six = _mm256_set1_ps(6.f);
  const __m256i lane3 = _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21);
  for (size_t i0 = 0; i0 < n; i0 += 8) {
    const int lanes = n - i0 < 8 ? int(n - i0) : 8;
    __m256 r, g, b;
    LoadRgbLanes(src, i0, lanes, c, &r, &g, &b);
    // RgbToHlsOpenCv
    const __m256 vmax = _mm256_max_ps(r, _mm256_max_ps(g, b)), vmin = _mm256_min_ps(r, _mm256_min_ps(g, b));
    const __m256 diff = _mm256_sub_ps(vmax, vmin), sum = _mm256_add_ps(vmax, vmin);
    __m256 l = _mm256_mul_ps(sum, half);
    const __m256 some = _mm256_cmp_ps(diff, _mm256_set1_ps(1.1920929e-7f), _CMP_GT_OQ);
    __m256 s = Select(_mm256_cmp_ps(l, half, _CMP_LT_OQ), _mm256_div_ps(diff, sum),
                      _mm256_div_ps(diff, _mm256_sub_ps(_mm256_sub_ps(_mm256_set1_ps(2.f), vmax), vmin)));
    const __m256 d = _mm256_div_ps(_mm256_set1_ps(60.f), diff);
    const __m256 is_r = _mm256_cmp_ps(vmax, r, _CMP_EQ_OQ);
    const __m256 is_g = _mm256_andnot_ps(is_r, _mm256_cmp_ps(vmax, g, _CMP_EQ_OQ));
    __m256 h =
        Select(is_r, _mm256_mul_ps(_mm256_sub_ps(g, b), d),
               Select(is_g, _mm256_add_ps(_mm256_mul_ps(_mm256_sub_ps(b, r), d), _mm256_set1_ps(120.f)),
                      _mm256_add_ps(_mm256_mul_ps(_mm256_sub_ps(r, g), d), _mm256_set1_ps(240.f))));
    h = Select(_mm256_cmp_ps(h, zero, _CMP_LT_OQ), _mm256_add_ps(h, _mm256_set1_ps(360.f)), h);
    h = Select(some, h, zero);
    s = Select(some, s, zero);
    // the noise: uniforms 3 i, 3 i + 1, 3 i + 2
    const __m256i index = _mm256_add_epi32(_mm256_set1_epi32(int(uint32_t(3 * i0))), lane3);
    const __m256 u = HashUniform8(seed, index);
    alignas(32) float counts[8] = {};
    if (_mm256_movemask_ps(_mm256_cmp_ps(u, _mm256_set1_ps(p0), _CMP_GT_OQ)) != 0) {
      alignas(32) float us[8];
      _mm256_store_ps(us, u);
      for (int k = 0; k < 8; ++k) counts[k] = float(PoissonFromUniform(us[k], lambda, p0));
    }
    if (color_sigma > 0.f) {
      const __m256 z =
          GaussianFromUniforms8(HashUniform8(seed, _mm256_add_epi32(index, _mm256_set1_epi32(1))),
                                HashUniform8(seed, _mm256_add_epi32(index, _mm256_set1_epi32(2))));
      h = _mm256_add_ps(h, _mm256_mul_ps(_mm256_set1_ps(color_sigma), z));
    }
    l = _mm256_add_ps(l, _mm256_mul_ps(_mm256_mul_ps(_mm256_load_ps(counts), _mm256_set1_ps(intensity)),
                                       _mm256_sub_ps(one, l)));
    // HlsToRgbOpenCv
    const __m256 p2 = Select(_mm256_cmp_ps(l, half, _CMP_LE_OQ), _mm256_mul_ps(l, _mm256_add_ps(one, s)),
                             _mm256_sub_ps(_mm256_add_ps(l, s), _mm256_mul_ps(l, s)));
    const __m256 p1 = _mm256_sub_ps(_mm256_mul_ps(_mm256_set1_ps(2.f), l), p2);
    h = _mm256_mul_ps(h, _mm256_set1_ps(1.f / 60.f));
    const __m256 outside =
        _mm256_or_ps(_mm256_cmp_ps(h, zero, _CMP_LT_OQ), _mm256_cmp_ps(h, six, _CMP_GE_OQ));
    h = Select(
        outside,
        _mm256_sub_ps(h, _mm256_mul_ps(six, _mm256_floor_ps(_mm256_mul_ps(h, _mm256_set1_ps(1.f / 6.f))))),
        h);
    h = Select(_mm256_cmp_ps(h, six, _CMP_GE_OQ), _mm256_sub_ps(h, six), h);
    __m256i sector = _mm256_cvttps_epi32(h);
    sector = _mm256_min_epi32(_mm256_max_epi32(sector, _mm256_setzero_si256()), _mm256_set1_epi32(5));
    const __m256 f = _mm256_sub_ps(h, _mm256_cvtepi32_ps(sector));
    const __m256 span = _mm256_sub_ps(p2, p1);
    alignas(32) float tab[4][8];
    _mm256_store_ps(tab[0], p2);
    _mm256_store_ps(tab[1], p1);
    _mm256_store_ps(tab[2], _mm256_add_ps(p1, _mm256_mul_ps(span, _mm256_sub_ps(one, f))));
    _mm256_store_ps(tab[3], _mm256_add_ps(p1, _mm256_mul_ps(span, f)));
    alignas(32) float rgb[3][8], gray[8], sat[8];
    alignas(32) int sectors[8];
    _mm256_store_ps(gray, l);
    _mm256_store_ps(sat, s);
    _mm256_store_si256(reinterpret_cast<__m256i*>(sectors), sector);
    static const int8_t kSectorData[6][3] = {{1, 3, 0}, {1, 0, 2}, {3, 0, 1},
                                             {0, 2, 1}, {0, 1, 3}, {2, 1, 0}};
    for (int k = 0; k < 8; ++k) {
      const int8_t* pick = kSectorData[sectors[k]];
      const bool flat = sat[k] == 0.f;
      rgb[2][k] = flat ? gray[k] : tab[pick[0]][k];
      rgb[1][k] = flat ? gray[k] : tab[pick[1]][k];
      rgb[0][k] = flat ? gray[k] : tab[pick[2]][k];
    }
    __m256i out[3];
    for (int k = 0; k < 3; ++k) {  // RoundHalfEvenToUint8(Clamped01(v) * 255)
      const __m256 v = _mm256_load_ps(rgb[k]);
      const __m256 clamped = Select(_mm256_cmp_ps(v, zero, _CMP_GE_OQ), _mm256_min_ps(v, one), zero);
      __m256 x = _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(clamped, c255), zero), c255);
      x = _mm256_sub_ps(_mm256_add_ps(x, _mm256_set1_ps(12582912.f)), _mm256_set1_ps(12582912.f));
      out[k] = _mm256_cvttps_epi32(x);
    }
    StoreRgbLanes(out, lanes, src, i0, c, dst);
  }
}

// SepiaPixel on eight pixels a step: the same float products and sums in the same order, the
// same clamp and magic-number rounding (the sums are never negative).
__attribute__((target("avx2"))) void SepiaAvx2(const uint8_t* src, size_t n, int c, uint8_t* dst) {
  const __m256 top = _mm256_set1_ps(255.f), magic = _mm256_set1_ps(12582912.f);
  for (size_t i0 = 0; i0 < n; i0 += 8) {
    const int lanes = n - i0 < 8 ? int(n - i0) : 8;
    __m256i ri, gi, bi;
    LoadRgbInts(src, i0, lanes, c, &ri, &gi, &bi);
    const __m256 r = _mm256_cvtepi32_ps(ri), g = _mm256_cvtepi32_ps(gi), b = _mm256_cvtepi32_ps(bi);
    __m256i out[3];
    for (int k = 0; k < 3; ++k) {
      const __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(SepiaWeight(k, 0)), r),
                                                     _mm256_mul_ps(_mm256_set1_ps(SepiaWeight(k, 1)), g)),
                                       _mm256_mul_ps(_mm256_set1_ps(SepiaWeight(k, 2)), b));
      out[k] = _mm256_cvttps_epi32(_mm256_sub_ps(_mm256_add_ps(_mm256_min_ps(sum, top), magic), magic));
    }
    StoreRgbLanes(out, lanes, src, i0, c, dst);
  }
}

__attribute__((target("avx2"))) void DropBitsAvx2(uint32_t seed, uint32_t stride, size_t first, size_t count,
                                                  float probability, uint8_t* bits) {
  const __m256 p = _mm256_set1_ps(probability);
  const __m256i steps =
      _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(int(stride)));
  size_t j = 0;
  for (; j + 8 <= count; j += 8) {
    const __m256i index = _mm256_add_epi32(_mm256_set1_epi32(int(stride * uint32_t(first + j))), steps);
    bits[j / 8] = uint8_t(_mm256_movemask_ps(_mm256_cmp_ps(HashUniform8(seed, index), p, _CMP_LT_OQ)));
  }
  if (j == count) return;
  uint8_t tail = 0;
  for (size_t l = 0; j + l < count; ++l)
    if (HashUniform(seed, stride * uint32_t(first + j + l)) < probability) tail |= uint8_t(1u << l);
  bits[j / 8] = tail;
}

// Gray and channel shuffle, eight pixels a step through the byte shuffles of rgb_lanes_avx2.h;
// RgbToLuma's integer weights on 32-bit lanes (the same sums and shift), the tail per pixel.
__attribute__((target("avx2"))) void GrayscaleRgbAvx2(const uint8_t* src, size_t n, uint8_t* dst) {
  const ThreeChannels& rgb = ThreeChannelsFor(3);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256i r, g, b;
    LoadThree(rgb, src + 3 * i, &r, &g, &b);
    const __m256i sum = _mm256_add_epi32(
        _mm256_add_epi32(_mm256_mullo_epi32(r, _mm256_set1_epi32(19595)),
                         _mm256_mullo_epi32(g, _mm256_set1_epi32(38470))),
        _mm256_add_epi32(_mm256_mullo_epi32(b, _mm256_set1_epi32(7471)), _mm256_set1_epi32(0x8000)));
    const __m256i luma = _mm256_srli_epi32(sum, 16);
    StoreThree(luma, luma, luma, dst + 3 * i);
  }
  for (; i < n; ++i) {
    const uint8_t* px = src + 3 * i;
    const uint8_t gray = RgbToLuma(px[0], px[1], px[2]);
    dst[3 * i] = dst[3 * i + 1] = dst[3 * i + 2] = gray;
  }
}

__attribute__((target("avx2"))) void ChannelShuffleRgbAvx2(const uint8_t* src, size_t n, const int* perm,
                                                           uint8_t* dst) {
  const ThreeChannels& rgb = ThreeChannelsFor(3);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256i v[3];
    LoadThree(rgb, src + 3 * i, &v[0], &v[1], &v[2]);
    StoreThree(v[perm[0]], v[perm[1]], v[perm[2]], dst + 3 * i);
  }
  for (; i < n; ++i)
    for (int k = 0; k < 3; ++k) dst[3 * i + k] = src[3 * i + perm[k]];
}

namespace {

// NoiseFactor of uniforms first .. first + 7 of the stream (first wraps as a uint32_t index).
__attribute__((target("avx2"))) inline __m256 NoiseFactors8(uint32_t seed, uint32_t first, __m256 low,
                                                            __m256 range) {
  const __m256i index =
      _mm256_add_epi32(_mm256_set1_epi32(int(first)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  return _mm256_add_ps(low, _mm256_mul_ps(HashUniform8(seed, index), range));
}

// ScaledByte of eight bytes by eight factors: max(t, 0) takes its second operand, 0, for NaN.
__attribute__((target("avx2"))) inline void StoreScaled8(const uint8_t* src, __m256 factor, uint8_t* dst) {
  const __m256 t = _mm256_mul_ps(LoadBytes8(src), factor);
  StoreLanes8(
      _mm256_cvttps_epi32(_mm256_min_ps(_mm256_max_ps(t, _mm256_setzero_ps()), _mm256_set1_ps(255.f))), dst);
}

}  // namespace

// Per channel: eight bytes and their eight factors a step. Per pixel: eight pixels' factors a
// step, spread over their c vectors of eight bytes (byte l of vector j is pixel (8 j + l) / c's).
__attribute__((target("avx2"))) void MultiplicativeNoiseAvx2(const uint8_t* src, size_t n, int c,
                                                             bool per_channel, uint32_t seed, float low,
                                                             float high, uint8_t* dst) {
  const bool fixed = low == high;  // NoiseFactor's exact factor, no draws
  const __m256 lo = _mm256_set1_ps(low), range = _mm256_set1_ps(high - low);
  if (per_channel) {
    const size_t bytes = n * c;
    size_t e = 0;
    for (; e + 8 <= bytes; e += 8)
      StoreScaled8(src + e, fixed ? lo : NoiseFactors8(seed, uint32_t(e), lo, range), dst + e);
    for (; e < bytes; ++e) dst[e] = ScaledByte(src[e], NoiseFactor(seed, uint32_t(e), low, high));
    return;
  }
  __m256i spread[4];
  for (int j = 0; j < c; ++j) {
    alignas(32) int lanes[8];
    for (int l = 0; l < 8; ++l) lanes[l] = (8 * j + l) / c;
    spread[j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes));
  }
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 f = fixed ? lo : NoiseFactors8(seed, uint32_t(i), lo, range);
    for (int j = 0; j < c; ++j)
      StoreScaled8(src + i * c + 8 * j, _mm256_permutevar8x32_ps(f, spread[j]), dst + i * c + 8 * j);
  }
  for (; i < n; ++i)
    MultiplicativeNoisePixel(false, seed, uint32_t(i), low, high, src + i * c, c, dst + i * c);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_HAVE_AVX2_LOOPS
