#include "cc/kernels/augment/flare_blend_cpu.h"

#include "cc/kernels/augment/flare_blend.h"
#include "cc/kernels/augment/rgb_lanes_avx2.h"
#include "cc/kernels/augment/separable_blur_cpu.h"
#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

#if TFGPUAUG_HAVE_AVX2_LOOPS
// FlareFade four pixels at a time: the same float64 square root, divide and clamp (never NaN:
// reach > 0), rounded to float32 as the scalar cast rounds. dx^2 + dy^2 is an exact integer.
// Returns the pixels done (whole groups of four); the caller's scalar loop does the rest.
__attribute__((target("avx2"))) int FadeRowAvx2(float* fade, int w, int y, int sun_x, int sun_y,
                                                double reach) {
  const double dy = double(y) - double(sun_y);
  const __m256d dy2 = _mm256_set1_pd(dy * dy), by = _mm256_set1_pd(reach);
  const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
  const __m256d steps = _mm256_setr_pd(0.0, 1.0, 2.0, 3.0);
  int x = 0;
  for (; x + 4 <= w; x += 4) {
    const __m256d dx = _mm256_add_pd(_mm256_set1_pd(double(x) - double(sun_x)), steps);
    __m256d d = _mm256_div_pd(_mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), dy2)), by);
    d = _mm256_min_pd(_mm256_max_pd(d, zero), one);
    _mm_storeu_ps(fade + x, _mm256_cvtpd_ps(_mm256_sub_pd(one, d)));
  }
  return x;
}

// FlareScreenByte for eight pixels' three channels: the float32 operations in the scalar order;
// max then min clamp as the scalar comparisons do (the flare is finite), and the truncating
// conversion is the scalar cast.
__attribute__((target("avx2"))) __m256i ScreenLanes(__m256i v, const float* flare) {
  const __m256 full = _mm256_set1_ps(255.f);
  const __m256 left = _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_set1_epi32(255), v));
  const __m256 out = _mm256_sub_ps(
      full, _mm256_div_ps(_mm256_mul_ps(left, _mm256_sub_ps(full, _mm256_loadu_ps(flare))), full));
  return _mm256_cvttps_epi32(_mm256_min_ps(_mm256_max_ps(out, _mm256_setzero_ps()), full));
}

__attribute__((target("avx2"))) size_t ScreenAvx2(const uint8_t* image, const float* const* flare, size_t per,
                                                  uint8_t* out) {
  const ThreeChannels& rgb = ThreeChannelsFor(3);
  size_t i = 0;
  for (; i + 8 <= per; i += 8) {  // LoadThree reads the eight pixels' 24 bytes, StoreThree writes them
    __m256i v0, v1, v2;
    LoadThree(rgb, image + 3 * i, &v0, &v1, &v2);
    StoreThree(ScreenLanes(v0, flare[0] + i), ScreenLanes(v1, flare[1] + i), ScreenLanes(v2, flare[2] + i),
               out + 3 * i);
  }
  return i;
}
#endif

void FadePlane(float* fade, int h, int w, int sun_x, int sun_y) {
  const double reach = FlareFadeReach(h, w);
#if TFGPUAUG_HAVE_AVX2_LOOPS
  const bool avx2 = CpuHasAvx2();
#endif
  for (int y = 0; y < h; ++y) {
    float* row = fade + size_t(y) * w;
    int x = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (avx2) x = FadeRowAvx2(row, w, y, sun_x, sun_y, reach);
#endif
    for (; x < w; ++x) row[x] = FlareFade(x, y, sun_x, sun_y, reach);
  }
}

void Screen(const uint8_t* image, const float* const* flare, size_t per, uint8_t* out) {
  size_t i = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) i = ScreenAvx2(image, flare, per, out);
#endif
  for (; i < per; ++i)
    for (int c = 0; c < 3; ++c) out[3 * i + c] = FlareScreenByte(image[3 * i + c], flare[c][i]);
}

}  // namespace

size_t FlareBlendScratchFloats(int h, int w, int flare_taps, int taps) {
  const int widest = flare_taps > taps ? flare_taps : taps;
  return 5 * size_t(h) * w + SeparableBlurScratchFloats(h, w, widest);
}

// A channel at a time through the blurs in scratch planes (a 224x224 sample's fit in the L2
// cache; no batch-sized float tensor is made between the steps), then the three channels screened
// together, eight pixels a step where AVX2 runs.
void FlareBlendCpu(const uint8_t* image, int h, int w, const int32_t* layer, int sun_x, int sun_y,
                   const float* flare_kernel, int flare_taps, const float* kernels, int taps, float* scratch,
                   uint8_t* out) {
  const size_t per = size_t(h) * w;
  float* fade = scratch;
  float* plane = fade + per;
  float* flare[3] = {plane + per, plane + 2 * per, plane + 3 * per};
  float* blur_scratch = plane + 4 * per;
  FadePlane(fade, h, w, sun_x, sun_y);  // once for the three channels
  for (int c = 0; c < 3; ++c) {
    for (size_t i = 0; i < per; ++i) plane[i] = FlareLayerChannel(layer[i], c);
    SeparableBlurCpu(plane, h, w, flare_kernel, flare_taps, blur_scratch, flare[c]);
    for (size_t i = 0; i < per; ++i) plane[i] = flare[c][i] * fade[i];
    SeparableBlurCpu(plane, h, w, kernels + size_t(c) * taps, taps, blur_scratch, flare[c]);
  }
  Screen(image, flare, per, out);
}

}  // namespace tfgpuaug
