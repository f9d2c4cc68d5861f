#include "cc/kernels/augment/unsharp_mask_cpu.h"

#include "cc/kernels/augment/unsharp_mask.h"
#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

// Elements [begin, end) of a row whose taps all fall inside it (x - r >= 0, x + r < width): the
// row tap sums without reflection, dc = the distance of one pixel; eight at a time with AVX2.
#if TFGPUAUG_HAVE_AVX2_LOOPS
__attribute__((target("avx2"))) size_t InteriorRowAvx2(const float* row, size_t begin, size_t end, size_t dc,
                                                       const float* w, int r, float* out) {
  size_t i = begin;
  const __m256 centre = _mm256_set1_ps(w[r]);
  for (; i + 8 <= end; i += 8) {
    __m256 acc = _mm256_mul_ps(centre, _mm256_loadu_ps(row + i));
    for (int d = 1; d <= r; ++d) {
      const __m256 pair = _mm256_add_ps(_mm256_loadu_ps(row + i - d * dc), _mm256_loadu_ps(row + i + d * dc));
      acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_set1_ps(w[r + d]), pair));
    }
    _mm256_storeu_ps(out + i, acc);
  }
  return i;
}

// Every element of row y of the column pass, eight at a time.
__attribute__((target("avx2"))) size_t ColumnRowAvx2(const float* plane, int height, size_t stride, int y,
                                                     const float* w, int r, float* out) {
  size_t i = 0;
  const float* centre_row = plane + size_t(y) * stride;
  const __m256 centre = _mm256_set1_ps(w[r]);
  for (; i + 8 <= stride; i += 8) {
    __m256 acc = _mm256_mul_ps(centre, _mm256_loadu_ps(centre_row + i));
    for (int d = 1; d <= r; ++d) {
      const float* up = plane + size_t(Reflect101(y - d, height)) * stride;
      const float* down = plane + size_t(Reflect101(y + d, height)) * stride;
      acc = _mm256_add_ps(acc,
                          _mm256_mul_ps(_mm256_set1_ps(w[r + d]),
                                        _mm256_add_ps(_mm256_loadu_ps(up + i), _mm256_loadu_ps(down + i))));
    }
    _mm256_storeu_ps(out + i, acc);
  }
  return i;
}

// UnitLevel of n bytes, eight at a time.
__attribute__((target("avx2"))) size_t LevelsAvx2(const uint8_t* image, size_t n, float* out) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_div_ps(LoadBytes8(image + i), _mm256_set1_ps(255.f)));
  return i;
}

// UnsharpMaskBit of n levels and their blur, in place of the levels.
__attribute__((target("avx2"))) size_t MaskAvx2(float* levels, const float* blur, size_t n, float threshold) {
  size_t i = 0;
  const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  for (; i + 8 <= n; i += 8) {
    const __m256 diff =
        _mm256_and_ps(_mm256_sub_ps(_mm256_loadu_ps(levels + i), _mm256_loadu_ps(blur + i)), magnitude);
    const __m256 over =
        _mm256_cmp_ps(_mm256_mul_ps(diff, _mm256_set1_ps(255.f)), _mm256_set1_ps(threshold), _CMP_GT_OQ);
    _mm256_storeu_ps(levels + i, _mm256_and_ps(over, _mm256_set1_ps(1.f)));
  }
  return i;
}

// UnsharpByte of n bytes with their blur and soft mask. The clamps take max(x, 0) first, which
// gives 0 for NaN as the scalar code does.
__attribute__((target("avx2"))) size_t CombineAvx2(const uint8_t* image, const float* blur, const float* soft,
                                                   size_t n, float alpha, uint8_t* out) {
  size_t i = 0;
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f), c255 = _mm256_set1_ps(255.f);
  for (; i + 8 <= n; i += 8) {
    const __m256 level = _mm256_div_ps(LoadBytes8(image + i), c255);
    const __m256 s = _mm256_loadu_ps(soft + i);
    __m256 sharp = _mm256_add_ps(
        level, _mm256_mul_ps(_mm256_set1_ps(alpha), _mm256_sub_ps(level, _mm256_loadu_ps(blur + i))));
    sharp = _mm256_min_ps(_mm256_max_ps(sharp, zero), one);
    const __m256 mixed = _mm256_add_ps(_mm256_mul_ps(sharp, s), _mm256_mul_ps(level, _mm256_sub_ps(one, s)));
    const __m256 clipped = _mm256_min_ps(_mm256_max_ps(mixed, zero), one);
    StoreLanes8(_mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(clipped, c255),
                                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)),
                out + i);
  }
  return i;
}
#endif

