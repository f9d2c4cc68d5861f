#include "cc/kernels/augment/filter2d_cpu.h"

#include <vector>

#include "cc/kernels/augment/filter2d.h"
#include "cc/kernels/common/border.h"
#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

// A non-zero tap: its weight and its offset in the padded plane from the element it sums for.
struct Tap {
  size_t offset;
  float weight;
};

#if TFGPUAUG_HAVE_AVX2_LOOPS
// Filter2DByte of eight sums: max(sum, 0) first gives 0 for NaN; cvtps rounds to the nearest
// even, as rintf; ties up: the floor plus one where the exact remainder is at least a half.
__attribute__((target("avx2"))) inline void StoreSums8(__m256 sum, bool ties_up, uint8_t* dst) {
  const __m256 held = _mm256_min_ps(_mm256_max_ps(sum, _mm256_setzero_ps()), _mm256_set1_ps(255.f));
  if (!ties_up) return StoreLanes8(_mm256_cvtps_epi32(held), dst);
  const __m256 low = _mm256_floor_ps(held);
  const __m256 up = _mm256_cmp_ps(_mm256_sub_ps(held, low), _mm256_set1_ps(0.5f), _CMP_GE_OQ);
  StoreLanes8(_mm256_cvttps_epi32(_mm256_add_ps(low, _mm256_and_ps(up, _mm256_set1_ps(1.f)))), dst);
}

// Elements [0, n) of one output row: `row` points at the padded plane where the row's first
// element's top-left tap lies; each sum over the taps in order (fused multiply-adds, as
// Filter2DSum), then the byte. Sixty-four elements a step (eight accumulators: one weight
// broadcast and the loop's overhead shared by eight vectors), then eight. Returns where the
// vector loops stopped.
__attribute__((target("avx2,fma"))) size_t RowAvx2Fma(const float* row, size_t n, const Tap* taps,
                                                      size_t count, bool ties_up, uint8_t* out) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m256 a[8];
    for (int v = 0; v < 8; ++v) a[v] = _mm256_setzero_ps();
    for (size_t t = 0; t < count; ++t) {
      const float* p = row + taps[t].offset + i;
      const __m256 weight = _mm256_set1_ps(taps[t].weight);
      for (int v = 0; v < 8; ++v) a[v] = _mm256_fmadd_ps(weight, _mm256_loadu_ps(p + 8 * v), a[v]);
    }
    for (int v = 0; v < 8; ++v) StoreSums8(a[v], ties_up, out + i + 8 * v);
  }
  for (; i + 8 <= n; i += 8) {
    __m256 acc = _mm256_setzero_ps();
    for (size_t t = 0; t < count; ++t)
      acc = _mm256_fmadd_ps(_mm256_set1_ps(taps[t].weight), _mm256_loadu_ps(row + taps[t].offset + i), acc);
    StoreSums8(acc, ties_up, out + i);
  }
  return i;
}
#endif

}  // namespace

void Filter2DCpu(const uint8_t* image, int h, int w, int c, const float* kernel, int side, bool ties_up,
                 float* scratch, uint8_t* out) {
  const int r = Filter2DReach(kernel, side), centre = side / 2;
  const int padded_w = w + 2 * r;
  const size_t stride = size_t(padded_w) * c, n = size_t(w) * c;
  for (int py = 0; py < h + 2 * r; ++py) {  // the plane: rows and columns reflect-101 beyond the image
    const uint8_t* src = image + size_t(Reflect101(py - r, h)) * n;
    float* dst = scratch + size_t(py) * stride;
    for (int px = 0; px < padded_w; ++px) {
      const uint8_t* pixel = src + size_t(Reflect101(px - r, w)) * c;
      for (int k = 0; k < c; ++k) dst[size_t(px) * c + k] = float(pixel[k]);
    }
  }
  std::vector<Tap> taps;
  for (int i = -r; i <= r; ++i) {
    for (int j = -r; j <= r; ++j) {
      const float weight = kernel[(centre + i) * side + centre + j];
      if (weight != 0.f) taps.push_back({size_t(i + r) * stride + size_t(j + r) * c, weight});
    }
  }
  for (int y = 0; y < h; ++y) {
    const float* row = scratch + size_t(y) * stride;
    uint8_t* dst = out + size_t(y) * n;
    size_t i = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (CpuHasAvx2Fma()) i = RowAvx2Fma(row, n, taps.data(), taps.size(), ties_up, dst);
#endif
    for (; i < n; ++i) {
      float acc = 0.f;
      for (const Tap& t : taps) acc = fmaf(t.weight, row[t.offset + i], acc);
      dst[i] = Filter2DByte(acc, ties_up);
    }
  }
}

}  // namespace tfgpuaug
