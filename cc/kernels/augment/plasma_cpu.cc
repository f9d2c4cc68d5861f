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

// The least and largest of count floats (branch-free selects the compiler vectorizes).
void Bounds(const float* v, size_t count, float* low, float* high) {
  float lo = v[0], hi = v[0];
  for (size_t i = 0; i < count; ++i) {
    lo = v[i] < lo ? v[i] : lo;
    hi = v[i] > hi ? v[i] : hi;
  }
  *low = lo;
  *high = hi;
}

// Grid [g, g] -> next [2g - 1, 2g - 1]: the old points plus noise, then the diamonds (odd rows
// and columns: their four diagonal neighbours), then the edge points (their four side
// neighbours, zero past the border), then min-max normalised.
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
  for (int y = 0; y < n; ++y) {
    float* row = next + size_t(y) * n;
    const float* z = noise + size_t(y) * n;
    for (int x = 1 - y % 2; x < n; x += 2) {
      const float north = y > 0 ? row[x - n] : 0.f, south = y < n - 1 ? row[x + n] : 0.f;
      const float west = x > 0 ? row[x - 1] : 0.f, east = x < n - 1 ? row[x + 1] : 0.f;
      row[x] = PlasmaPoint(north, west, east, south, z[x]);
    }
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