// The row pass of a float plane into `out`.
void RowPass(const float* plane, int h, int w, int c, const float* weights, int r, float* out) {
  const size_t stride = size_t(w) * c;
  for (int y = 0; y < h; ++y) {
    const float* row = plane + size_t(y) * stride;
    float* o = out + size_t(y) * stride;
    // the interior, [r c, (w - r) c), needs no reflection; a row of 2 r pixels or fewer has none
    const size_t begin = w > 2 * r ? size_t(r) * c : stride, end = w > 2 * r ? size_t(w - r) * c : stride;
    size_t done = begin;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (CpuHasAvx2()) done = InteriorRowAvx2(row, begin, end, c, weights, r, o);
#endif
    for (size_t i = done; i < end; ++i) o[i] = UnsharpRowSum(row, w, c, int(i / c), int(i % c), weights, r);
    for (size_t i = 0; i < begin; ++i) o[i] = UnsharpRowSum(row, w, c, int(i / c), int(i % c), weights, r);
    for (size_t i = end; i < stride; ++i) o[i] = UnsharpRowSum(row, w, c, int(i / c), int(i % c), weights, r);
  }
}

}  // namespace

void UnsharpMaskCpu(const uint8_t* image, int h, int w, int c, const float* kernel, int taps, float alpha,
                    float threshold, float* scratch, uint8_t* out) {
  const int r = UnsharpReach(kernel, taps);
  const float* weights = kernel + taps / 2 - r;
  const size_t stride = size_t(w) * c, n = size_t(h) * stride;
  float* levels = scratch;  // the levels, later the mask
  float* rows = scratch + n;
  float* blur = scratch + 2 * n;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  const bool avx2 = CpuHasAvx2();
#endif
  size_t done = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (avx2) done = LevelsAvx2(image, n, levels);
#endif
  for (size_t i = done; i < n; ++i) levels[i] = UnitLevel(image[i]);
  RowPass(levels, h, w, c, weights, r, rows);
  for (int y = 0; y < h; ++y) {
    size_t column = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (avx2) column = ColumnRowAvx2(rows, h, stride, y, weights, r, blur + size_t(y) * stride);
#endif
    for (size_t i = column; i < stride; ++i)
      blur[size_t(y) * stride + i] = UnsharpColumnSum(rows, h, stride, i, y, weights, r);
  }
  done = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (avx2) done = MaskAvx2(levels, blur, n, threshold);
#endif
  for (size_t i = done; i < n; ++i) levels[i] = UnsharpMaskBit(levels[i], blur[i], threshold);
  RowPass(levels, h, w, c, weights, r, rows);
  float* soft = levels;  // the mask is done with: its blur goes there, a row at a time
  for (int y = 0; y < h; ++y) {
    size_t column = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (avx2) column = ColumnRowAvx2(rows, h, stride, y, weights, r, soft);
#endif
    for (size_t i = column; i < stride; ++i) soft[i] = UnsharpColumnSum(rows, h, stride, i, y, weights, r);
    const size_t at = size_t(y) * stride;
    size_t combined = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (avx2) combined = CombineAvx2(image + at, blur + at, soft, stride, alpha, out + at);
#endif
    for (size_t i = combined; i < stride; ++i)
      out[at + i] = UnsharpByte(image[at + i], blur[at + i], soft[i], alpha);
  }
}

}  // namespace tfgpuaug
