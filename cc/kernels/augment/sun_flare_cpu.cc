#include "cc/kernels/augment/sun_flare_cpu.h"

#include <cstring>

#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

// The sun's tables T[i][k][v]: byte v of channel k through discs i .. m - 1, built backward
// (T[m] is the identity; T[i] = T[i + 1] after disc i's blend): what SunSteps gives per pixel.
void BuildSunTables(const SunFlarePlan& p, int c, uint8_t* tables) {
  uint8_t* last = tables + size_t(p.m) * c * 256;
  for (int k = 0; k < c; ++k) {
    for (int v = 0; v < 256; ++v) last[k * 256 + v] = static_cast<uint8_t>(v);
  }
  for (int i = p.m - 1; i >= 0; --i) {
    const uint8_t* next = tables + size_t(i + 1) * c * 256;
    uint8_t* t = tables + size_t(i) * c * 256;
    for (int k = 0; k < c; ++k) {
      for (int v = 0; v < 256; ++v) {
        t[k * 256 + v] = next[k * 256 + FlareBlend(p.weights[2 * i], p.weights[2 * i + 1], p.sun_colour[k],
                                                   static_cast<uint8_t>(v))];
      }
    }
  }
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
// The same with the fused multiply-add instruction (fmaf is a library call in the baseline build).
__attribute__((target("avx2,fma"))) void BuildSunTablesFma(const SunFlarePlan& p, int c, uint8_t* tables) {
  BuildSunTables(p, c, tables);
}
#endif

}  // namespace

size_t SunFlareScratchBytes(int m, int c) { return (size_t(m) + 1) * c * 256; }

void SunFlareCpu(const uint8_t* image, int h, int w, int c, const SunFlarePlan& p, uint8_t* tables,
                 uint8_t* out) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2Fma()) {
    BuildSunTablesFma(p, c, tables);
  } else {
    BuildSunTables(p, c, tables);
  }
#else
  BuildSunTables(p, c, tables);
#endif
  std::memcpy(out, image, size_t(h) * w * c);
  for (int y = 0; y < h; ++y) {
    // the flare circles only where one of them reaches this row: the columns between the
    // leftmost and rightmost of their spans
    int64_t left = w, right = -1;
    for (int j = 0; j < p.n; ++j) {
      const int64_t cx = p.circles[3 * j], dy = int64_t{y} - p.circles[3 * j + 1], r = p.circles[3 * j + 2];
      if (r < 0 || dy * dy > r * r) continue;
      left = left < cx - r ? left : cx - r;
      right = right > cx + r ? right : cx + r;
    }
    uint8_t* row = out + size_t(y) * w * c;
    for (int64_t x = left < 0 ? 0 : left; x <= right && x < w; ++x) {
      FlareCirclesPixel(p.circles, p.circle_weights, p.colours, p.n, c, static_cast<int>(x), y, row + x * c);
    }
    const int64_t dy = int64_t{y} - p.sun_y;
    for (int x = 0; x < w; ++x) {
      const int64_t dx = int64_t{x} - p.sun_x;
      const uint8_t* t = tables + size_t(SunDiscsMissing(dx * dx + dy * dy, p.radii, p.m)) * c * 256;
      for (int k = 0; k < c; ++k) row[x * c + k] = t[k * 256 + row[x * c + k]];
    }
  }
}

}  // namespace tfgpuaug
