// Albumentations' ElasticTransform displacement fields, drawn and blurred in one kernel:
// per sample, noise from the counter hash (standard normal by Box-Muller pairs, or uniform in
// (-1, 1)), blurred separably by a Gaussian kernel with replicated edges (cv2.GaussianBlur with
// BORDER_REPLICATE), scaled by alpha (divided by the noise's largest magnitude for normal
// noise, as Albumentations normalises it) and added to the pixel grid: cv2.remap maps
// [h, w, 2]. The per-element steps below are shared by the CPU loops and the CUDA kernels,
// which sum in the same order, so both devices give the same bits.
#ifndef TFGPUAUG_CC_KERNELS_WARP_ELASTIC_MAPS_H_
#define TFGPUAUG_CC_KERNELS_WARP_ELASTIC_MAPS_H_

#include <cstdint>

#include "cc/kernels/common/counter_hash.h"
#include "cc/kernels/common/host_device.h"
#include "cc/kernels/common/portable_math.h"

namespace tfgpuaug {

// Bounds the op checks before allocating: a side, the pixels of one field (its element
// indices are 32-bit hash counters), the blur kernel's taps.
constexpr int kMaxElasticSide = 1 << 15;
constexpr int64_t kMaxElasticPixels = int64_t{1} << 28;
constexpr int kMaxElasticTaps = (1 << 17) - 1;  // sigma up to 1e4 (ElasticTransform's bound): 80001

struct ElasticShape {
  int h, w;
  int fields;     // 2 (dx, dy), or 1 with same_dxdy
  bool gaussian;  // normal noise (normalised by its peak), else uniform
  int taps;       // the blur kernel's length, odd
};

// Element e of a sample's noise fields ([fields][h][w] in order): elements 2k and 2k + 1 take
// the cosine and sine normals of the Box-Muller pair of uniforms 2k and 2k + 1.
TFGPUAUG_HD float ElasticNoise(uint32_t seed, uint32_t e, bool gaussian) {
  if (!gaussian) return 2.f * HashUniform(seed, e) - 1.f;
  const uint32_t pair = e & ~1u;
  float z_cos, z_sin;
  GaussianPairFromUniforms(HashUniform(seed, pair), HashUniform(seed, pair + 1), &z_cos, &z_sin);
  return (e & 1u) ? z_sin : z_cos;
}

// The taps k of output position pos (of n along the axis) that read inside: pos + k - r in
// [0, n), r = taps / 2.
struct ElasticTapSpan {
  int first, end;
};
TFGPUAUG_HD ElasticTapSpan ElasticTapRange(int taps, int n, int pos) {
  const int r = taps / 2;
  ElasticTapSpan t;
  t.first = r - pos > 0 ? r - pos : 0;
  t.end = r + n - pos < taps ? r + n - pos : taps;
  if (t.end < t.first) t.end = t.first;
  return t;
}

// The weight of the taps that fall before the first element (they read it, replicated),
// summed from the first tap up; and of those past the last, summed from the last tap down.
TFGPUAUG_HD float ElasticLeftWeight(const float* kernel, int taps, int n, int pos) {
  const int first = ElasticTapRange(taps, n, pos).first;
  float s = 0.f;
  for (int k = 0; k < first; ++k) s += kernel[k];
  return s;
}
TFGPUAUG_HD float ElasticRightWeight(const float* kernel, int taps, int n, int pos) {
  const int end = ElasticTapRange(taps, n, pos).end;
  float s = 0.f;
  for (int k = taps - 1; k >= end; --k) s += kernel[k];
  return s;
}

// One blurred element: the replicated first element's weight first, then the taps inside from
// the first up, then the replicated last element's. `line` is the axis (stride between
// elements), `pos` the output position, left/right the edge weights above.
TFGPUAUG_HD float ElasticBlurAt(const float* kernel, int taps, const float* line, int64_t stride, int n,
                                int pos, float left, float right) {
  const ElasticTapSpan t = ElasticTapRange(taps, n, pos);
  const int r = taps / 2;
  float acc = left * line[0];
  for (int k = t.first; k < t.end; ++k) acc += kernel[k] * line[int64_t(pos + k - r) * stride];
  acc += right * line[int64_t(n - 1) * stride];
  return acc;
}

// The factor the blurred noise is multiplied by: alpha, over the noise's largest magnitude for
// normal noise (when above 1e-6, as Albumentations).
TFGPUAUG_HD float ElasticScale(float alpha, float peak, bool gaussian) {
  return gaussian && peak > 1e-6f ? alpha / peak : alpha;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_ELASTIC_MAPS_H_
