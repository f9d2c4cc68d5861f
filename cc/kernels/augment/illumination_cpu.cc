#include "cc/kernels/augment/illumination_cpu.h"

#include <vector>

#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {

#if TFGPUAUG_HAVE_AVX2_LOOPS
__attribute__((target("avx2"))) void IlluminatedBytesAvx2(bool linear, const uint8_t* src,
                                                          const float* factor, size_t n, uint8_t* dst) {
  const __m256 zero = _mm256_setzero_ps(), top = _mm256_set1_ps(255.f);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = LoadBytes8(src + i), m = _mm256_loadu_ps(factor + i);
    __m256 t;
    if (linear) {  // rint(((v / 255) m) 255), half to even (the default rounding mode)
      t = _mm256_mul_ps(_mm256_mul_ps(_mm256_div_ps(v, top), m), top);
      t = _mm256_round_ps(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    } else {
      t = _mm256_mul_ps(v, m);
    }
    StoreLanes8(_mm256_cvttps_epi32(_mm256_min_ps(_mm256_max_ps(t, zero), top)), dst + i);
  }
  for (; i < n; ++i) dst[i] = IlluminatedByte(linear, src[i], factor[i]);
}
#endif

void IlluminationCpu(const StageParams& stage_params, const uint8_t* src, const AugmentImage& image_info,
                     uint8_t* dst) {
  const IlluminationParams& p = stage_params.illumination;
  const int h = image_info.h, w = image_info.w, c = image_info.c;
  const bool linear = p.kind == 0;
  // The column half of each factor, computed once an image: the linear stage's column term,
  // the gaussian stage's column exponential.
  std::vector<float> column(w), row_factor(size_t(w) * c);
  for (int x = 0; x < w; ++x)
    column[x] = linear ? LinearColumnTerm(p, x, w) : GaussianAxisFactor(p.centre_x, p.per_square, x);
  const size_t row_bytes = size_t(w) * c;
  for (int y = 0; y < h; ++y) {
    const float row = linear ? LinearRowTerm(p, y, h) : GaussianAxisFactor(p.centre_y, p.per_square, y);
    for (int x = 0; x < w; ++x) {
      const float m = linear ? LinearFactor(p, column[x], row)
                             : (p.kind == 1 ? CornerFactor(p, y, x) : GaussianFactor(p, column[x], row));
      for (int k = 0; k < c; ++k) row_factor[size_t(x) * c + k] = m;
    }
    const uint8_t* s = src + y * row_bytes;
    uint8_t* d = dst + y * row_bytes;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (CpuHasAvx2()) {
      IlluminatedBytesAvx2(linear, s, row_factor.data(), row_bytes, d);
      continue;
    }
#endif
    for (size_t i = 0; i < row_bytes; ++i) d[i] = IlluminatedByte(linear, s[i], row_factor[i]);
  }
}

}  // namespace tfgpuaug
