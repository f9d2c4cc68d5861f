#include "cc/kernels/augment/hls_lightness_avx2.h"

#include <cstring>

#include "cc/kernels/augment/rgb_lanes_avx2.h"

namespace tfgpuaug {

#if TFGPUAUG_HAVE_AVX2_LOOPS
namespace {

using V = __m256;

__attribute__((target("avx2"))) inline V Select(V mask, V yes, V no) {
  return _mm256_blendv_ps(no, yes, mask);
}
__attribute__((target("avx2"))) inline V Rint(V x) {
  return _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
__attribute__((target("avx2"))) inline V Is(V a, float b) {
  return _mm256_cmp_ps(a, _mm256_set1_ps(b), _CMP_EQ_OQ);
}

// RgbToHls8's hue and saturation (whole numbers as floats) of eight pixels.
__attribute__((target("avx2"))) inline void HueSaturation8(V r, V g, V b, V vmax, V vmin, V* hue,
                                                           V* saturation) {
  const V diff = _mm256_sub_ps(vmax, vmin), sum = _mm256_add_ps(vmax, vmin);
  const V lightness = _mm256_mul_ps(sum, _mm256_set1_ps(0.5f));
  const V chromatic = _mm256_cmp_ps(diff, _mm256_set1_ps(1.1920929e-07f), _CMP_GT_OQ);
  const V dim = _mm256_cmp_ps(lightness, _mm256_set1_ps(0.5f), _CMP_LT_OQ);
  const V s = Select(dim, _mm256_div_ps(diff, sum),
                     _mm256_div_ps(diff, _mm256_sub_ps(_mm256_sub_ps(_mm256_set1_ps(2.f), vmax), vmin)));
  const V per = _mm256_div_ps(_mm256_set1_ps(60.f), diff);  // inf where diff is 0: not chosen below
  const V from_r = _mm256_mul_ps(_mm256_sub_ps(g, b), per);
  const V from_g = _mm256_add_ps(_mm256_mul_ps(_mm256_sub_ps(b, r), per), _mm256_set1_ps(120.f));
  const V from_b = _mm256_add_ps(_mm256_mul_ps(_mm256_sub_ps(r, g), per), _mm256_set1_ps(240.f));
  V h = Select(_mm256_cmp_ps(vmax, r, _CMP_EQ_OQ), from_r,
               Select(_mm256_cmp_ps(vmax, g, _CMP_EQ_OQ), from_g, from_b));
  h = Select(_mm256_cmp_ps(h, _mm256_setzero_ps(), _CMP_LT_OQ), _mm256_add_ps(h, _mm256_set1_ps(360.f)), h);
  *hue = Rint(_mm256_mul_ps(_mm256_and_ps(chromatic, h), _mm256_set1_ps(0.5f)));
  *saturation = Rint(_mm256_mul_ps(_mm256_and_ps(chromatic, s), _mm256_set1_ps(255.f)));
}

// Hls8ToRgb of eight pixels into rgb[0..2] (levels 0..255 as floats).
__attribute__((target("avx2"))) inline void ToRgb8(V hue, V lightness, V saturation, V* rgb) {
  const V l = _mm256_mul_ps(lightness, _mm256_set1_ps(1.f / 255.f));
  const V s = _mm256_mul_ps(saturation, _mm256_set1_ps(1.f / 255.f));
  const V p2 = Select(_mm256_cmp_ps(l, _mm256_set1_ps(0.5f), _CMP_LE_OQ),
                      _mm256_mul_ps(l, _mm256_add_ps(_mm256_set1_ps(1.f), s)),
                      _mm256_sub_ps(_mm256_add_ps(l, s), _mm256_mul_ps(l, s)));
  const V p1 = _mm256_sub_ps(_mm256_mul_ps(_mm256_set1_ps(2.f), l), p2);
  V h = _mm256_mul_ps(hue, _mm256_set1_ps(6.f / 180.f));
  const V six = _mm256_set1_ps(6.f);
  h = Select(_mm256_cmp_ps(h, _mm256_setzero_ps(), _CMP_LT_OQ), _mm256_add_ps(h, six),
             Select(_mm256_cmp_ps(h, six, _CMP_GE_OQ), _mm256_sub_ps(h, six), h));
  const V sector = _mm256_floor_ps(h);
  h = _mm256_sub_ps(h, sector);
  const V span = _mm256_sub_ps(p2, p1);
  const V rising = _mm256_add_ps(p1, _mm256_mul_ps(span, h));
  const V falling = _mm256_add_ps(p1, _mm256_mul_ps(span, _mm256_sub_ps(_mm256_set1_ps(1.f), h)));
  // Per sector (the pick table of Hls8ToRgb): sector 5 (and anything above) is the default.
  const V s0 = Is(sector, 0.f), s1 = Is(sector, 1.f), s2 = Is(sector, 2.f), s3 = Is(sector, 3.f),
          s4 = Is(sector, 4.f);
  const V red = Select(s0, p2, Select(s1, falling, Select(s2, p1, Select(s3, p1, Select(s4, rising, p2)))));
  const V green = Select(s0, rising, Select(s1, p2, Select(s2, p2, Select(s3, falling, Select(s4, p1, p1)))));
  const V blue = Select(s0, p1, Select(s1, p1, Select(s2, rising, Select(s3, p2, Select(s4, p2, falling)))));
  const V grey = Is(s, 0.f);
  const V channels[3] = {Select(grey, l, red), Select(grey, l, green), Select(grey, l, blue)};
  for (int k = 0; k < 3; ++k) {
    const V level = Rint(_mm256_mul_ps(channels[k], _mm256_set1_ps(255.f)));
    rgb[k] = _mm256_min_ps(_mm256_max_ps(level, _mm256_setzero_ps()), _mm256_set1_ps(255.f));
  }
}

}  // namespace

__attribute__((target("avx2"))) void HlsLightnessAvx2(const uint8_t* image, int64_t n, const int32_t* table,
                                                      const int32_t* levels, bool table_keeps_all,
                                                      uint8_t* out) {
  const V scale = _mm256_set1_ps(1.f / 255.f);
  const ThreeChannels& rgb_lanes = ThreeChannelsFor(3);
  for (int64_t p = 0; p < n; p += 8) {
    const uint8_t* in = image + 3 * p;
    if (table_keeps_all && levels != nullptr &&
        _mm256_movemask_ps(
            _mm256_castsi256_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(levels + p)))) ==
            0xff) {  // no level given and a table that keeps everything: the bytes as they are
      std::memcpy(out + 3 * p, in, 24);
      continue;
    }
    __m256i in_r, in_g, in_b;  // byte shuffles, not lanes written one by one (store forwarding)
    LoadThree(rgb_lanes, in, &in_r, &in_g, &in_b);
    const V r = _mm256_mul_ps(_mm256_cvtepi32_ps(in_r), scale),
            g = _mm256_mul_ps(_mm256_cvtepi32_ps(in_g), scale);
    const V b = _mm256_mul_ps(_mm256_cvtepi32_ps(in_b), scale);
    const V vmax = _mm256_max_ps(_mm256_max_ps(r, g), b), vmin = _mm256_min_ps(_mm256_min_ps(r, g), b);
    const __m256i lightness = _mm256_cvtps_epi32(
        _mm256_mul_ps(_mm256_mul_ps(_mm256_add_ps(vmax, vmin), _mm256_set1_ps(0.5f)), _mm256_set1_ps(255.f)));
    __m256i target = _mm256_i32gather_epi32(table, lightness, 4);
    if (levels != nullptr) {
      const __m256i level = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(levels + p));
      const __m256i given = _mm256_cmpgt_epi32(level, _mm256_set1_epi32(-1));
      target = _mm256_blendv_epi8(target, level, given);
    }
    const __m256i keep = _mm256_cmpgt_epi32(_mm256_setzero_si256(), target);
    if (_mm256_movemask_epi8(keep) == -1) {  // every pixel kept: their bytes as they are
      std::memcpy(out + 3 * p, in, 24);
      continue;
    }
    V hue, saturation;
    HueSaturation8(r, g, b, vmax, vmin, &hue, &saturation);
    const V held = _mm256_cvtepi32_ps(_mm256_min_epi32(target, _mm256_set1_epi32(255)));
    V rgb[3];
    ToRgb8(hue, held, saturation, rgb);
    // the edited levels are whole numbers in 0..255; kept pixels keep their bytes
    StoreThree(_mm256_blendv_epi8(_mm256_cvttps_epi32(rgb[0]), in_r, keep),
               _mm256_blendv_epi8(_mm256_cvttps_epi32(rgb[1]), in_g, keep),
               _mm256_blendv_epi8(_mm256_cvttps_epi32(rgb[2]), in_b, keep), out + 3 * p);
  }
}
#endif

}  // namespace tfgpuaug
