#include "cc/kernels/augment/plasma_cpu.h"

#include <algorithm>
#include <utility>

#include "cc/kernels/augment/plasma.h"
#include "cc/kernels/common/simd_x86.h"
#if TFGPUAUG_HAVE_AVX2_LOOPS
#include "cc/kernels/common/random_avx2.h"
#endif

namespace tfgpuaug {
namespace {

#if TFGPUAUG_HAVE_AVX2_LOOPS
// PlasmaNoise of points 0 .. count - 1, eight at a time: HashUniform8, then the same multiply
// and subtract as the scalar function (no fused multiply-add), so the same floats.
__attribute__((target("avx2"))) void PlasmaNoiseAvx2(uint32_t seed, int step, float scale, uint32_t count,
                                                     float* out) {
  const uint32_t mixed = seed + static_cast<uint32_t>(step) * 0x632BE5ABu;
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256 two = _mm256_set1_ps(2.f), one = _mm256_set1_ps(1.f), s = _mm256_set1_ps(scale);
  uint32_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const __m256 u = HashUniform8(mixed, _mm256_add_epi32(_mm256_set1_epi32(int(i)), lanes));
    _mm256_storeu_ps(out + i, _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(u, two), one), s));
  }
  for (; i < count; ++i) out[i] = PlasmaNoise(seed, step, i, scale);
}
#endif

// PlasmaNoise of points 0 .. count - 1 of a step's grid, in order.
void PlasmaNoisePlane(uint32_t seed, int step, float scale, uint32_t count, float* out) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) return PlasmaNoiseAvx2(seed, step, scale, count, out);
#endif
  for (uint32_t i = 0; i < count; ++i) out[i] = PlasmaNoise(seed, step, i, scale);
}

// The least and largest of count floats (order does not matter to either).
#if TFGPUAUG_HAVE_AVX2_LOOPS
__attribute__((target("avx2"))) void BoundsAvx2(const float* v, size_t count, float* low, float* high) {
  __m256 lo = _mm256_set1_ps(v[0]), hi = lo;
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const __m256 x = _mm256_loadu_ps(v + i);
    lo = _mm256_min_ps(lo, x);
    hi = _mm256_max_ps(hi, x);
  }
  alignas(32) float l[8], h[8];
  _mm256_store_ps(l, lo);
  _mm256_store_ps(h, hi);
  for (; i < count; ++i) {
    l[0] = v[i] < l[0] ? v[i] : l[0];
    h[0] = v[i] > h[0] ? v[i] : h[0];
  }
  *low = *std::min_element(l, l + 8);
  *high = *std::max_element(h, h + 8);
}
#endif

void Bounds(const float* v, size_t count, float* low, float* high) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) return BoundsAvx2(v, count, low, high);
#endif
  float lo = v[0], hi = v[0];
  for (size_t i = 0; i < count; ++i) {
    lo = v[i] < lo ? v[i] : lo;
    hi = v[i] > hi ? v[i] : hi;
  }
  *low = lo;
  *high = hi;
}

void PlasmaStepCpu(uint32_t seed, int step, float scale, const float* grid, int g, float* noise,
                   float* next) {
  const int n = 2 * g - 1;
  PlasmaNoisePlane(seed, step, scale, uint32_t(n) * uint32_t(n), noise);
  for (int r = 0; r < g; ++r) {
    const float* from = grid + size_t(r) * g;
    const float* z = noise + size_t(2 * r) * n;
    float* to = next + size_t(2 * r) * n;
    for (int c = 0; c < g; ++c) to[2 * c] = from[c] + z[2 * c];
  }
  for (int y = 1; y < n; y += 2) {
    const float* up = next + size_t(y - 1) * n;
    const float* down = next + size_t(y + 1) * n;
    const float* z = noise + size_t(y) * n;
    float* row = next + size_t(y) * n;
    for (int x = 1; x < n; x += 2) row[x] = PlasmaPoint(up[x - 1], up[x + 1], down[x - 1], down[x + 1], z[x]);
  }
  // edge points: on even rows between two old points (a diamond row above and below, or none
  // past the border), on odd rows between two diamonds (none past the ends) under and over old
  for (int y = 0; y < n; y += 2) {
    float* row = next + size_t(y) * n;
    const float* z = noise + size_t(y) * n;
    const float* up = y > 0 ? row - n : nullptr;
    const float* down = y < n - 1 ? row + n : nullptr;
    for (int x = 1; x < n; x += 2) {
      row[x] = PlasmaPoint(up ? up[x] : 0.f, row[x - 1], row[x + 1], down ? down[x] : 0.f, z[x]);
    }
  }
  for (int y = 1; y < n; y += 2) {
    float* row = next + size_t(y) * n;
    const float* z = noise + size_t(y) * n;
    const float* up = row - n;
    const float* down = row + n;
    row[0] = PlasmaPoint(up[0], 0.f, row[1], down[0], z[0]);
    for (int x = 2; x < n - 1; x += 2) row[x] = PlasmaPoint(up[x], row[x - 1], row[x + 1], down[x], z[x]);
    row[n - 1] = PlasmaPoint(up[n - 1], row[n - 2], 0.f, down[n - 1], z[n - 1]);
  }
  const size_t count = size_t(n) * n;
  float lo, hi;
  Bounds(next, count, &lo, &hi);
  const float s = PlasmaScale(lo, hi);
  for (size_t i = 0; i < count; ++i) next[i] = (next[i] - lo) * s;
}

}  // namespace

void PlasmaPatternCpu(uint32_t seed, int h, int w, const float* scales, int steps, float* grid_a,
                      float* grid_b, float* noise, float* out) {
  float* grid = grid_a;
  float* next = grid_b;
  int g = 3;
  for (int i = 0; i < 9; ++i) grid[i] = PlasmaNoise(seed, 0, uint32_t(i), 1.f);
  for (int s = 0; s < steps; ++s) {
    PlasmaStepCpu(seed, s + 1, scales[s], grid, g, noise, next);
    std::swap(grid, next);
    g = 2 * g - 1;
  }
  float lo = grid[0], hi = grid[0];
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      lo = std::min(lo, grid[size_t(y) * g + x]);
      hi = std::max(hi, grid[size_t(y) * g + x]);
    }
  const float scale = PlasmaScale(lo, hi);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      out[size_t(y) * w + x] = std::min(std::max((grid[size_t(y) * g + x] - lo) * scale, 0.f), 1.f);
}

}  // namespace tfgpuaug
