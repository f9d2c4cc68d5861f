#include "cc/kernels/augment/dropout_cpu.h"

#include <algorithm>
#include <cstring>

#include "cc/kernels/augment/augment_avx2.h"
#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

// Decisions are made in chunks this long, so their bits stay on the stack and in L1.
constexpr size_t kChunk = 512;

// Bit j % 8 of bits[j / 8]: whether uniform stride * (first + j) of the stream is below
// `probability`, for j < count.
void DropBits(uint32_t seed, uint32_t stride, size_t first, size_t count, float probability, uint8_t* bits) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) return DropBitsAvx2(seed, stride, first, count, probability, bits);
#endif
  std::memset(bits, 0, (count + 7) / 8);
  for (size_t j = 0; j < count; ++j)
    if (HashUniform(seed, stride * uint32_t(first + j)) < probability) bits[j / 8] |= uint8_t(1u << (j % 8));
}

// replace(j) for every j < count whose uniform (index stride * j of the stream) is below
// `probability`, eight decisions a byte so the common case (none of eight) costs one test.
// The uniforms are in (0, 1): a probability of 0 (or NaN) replaces nothing.
template <typename Replace>
void ForEachDropped(uint32_t seed, uint32_t stride, size_t count, float probability, Replace replace) {
  if (!(probability > 0.f)) return;
  uint8_t bits[kChunk / 8];
  for (size_t first = 0; first < count; first += kChunk) {
    const size_t m = std::min(kChunk, count - first);
    DropBits(seed, stride, first, m, probability, bits);
    for (size_t g = 0; g < (m + 7) / 8; ++g)
      for (unsigned b = bits[g]; b != 0; b &= b - 1) replace(first + 8 * g + size_t(__builtin_ctz(b)));
  }
}

}  // namespace

void ChannelDropoutCpu(const StageParams& stage_params, const uint8_t* src, const AugmentImage& image_info,
                       uint8_t* dst) {
  // One flat pass: byte & keep | fill, with the channel pattern laid out over 48 bytes (a
  // multiple of every channel count 1 .. 4), which the compiler vectorizes.
  constexpr size_t kPeriod = 48;
  const int c = image_info.c, bits = DroppedChannelBits(stage_params.param);
  const uint8_t level = LevelOf(stage_params.aux[1]);
  uint8_t keep[kPeriod], fill[kPeriod];
  for (size_t j = 0; j < kPeriod; ++j) {
    const bool dropped = (bits >> (j % c)) & 1;
    keep[j] = dropped ? 0 : 0xFF;
    fill[j] = dropped ? level : 0;
  }
  const size_t bytes = size_t(image_info.h) * image_info.w * c;
  size_t i = 0;
  for (; i + kPeriod <= bytes; i += kPeriod)
    for (size_t j = 0; j < kPeriod; ++j) dst[i + j] = (src[i + j] & keep[j]) | fill[j];
  for (; i < bytes; ++i) dst[i] = (src[i] & keep[i % kPeriod]) | fill[i % kPeriod];
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
