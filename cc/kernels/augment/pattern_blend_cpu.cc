#include "cc/kernels/augment/pattern_blend_cpu.h"

#include <vector>

#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

// Flat loops over a row's bytes with the pattern spread to each byte, so they vectorize (AVX2
// clones where the CPU has it; the same operations per byte).
TFGPUAUG_VECTOR_CLONES void ShadowRow(const uint8_t* __restrict in, const float* __restrict p, int n,
                                      float intensity, uint8_t* __restrict out) {
  for (int j = 0; j < n; ++j) out[j] = PlasmaShadowByte(in[j], p[j], intensity);
}

TFGPUAUG_VECTOR_CLONES void BrightRow(const uint8_t* __restrict in, const float* __restrict p, int n,
                                      float brightness, float* __restrict x) {
  for (int j = 0; j < n; ++j) x[j] = PlasmaBrightened(in[j], p[j], brightness);
}

// At most 128 values: their fixed-point sum fits 32 bits.
TFGPUAUG_VECTOR_CLONES uint32_t ChunkSum(const float* __restrict x, int n) {
  uint32_t sum = 0;
  for (int j = 0; j < n; ++j) sum += PlasmaFixedPoint(x[j]);
  return sum;
}

// PlasmaContrastByte's parts as three loops over the row (`level` holds the parts between
// them): apart, each vectorizes; together GCC does not if-convert that many selects.
TFGPUAUG_VECTOR_CLONES void ContrastRow(const float* __restrict x, const float* __restrict p, int n,
                                        float contrast, float mean, float* __restrict level,
                                        uint8_t* __restrict out) {
  for (int j = 0; j < n; ++j) level[j] = PlasmaScaled(x[j], PlasmaContrastWeight(p[j], contrast));
  for (int j = 0; j < n; ++j)
    level[j] = PlasmaShiftedLevel(level[j], PlasmaContrastWeight(p[j], contrast), mean);
  for (int j = 0; j < n; ++j) out[j] = RoundThenClampToUint8(level[j]);
}

}  // namespace

void PatternBlendCpu(const uint8_t* image, int64_t h, int64_t w, int c, const float* pattern,
                     const float* factors, PatternBlendMode mode, uint8_t* out) {
  const int row = static_cast<int>(w * c);
  std::vector<float> buffers(3 * size_t(row));  // the pattern spread to each byte, x, the levels
  float* spread = buffers.data();
  float* x = spread + row;
  float* level = x + row;
  auto spread_row = [&](int64_t y) {
    const float* p = pattern + y * w;
    for (int64_t i = 0; i < w; ++i)
      for (int k = 0; k < c; ++k) spread[i * c + k] = p[i];
  };
  if (mode == PatternBlendMode::kShadow) {
    for (int64_t y = 0; y < h; ++y) {
      spread_row(y);
      ShadowRow(image + y * row, spread, row, factors[0], out + y * row);
    }
    return;
  }
  uint64_t sum = 0;  // x is computed twice a row: a buffer of the whole image would cost more
  for (int64_t y = 0; y < h; ++y) {
    spread_row(y);
    BrightRow(image + y * row, spread, row, factors[0], x);
    for (int j = 0; j < row; j += 128) sum += ChunkSum(x + j, row - j < 128 ? row - j : 128);
  }
  const float mean = PlasmaMean(sum, h * w * c);
  for (int64_t y = 0; y < h; ++y) {
    spread_row(y);
    BrightRow(image + y * row, spread, row, factors[0], x);
    ContrastRow(x, spread, row, factors[1], mean, level, out + y * row);
  }
}

}  // namespace tfgpuaug
