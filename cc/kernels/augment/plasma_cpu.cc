#include "cc/kernels/augment/plasma_cpu.h"

#include <algorithm>
#include <utility>

#include "cc/kernels/augment/plasma.h"

namespace tfgpuaug {
namespace {

// Grid [g, g] -> next [2g - 1, 2g - 1]: the old points plus noise, then the diamonds (odd rows
// and columns: their four diagonal neighbours), then the edge points (their four side
// neighbours, zero past the border), then min-max normalised.
void PlasmaStepCpu(uint32_t seed, int step, float scale, const float* grid, int g, float* next) {
  const int n = 2 * g - 1;
  auto noise = [&](int y, int x) {
    return PlasmaNoise(seed, step, uint32_t(y) * uint32_t(n) + uint32_t(x), scale);
  };
  for (int r = 0; r < g; ++r)
    for (int c = 0; c < g; ++c)
      next[size_t(2 * r) * n + 2 * c] = grid[size_t(r) * g + c] + noise(2 * r, 2 * c);
  for (int y = 1; y < n; y += 2) {
    const float* up = next + size_t(y - 1) * n;
    const float* down = next + size_t(y + 1) * n;
    for (int x = 1; x < n; x += 2)
      next[size_t(y) * n + x] = PlasmaPoint(up[x - 1], up[x + 1], down[x - 1], down[x + 1], noise(y, x));
  }
  for (int y = 0; y < n; ++y) {
    float* row = next + size_t(y) * n;
    for (int x = 1 - y % 2; x < n; x += 2) {
      const float north = y > 0 ? row[x - n] : 0.f, south = y < n - 1 ? row[x + n] : 0.f;
      const float west = x > 0 ? row[x - 1] : 0.f, east = x < n - 1 ? row[x + 1] : 0.f;
      row[x] = PlasmaPoint(north, west, east, south, noise(y, x));
    }
  }
  const size_t count = size_t(n) * n;
  const auto [low, high] = std::minmax_element(next, next + count);
  const float lo = *low, s = PlasmaScale(*low, *high);
  for (size_t i = 0; i < count; ++i) next[i] = (next[i] - lo) * s;
}

}  // namespace

void PlasmaPatternCpu(uint32_t seed, int h, int w, const float* scales, int steps, float* grid_a,
                      float* grid_b, float* out) {
  float* grid = grid_a;
  float* next = grid_b;
  int g = 3;
  for (int i = 0; i < 9; ++i) grid[i] = PlasmaNoise(seed, 0, uint32_t(i), 1.f);
  for (int s = 0; s < steps; ++s) {
    PlasmaStepCpu(seed, s + 1, scales[s], grid, g, next);
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
