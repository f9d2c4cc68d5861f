#include "cc/kernels/warp/elastic_maps_cpu.h"

#include <algorithm>
#include <cmath>

#include "cc/kernels/common/random_avx2.h"
#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

// Noise elements [0, count) of a sample into out; returns their largest magnitude.
float NoiseScalar(uint32_t seed, uint32_t first, uint32_t count, bool gaussian, float* out) {
  float peak = 0.f;
  for (uint32_t e = first; e < count; ++e) {
    out[e] = ElasticNoise(seed, e, gaussian);
    peak = std::max(peak, std::fabs(out[e]));
  }
  return peak;
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
// The same noise sixteen elements a step (eight Box-Muller pairs, or sixteen uniforms), for the
// elements below count rounded down to 16; returns their peak and the count done.
__attribute__((target("avx2"))) float NoiseAvx2(uint32_t seed, uint32_t count, bool gaussian, float* out,
                                                uint32_t* done) {
  const __m256 sign = _mm256_set1_ps(-0.f);
  __m256 peak = _mm256_setzero_ps();
  const __m256i lane2 = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
  const __m256i lane1 = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  uint32_t e = 0;
  for (; e + 16 <= count; e += 16) {
    __m256 v[2];
    if (gaussian) {
      const __m256i pairs = _mm256_add_epi32(_mm256_set1_epi32(int(e)), lane2);
      __m256 z_sin;
      const __m256 z_cos =
          GaussianPair8(HashUniform8(seed, pairs),
                        HashUniform8(seed, _mm256_add_epi32(pairs, _mm256_set1_epi32(1))), &z_sin);
      const __m256 lo = _mm256_unpacklo_ps(z_cos, z_sin), hi = _mm256_unpackhi_ps(z_cos, z_sin);
      v[0] = _mm256_permute2f128_ps(lo, hi, 0x20);
      v[1] = _mm256_permute2f128_ps(lo, hi, 0x31);
    } else {
      for (int half = 0; half < 2; ++half) {
        const __m256i index = _mm256_add_epi32(_mm256_set1_epi32(int(e + 8 * half)), lane1);
        v[half] =
            _mm256_sub_ps(_mm256_mul_ps(_mm256_set1_ps(2.f), HashUniform8(seed, index)), _mm256_set1_ps(1.f));
      }
    }
    for (int half = 0; half < 2; ++half) {
      _mm256_storeu_ps(out + e + 8 * half, v[half]);
      peak = _mm256_max_ps(peak, _mm256_andnot_ps(sign, v[half]));
    }
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, peak);
  *done = e;
  return *std::max_element(lanes, lanes + 8);
}
#endif

// Field noise [fields][h][w] into out; returns its peak.
float Noise(uint32_t seed, uint32_t count, bool gaussian, float* out) {
  uint32_t done = 0;
  float peak = 0.f;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) peak = NoiseAvx2(seed, count, gaussian, out, &done);
#endif
  return std::max(peak, NoiseScalar(seed, done, count, gaussian, out));
}

// acc plus those of taps k .. k + 3 that reach output x inside the row, in tap order (p[x + j]
// is tap k + j's input): the outputs at the ends of a four-tap pass, which not every tap reaches.
inline float AddReachingTaps(const float* kernel, int k, int r, int n, const float* p, int x, float acc) {
  for (int j = 0; j < 4; ++j)
    if (x + k + j - r >= 0 && x + k + j - r < n) acc = acc + kernel[k + j] * p[x + j];
  return acc;
}

