#include "cc/kernels/augment/noise_cpu.h"

#include <cstddef>
#include <vector>

#include "cc/kernels/augment/additive_noise_avx2.h"
#include "cc/kernels/augment/augment_avx2.h"
#include "cc/kernels/common/random_avx2.h"
#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {

void MultiplicativeNoiseCpu(const StageParams& stage_params, const uint8_t* src,
                            const AugmentImage& image_info, uint8_t* dst) {
  const size_t n = size_t(image_info.h) * image_info.w;
  const int c = image_info.c;
  const bool per_channel = stage_params.op == int(AugmentOp::kMultiplicativeNoisePerChannel);
  const float low = stage_params.param, high = stage_params.aux[1];
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2() && c <= 4)
    return MultiplicativeNoiseAvx2(src, n, c, per_channel, stage_params.seed, low, high, dst);
#endif
  for (size_t i = 0; i < n; ++i)
    MultiplicativeNoisePixel(per_channel, stage_params.seed, uint32_t(i), low, high, src + i * c, c,
                             dst + i * c);
}

void AdditiveNoiseCpu(const StageParams& stage_params, const uint8_t* src, const AugmentImage& image_info,
                      uint8_t* dst) {
  const size_t n = size_t(image_info.h) * image_info.w;
  const int c = image_info.c;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2())
    return AdditiveNoiseAvx2(stage_params.op, stage_params.seed, stage_params.param, stage_params.aux[1], src,
                             n, c, dst);
#endif
  for (size_t i = 0; i < n; ++i)
    AdditiveNoisePixel(stage_params.op, stage_params.seed, uint32_t(i), stage_params.param,
                       stage_params.aux[1], src + i * c, c, dst + i * c);
}

namespace {

// The running sums PoissonFromUniform reaches for mean lambda, in its float operations and
// order (sums[k] after k steps, k < kMaxPoissonCount), and a guide into them: guide[j], the
// count for u = j / kGuides. The sums never decrease (non-negative terms), so the count the
// loop returns for u, the first k with u <= sums[k] (capped), is the number of sums below u,
// at least guide[floor(u kGuides)]: a short scan from there replaces the loop's multiplies.
constexpr int kGuides = 64;
struct PoissonTable {
  float sums[kMaxPoissonCount];
  uint8_t guide[kGuides];
};

void BuildPoissonTable(float lambda, float p0, PoissonTable* t) {
  float p = p0, sum = p0;
  t->sums[0] = sum;
  for (int k = 1; k < kMaxPoissonCount; ++k) {
    p *= lambda / float(k);
    sum += p;
    t->sums[k] = sum;
  }
  int k = 0;
  for (int j = 0; j < kGuides; ++j) {
    const float u = float(j) / float(kGuides);  // exact
    while (k < kMaxPoissonCount && u > t->sums[k]) ++k;
    t->guide[j] = uint8_t(k);
  }
}

inline int PoissonCount(const PoissonTable& t, float u) {
  int k = t.guide[static_cast<int>(u * float(kGuides))];  // u < 1: below kGuides
  while (k < kMaxPoissonCount && u > t.sums[k]) ++k;
  return k;
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
// u[j] = HashUniform(seed, 2 (first + j)) for j < n (32-bit indices, wrapping as the scalar's),
// eight at a time: the hash is most of a byte's work when the count is a short scan.
__attribute__((target("avx2"))) void ShotUniformsAvx2(uint32_t seed, uint32_t first, int n, float* u) {
  const __m256i step = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
  int j = 0;
  for (; j + 8 <= n; j += 8)
    _mm256_storeu_ps(u + j,
                     HashUniform8(seed, _mm256_add_epi32(_mm256_set1_epi32(int(2 * (first + j))), step)));
  for (; j < n; ++j) u[j] = HashUniform(seed, 2 * (first + uint32_t(j)));
}
#endif

}  // namespace

void ShotNoiseCpu(const StageParams& stage_params, const uint8_t* src, const AugmentImage& image_info,
                  uint8_t* dst) {
  const float scale = ShotScale(stage_params.param);
  const size_t bytes = size_t(image_info.h) * image_info.w * image_info.c;
  // per input level: its mean and, below the inversion limit, its table (built on first use: a
  // photo holds most levels, a flat image a few; the storage is the thread's, kept across images)
  float lambda[256];
  bool built[256] = {};
  thread_local std::vector<PoissonTable> storage(256);
  PoissonTable* tables = storage.data();  // one thread-local lookup, not one a byte
  for (int v = 0; v < 256; ++v) lambda[v] = ShotMean(uint8_t(v), scale);
  // ShotLevel of the counts inversion gives and of the approximation's smaller ones
  constexpr int kLevels = 1024;
  static_assert(kLevels > kMaxPoissonCount, "every inverted count has its level");
  uint8_t level[kLevels];
  const int levels =
      lambda[255] < kShotInversionLimit ? kMaxPoissonCount + 1 : kLevels;  // 255: the largest mean
  for (int k = 0; k < levels; ++k) level[k] = ShotLevel(float(k), scale);
  const uint32_t seed = stage_params.seed;
  // the level of an inverted byte of input level v for uniform u (its table built on first use)
  const auto inverted = [&](uint8_t v, float u) {
    if (!built[v]) {
      BuildPoissonTable(lambda[v], ExpNonPositive(-lambda[v]), &tables[v]);
      built[v] = true;
    }
    return level[PoissonCount(tables[v], u)];
  };
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (levels == kMaxPoissonCount + 1 && CpuHasAvx2()) {  // every level inverts: uniforms in blocks
    constexpr int kBlock = 256;
    float u[kBlock];
    for (size_t e0 = 0; e0 < bytes; e0 += kBlock) {
      const int m = bytes - e0 < size_t(kBlock) ? int(bytes - e0) : kBlock;
      ShotUniformsAvx2(seed, uint32_t(e0), m, u);
      for (int j = 0; j < m; ++j) dst[e0 + j] = inverted(src[e0 + j], u[j]);
    }
    return;
  }
#endif
  for (size_t e = 0; e < bytes; ++e) {
    const uint8_t v = src[e];
    if (!(lambda[v] < kShotInversionLimit)) {
      const float count = ShotCount(seed, uint32_t(e), lambda[v], 0.f);
      dst[e] = count < float(kLevels) ? level[static_cast<int>(count)] : ShotLevel(count, scale);
      continue;
    }
    dst[e] = inverted(v, HashUniform(seed, 2 * uint32_t(e)));
  }
}

}  // namespace tfgpuaug
