// CPU loops of the separable float blur: each row reflected once into a padded line; then
// sixty-four or eight (AVX2) or one output at a time, every output the same fused multiply-adds in the same
// order as BlurAt (separable_blur.h), so both paths and the GPU give the same floats.
#include "cc/kernels/augment/separable_blur_cpu.h"

#include <cmath>
#include <vector>

#include "cc/kernels/augment/separable_blur.h"
#include "cc/kernels/common/border.h"
#include "cc/kernels/common/simd_x86.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS
#include <immintrin.h>
#endif

namespace tfgpuaug {
namespace {

// out[x] = the fused sum over k of kernel[k] src[k][x], k ascending from 0, for x < n.
void TapSumsScalar(const float* const* src, int count, const float* kernel, int n, float* out) {
  for (int x = 0; x < n; ++x) {
    float acc = 0.f;
    for (int k = 0; k < count; ++k) acc = std::fmaf(kernel[k], src[k][x], acc);
    out[x] = acc;
  }
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
// `lanes` vectors of eight outputs at a time: each tap's products go to `lanes` independent
// sums, enough to keep both fused multiply-add units busy past their latency.
template <int lanes>
__attribute__((target("avx2,fma"))) inline void TapSumsBlockAvx2(const float* const* src, int count,
                                                                 const float* kernel, int x, float* out) {
  __m256 acc[lanes];
  for (int j = 0; j < lanes; ++j) acc[j] = _mm256_setzero_ps();
  for (int k = 0; k < count; ++k) {
    const __m256 weight = _mm256_set1_ps(kernel[k]);
    const float* s = src[k] + x;
    for (int j = 0; j < lanes; ++j) acc[j] = _mm256_fmadd_ps(weight, _mm256_loadu_ps(s + 8 * j), acc[j]);
  }
  for (int j = 0; j < lanes; ++j) _mm256_storeu_ps(out + x + 8 * j, acc[j]);
}

__attribute__((target("avx2,fma"))) void TapSumsAvx2(const float* const* src, int count, const float* kernel,
                                                     int n, float* out) {
  int x = 0;
  for (; x + 64 <= n; x += 64) TapSumsBlockAvx2<8>(src, count, kernel, x, out);
  // the rest in halving blocks: one chain of eight would wait on each sum's latency
  if (x + 32 <= n) TapSumsBlockAvx2<4>(src, count, kernel, x, out), x += 32;
  if (x + 16 <= n) TapSumsBlockAvx2<2>(src, count, kernel, x, out), x += 16;
  if (x + 8 <= n) TapSumsBlockAvx2<1>(src, count, kernel, x, out), x += 8;
  for (; x < n; ++x) {
    float acc = 0.f;
    for (int k = 0; k < count; ++k) acc = std::fmaf(kernel[k], src[k][x], acc);
    out[x] = acc;
  }
}
#endif

void TapSums(const float* const* src, int count, const float* kernel, int n, float* out) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) return TapSumsAvx2(src, count, kernel, n, out);
#endif
  TapSumsScalar(src, count, kernel, n, out);
}

}  // namespace

size_t SeparableBlurScratchFloats(int h, int w, int taps) { return size_t(h) * w + size_t(w) + taps; }

void SeparableBlurCpu(const float* plane, int h, int w, const float* kernel, int taps, float* scratch,
                      float* out) {
  const BlurExtent e = BlurExtentOf(kernel, taps);
  if (e.first > e.last) {  // an all-zero kernel: every output 0
    for (size_t i = 0; i < size_t(h) * w; ++i) out[i] = 0.f;
    return;
  }
  const int reach = taps / 2, count = e.last - e.first + 1;
  const float* weights = kernel + e.first;
  // the border's source index of each padded position along a row and down a column, found once
  // (Reflect101 divides; the loops below must not, per value)
  thread_local std::vector<int> across_index, down_index;
  thread_local std::vector<const float*> sources;
  across_index.resize(size_t(w) + taps - 1);
  down_index.resize(size_t(h) + taps - 1);
  sources.resize(count);
  for (int j = 0; j < w + taps - 1; ++j) across_index[j] = Reflect101(j - reach, w);
  for (int j = 0; j < h + taps - 1; ++j) down_index[j] = Reflect101(j - reach, h);
  float* across = scratch;                  // the row pass, h x w
  float* padded = scratch + size_t(h) * w;  // one row, reflected: w + taps - 1
  for (int k = 0; k < count; ++k) sources[k] = padded + e.first + k;
  for (int y = 0; y < h; ++y) {
    const float* row = plane + size_t(y) * w;
    for (int j = 0; j < w + taps - 1; ++j) padded[j] = row[across_index[j]];
    TapSums(sources.data(), count, weights, w, across + size_t(y) * w);
  }
  for (int y = 0; y < h; ++y) {  // down the columns: each tap's row of the row pass, reflected
    for (int k = 0; k < count; ++k) sources[k] = across + size_t(down_index[y + e.first + k]) * w;
    TapSums(sources.data(), count, weights, w, out + size_t(y) * w);
  }
}

}  // namespace tfgpuaug