// ElasticBlurAt along one row of n for every position: out[x] from row[] (edge weights per x),
// each tap a vectorised multiply-add over the outputs it reaches (no contraction, so every
// element rounds as ElasticBlurAt's sum does), four taps per pass over the outputs all four
// reach, in tap order for each element.
TFGPUAUG_VECTOR_CLONES void BlurRow(const float* __restrict kernel, int taps, const float* __restrict row,
                                    int n, const float* __restrict left, const float* __restrict right,
                                    float* __restrict out) {
  const int r = taps / 2;
  for (int x = 0; x < n; ++x) out[x] = left[x] * row[0];
  int k = 0;
  for (; k + 4 <= taps; k += 4) {
    // tap j reaches outputs [max(0, r - j), min(n, n + r - j)): later taps start and end lower
    const int first = std::max(0, r - k), end = std::min(n, n + r - k - 3);
    const int lo = std::max(0, r - k - 3), hi = std::min(n, n + r - k);
    const float g0 = kernel[k], g1 = kernel[k + 1], g2 = kernel[k + 2], g3 = kernel[k + 3];
    const float* p = row + k - r;  // p[x + j] is tap k + j's input for output x
    // before the outputs all four reach: reached by the later taps only; after them: the earlier
    for (int x = lo; x < std::min(first, hi); ++x) out[x] = AddReachingTaps(kernel, k, r, n, p, x, out[x]);
    for (int x = first; x < end; ++x)
      out[x] = (((out[x] + g0 * p[x]) + g1 * p[x + 1]) + g2 * p[x + 2]) + g3 * p[x + 3];
    for (int x = std::max(std::max(end, first), lo); x < hi; ++x)
      out[x] = AddReachingTaps(kernel, k, r, n, p, x, out[x]);
  }
  for (; k < taps; ++k) {
    const int first = std::max(0, r - k), end = std::min(n, n + r - k);
    for (int x = first; x < end; ++x) out[x] = out[x] + kernel[k] * row[x + k - r];
  }
  for (int x = 0; x < n; ++x) out[x] = out[x] + right[x] * row[n - 1];
}

// rows x cols of src into dst as cols x rows, in blocks that stay in the cache.
void Transpose(const float* src, int rows, int cols, float* dst) {
  constexpr int kBlock = 32;
  for (int r0 = 0; r0 < rows; r0 += kBlock)
    for (int c0 = 0; c0 < cols; c0 += kBlock)
      for (int r = r0; r < std::min(rows, r0 + kBlock); ++r)
        for (int c = c0; c < std::min(cols, c0 + kBlock); ++c)
          dst[int64_t{c} * rows + r] = src[int64_t{r} * cols + c];
}

}  // namespace

float ElasticNoiseCpu(uint32_t seed, uint32_t count, bool gaussian, float* out) {
  return Noise(seed, count, gaussian, out);
}

void ElasticEdgeWeights(const float* kernel, int taps, int n, float* left, float* right) {
  for (int i = 0; i < n; ++i) {
    left[i] = ElasticLeftWeight(kernel, taps, n, i);
    right[i] = ElasticRightWeight(kernel, taps, n, i);
  }
}

void ElasticMapsCpu(const ElasticShape& s, const float* kernel, const ElasticEdges& edges, uint32_t seed,
                    float alpha, float* scratch, float* maps) {
  const int64_t plane = int64_t{s.h} * s.w;
  // the noise, planar, in the maps' own memory (it holds 2 planes; read before the maps are written)
  const float peak = Noise(seed, static_cast<uint32_t>(s.fields * plane), s.gaussian, maps);
  for (int64_t row = 0; row < s.fields * int64_t{s.h}; ++row)
    BlurRow(kernel, s.taps, maps + row * s.w, s.w, edges.left_w, edges.right_w, scratch + row * s.w);
  // the column blur as a row blur of the transposed planes: each line stays in the L1 cache
  // (the sums are ElasticBlurAt's, in its order, whichever way the plane lies)
  for (int f = 0; f < s.fields; ++f) Transpose(scratch + f * plane, s.h, s.w, maps + f * plane);
  for (int64_t line = 0; line < s.fields * int64_t{s.w}; ++line)
    BlurRow(kernel, s.taps, maps + line * s.h, s.h, edges.left_h, edges.right_h, scratch + line * s.h);
  const float scale = ElasticScale(alpha, peak, s.gaussian);
  const float* dx = scratch;  // [w][h]
  const float* dy = s.fields == 2 ? scratch + plane : scratch;
  for (int y = 0; y < s.h; ++y) {
    float* out = maps + int64_t{y} * s.w * 2;
    for (int x = 0; x < s.w; ++x) {
      const int64_t t = int64_t{x} * s.h + y;
      out[2 * x] = float(x) + dx[t] * scale;
      out[2 * x + 1] = float(y) + dy[t] * scale;
    }
  }
}

}  // namespace tfgpuaug
