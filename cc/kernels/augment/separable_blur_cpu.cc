// CPU loops of the separable float blur: each row reflected once into a padded line; then
// sixty-four or eight (AVX2) or one output at a time, every output the same fused multiply-adds in the same
// order as BlurAt (separable_blur.h), so both paths and the GPU give the same floats.
#include "cc/kernels/augment/separable_blur_cpu.h"

#include <cmath>
#include <cstdint>
#include <cstring>
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
// Down the columns, two output rows at once over a strip of `lanes` x 8 columns: row y's tap k
// reads the row that row y + 1's tap k - 1 read, so each row of the window is loaded once for
// both, and a strip's window of rows stays in the L1 cache while y moves down. `rows` holds the
// source row of row y's first tap, then the next ones (count + 1 entries).
template <int lanes>
__attribute__((target("avx2,fma"))) inline void ColumnPairAvx2(const float* across, size_t w, const int* rows,
                                                               int count, const float* kernel, int x,
                                                               float* out0, float* out1) {
  __m256 first[lanes], second[lanes], v[lanes];
  const float* r = across + size_t(rows[0]) * w + x;
  for (int j = 0; j < lanes; ++j) {
    first[j] = second[j] = _mm256_setzero_ps();
    v[j] = _mm256_loadu_ps(r + 8 * j);
  }
  for (int k = 0; k < count; ++k) {
    const __m256 weight = _mm256_set1_ps(kernel[k]);
    const float* next = across + size_t(rows[k + 1]) * w + x;
    for (int j = 0; j < lanes; ++j) {
      first[j] = _mm256_fmadd_ps(weight, v[j], first[j]);
      v[j] = _mm256_loadu_ps(next + 8 * j);
      second[j] = _mm256_fmadd_ps(weight, v[j], second[j]);
    }
  }
  for (int j = 0; j < lanes; ++j) {
    _mm256_storeu_ps(out0 + x + 8 * j, first[j]);
    _mm256_storeu_ps(out1 + x + 8 * j, second[j]);
  }
}

// The column pass of an h x w plane: pairs of rows strip by strip, the last row of an odd h and
// the columns past the last whole vector as TapSums computes them.
__attribute__((target("avx2,fma"))) void ColumnPassAvx2(const float* across, int h, int w, const int* down,
                                                        int count, const float* kernel, float* out) {
  const int whole = w & ~7;
  int x = 0;
  for (; x + 32 <= whole; x += 32)
    for (int y = 0; y + 1 < h; y += 2)
      ColumnPairAvx2<4>(across, size_t(w), down + y, count, kernel, x, out + size_t(y) * w,
                        out + size_t(y + 1) * w);
  for (; x < whole; x += 8)
    for (int y = 0; y + 1 < h; y += 2)
      ColumnPairAvx2<1>(across, size_t(w), down + y, count, kernel, x, out + size_t(y) * w,
                        out + size_t(y + 1) * w);
  for (int y = 0; y < h; ++y) {
    const int from = (y % 2 == 1 || y + 1 < h) ? whole : 0;  // an odd h's last row: every column
    float* o = out + size_t(y) * w;
    for (int c = from; c < w; ++c) {
      float acc = 0.f;
      for (int k = 0; k < count; ++k) acc = std::fmaf(kernel[k], across[size_t(down[y + k]) * w + c], acc);
      o[c] = acc;
    }
  }
}
#endif

void ColumnPass(const float* across, int h, int w, const int* down, int count, const float* kernel,
                const float** sources, float* out) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) return ColumnPassAvx2(across, h, w, down, count, kernel, out);
#endif
  for (int y = 0; y < h; ++y) {
    for (int k = 0; k < count; ++k) sources[k] = across + size_t(down[y + k]) * w;
    TapSumsScalar(sources, count, kernel, w, out + size_t(y) * w);
  }
}

void TapSums(const float* const* src, int count, const float* kernel, int n, float* out) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) return TapSumsAvx2(src, count, kernel, n, out);
#endif
  TapSumsScalar(src, count, kernel, n, out);
}

// The bits of value x of a row (a load; memcpy keeps it within the aliasing rules).
inline uint32_t BitsAt(const float* row, int x) {
  uint32_t bits;
  std::memcpy(&bits, row + x, sizeof(bits));
  return bits;
}

// Whether all w values of a row have the bits of its first, which is not NaN: a level row, as the
// physics flare's layer is wherever its sun's disc covers the row. Bits, not ==: a row of +0 and
// -0 takes the full sums (the same value). Sixteen compared a step without an early exit inside
// them, so they vectorize.
bool RowIsLevel(const float* row, int w) {
  if (!(row[0] == row[0])) return false;
  const uint32_t first = BitsAt(row, 0);
  int x = 1;
  for (; x + 16 <= w; x += 16) {
    uint32_t differ = 0;
    for (int k = 0; k < 16; ++k) differ |= BitsAt(row, x + k) ^ first;
    if (differ != 0) return false;
  }
  for (; x < w; ++x) {
    if (BitsAt(row, x) != first) return false;
  }
  return true;
}

// The sums every output of a level row takes: TapSums' fused multiply-adds in its order, one value.
float LevelTapSum(float level, int count, const float* kernel) {
  float acc = 0.f;
  for (int k = 0; k < count; ++k) acc = std::fmaf(kernel[k], level, acc);
  return acc;
}

}  // namespace

size_t SeparableBlurScratchFloats(int h, int w, int taps) { return size_t(h) * w + size_t(w) + taps; }

void SeparableBlurCpu(const float* plane, int h, int w, const float* kernel, int taps, float* scratch,
                      float* out) {
  if (h == 0 || w == 0) return;
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
  // The last level row's value and sums: a plane's level rows mostly share one value (the flare's
  // sun colour), whose 121 scalar fused multiply-adds took a tenth of the flare op, row after row.
  uint32_t level_bits = 0;
  float level_sum = 0.f;
  bool have_level = false;
  for (int y = 0; y < h; ++y) {
    const float* row = plane + size_t(y) * w;
    if (RowIsLevel(row, w)) {  // every output the same sums (reflections read the same level)
      if (!have_level || BitsAt(row, 0) != level_bits) {
        level_bits = BitsAt(row, 0);
        level_sum = LevelTapSum(row[0], count, weights);
        have_level = true;
      }
      for (int x = 0; x < w; ++x) across[size_t(y) * w + x] = level_sum;
      continue;
    }
    // the row itself in the middle (memcpy), the reach reflected values on each side gathered
    for (int j = 0; j < reach; ++j) padded[j] = row[across_index[j]];
    std::memcpy(padded + reach, row, sizeof(float) * size_t(w));
    for (int j = reach + w; j < w + taps - 1; ++j) padded[j] = row[across_index[j]];
    TapSums(sources.data(), count, weights, w, across + size_t(y) * w);
  }
  // down the columns: each tap's row of the row pass, reflected
  ColumnPass(across, h, w, down_index.data() + e.first, count, weights, sources.data(), out);
}

}  // namespace tfgpuaug
