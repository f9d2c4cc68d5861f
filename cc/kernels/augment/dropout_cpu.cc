#include "cc/kernels/augment/dropout_cpu.h"

#include <algorithm>
#include <cstring>

#include "cc/kernels/augment/augment_avx2.h"
#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

// Decisions are made in chunks this long, so the flags stay on the stack and in L1.
constexpr size_t kChunk = 512;

void DropFlags(uint32_t seed, uint32_t stride, size_t first, size_t count, float probability, uint8_t* flags) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) return DropFlagsAvx2(seed, stride, first, count, probability, flags);
#endif
  for (size_t j = 0; j < count; ++j) flags[j] = HashUniform(seed, stride * uint32_t(first + j)) < probability;
}

// replace(j) for every j < count whose uniform (index stride * j of the stream) is below
// `probability`. The uniforms are in (0, 1): a probability of 0 (or NaN) replaces nothing.
template <typename Replace>
void ForEachDropped(uint32_t seed, uint32_t stride, size_t count, float probability, Replace replace) {
  if (!(probability > 0.f)) return;
  uint8_t flags[kChunk];
  for (size_t first = 0; first < count; first += kChunk) {
    const size_t m = std::min(kChunk, count - first);
    DropFlags(seed, stride, first, m, probability, flags);
    for (size_t j = 0; j < m; ++j)
      if (flags[j]) replace(first + j);
  }
}

}  // namespace

void ChannelDropoutCpu(const StageParams& stage_params, const uint8_t* src, const AugmentImage& image_info,
                       uint8_t* dst) {
  const size_t n = size_t(image_info.h) * image_info.w;
  const int c = image_info.c, bits = DroppedChannelBits(stage_params.param);
  const uint8_t level = LevelOf(stage_params.aux[1]);
  std::memcpy(dst, src, n * c);
  for (int k = 0; k < c; ++k) {
    if (!(bits & (1 << k))) continue;
    for (size_t i = 0; i < n; ++i) dst[i * c + k] = level;
  }
}

void PixelDropoutCpu(const StageParams& stage_params, const uint8_t* src, const AugmentImage& image_info,
                     uint8_t* dst) {
  const size_t n = size_t(image_info.h) * image_info.w;
  const int c = image_info.c;
  const uint32_t seed = stage_params.seed;
  const float level = stage_params.aux[1];
  std::memcpy(dst, src, n * c);
  if (stage_params.op == int(AugmentOp::kPixelDropoutPerChannel)) {
    ForEachDropped(seed, 2, n * c, stage_params.param,
                   [&](size_t e) { dst[e] = DropLevel(level, seed, 2 * uint32_t(e) + 1); });
    return;
  }
  ForEachDropped(seed, kPixelDropoutStride, n, stage_params.param, [&](size_t i) {
    const uint32_t base = kPixelDropoutStride * uint32_t(i);
    for (int k = 0; k < c; ++k) dst[i * c + k] = DropLevel(level, seed, base + 1 + uint32_t(k));
  });
}

void SaltAndPepperCpu(const StageParams& stage_params, const uint8_t* src, const AugmentImage& image_info,
                      uint8_t* dst) {
  const size_t n = size_t(image_info.h) * image_info.w;
  const int c = image_info.c;
  const uint32_t seed = stage_params.seed;
  std::memcpy(dst, src, n * c);
  ForEachDropped(seed, 2, n, stage_params.param, [&](size_t i) {
    std::memset(dst + i * c, HashUniform(seed, 2 * uint32_t(i) + 1) < stage_params.aux[1] ? 255 : 0, c);
  });
}

}  // namespace tfgpuaug
