#include "cc/kernels/augment/augment_cpu.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cc/kernels/augment/augment_avx2.h"
#include "cc/kernels/augment/border_padding_cpu.h"
#include "cc/kernels/augment/box_blur_cpu.h"
#include "cc/kernels/augment/clahe_cpu.h"
#include "cc/kernels/augment/dihedral_cpu.h"
#include "cc/kernels/augment/dropout_cpu.h"
#include "cc/kernels/augment/illumination_cpu.h"
#include "cc/kernels/augment/noise_cpu.h"
#include "cc/kernels/common/simd_x86.h"
#include "cc/kernels/warp/warp_cpu.h"

namespace tfgpuaug {
namespace {

void Histograms(const uint8_t* src, const AugmentImage& image_info, uint32_t* hist) {
  // Even and odd pixels count into separate tables: neighbouring pixels often share a
  // value, and back-to-back increments of one counter would wait on each other.
  uint32_t odd[4 * 256];
  std::memset(hist, 0, sizeof(uint32_t) * 256 * image_info.c);
  std::memset(odd, 0, sizeof(uint32_t) * 256 * image_info.c);
  const size_t n = size_t(image_info.h) * image_info.w, c = image_info.c;
  size_t i = 0;
  for (; i + 1 < n; i += 2) {
    for (size_t k = 0; k < c; ++k) {
      ++hist[k * 256 + src[i * c + k]];
      ++odd[k * 256 + src[(i + 1) * c + k]];
    }
  }
  for (; i < n; ++i)
    for (size_t k = 0; k < c; ++k) ++hist[k * 256 + src[i * c + k]];
  for (size_t j = 0; j < 256 * c; ++j) hist[j] += odd[j];
}

// ImageEnhance.Color of an RGB image: each channel blended with the pixel's luma.
void ColorRgb(const uint8_t* src, size_t n, float param, uint8_t* dst) {
  size_t i = 0;
#if TFGPUAUG_HAVE_SSE2
  // BlendPil on four lanes; the last pixel stays scalar (its 4-byte load would overrun).
  const __m128 alpha = _mm_set1_ps(param), lo = _mm_setzero_ps(), hi = _mm_set1_ps(255.f);
  for (; i + 1 < n; ++i) {
    const uint8_t* px = src + 3 * i;
    const __m128 gray = _mm_set1_ps(float(RgbToLuma(px[0], px[1], px[2])));
    const __m128 t = Lerp4(gray, LoadPixel4(px), alpha);
    StoreTruncated(_mm_min_ps(_mm_max_ps(t, lo), hi), 3, dst + 3 * i);
  }
#endif
  for (; i < n; ++i) {
    const uint8_t* px = src + 3 * i;
    const uint8_t gray = RgbToLuma(px[0], px[1], px[2]);
    for (int k = 0; k < 3; ++k) dst[3 * i + k] = BlendPil(gray, px[k], param);
  }
}

// PIL: int(mean of the L image + 0.5); the L image of a gray image is itself.
int LumaMean(const uint8_t* src, const AugmentImage& image_info) {
  const size_t n = size_t(image_info.h) * image_info.w;
  uint64_t sum = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = src + i * image_info.c;
    sum += image_info.c >= 3 ? RgbToLuma(p[0], p[1], p[2]) : p[0];
  }
  return static_cast<int>(double(sum) / double(n) + 0.5);
}

// iso_noise on an RGB(A) image: the per-pixel function in one flat loop, alpha copied.
void IsoNoiseCpu(const StageParams& s, const uint8_t* src, const AugmentImage& image_info, uint8_t* dst) {
  const size_t n = size_t(image_info.h) * image_info.w;
  const int c = image_info.c;
  const float intensity = Clamped(s.param, 0.f, kMaxIsoIntensity);
  const float color_sigma = Clamped(s.aux[1], 0.f, 1.f) * intensity;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2())
    return IsoNoiseAvx2(src, n, c, s.seed, intensity, color_sigma, s.iso_lambda, s.iso_p0, dst);
#endif
  for (size_t i = 0; i < n; ++i) {
    IsoNoisePixel(s.seed, static_cast<uint32_t>(i), intensity, color_sigma, s.iso_lambda, s.iso_p0,
                  src + i * c, dst + i * c);
    for (int k = 3; k < c; ++k) dst[i * c + k] = src[i * c + k];
  }
}

// Interior bytes of one row of a 1- or 3-channel image (all channels sharpened), as the
// per-pixel code computes them; written as one flat loop so that it vectorises.
template <int C>
TFGPUAUG_VECTOR_CLONES void SharpenRowT(const uint8_t* s, size_t row, float param, uint8_t* o) {
  for (size_t i = C; i + C < row; ++i) o[i] = BlendPil(SmoothPilAt(s + i, row, C), s[i], param);
}

void SharpenRow(const uint8_t* s, size_t row, int c, float param, uint8_t* o) {
  if (c == 3) return SharpenRowT<3>(s, row, param, o);
  if (c == 1) return SharpenRowT<1>(s, row, param, o);
  for (size_t i = c; i + c < row; ++i) o[i] = BlendPil(SmoothPilAt(s + i, row, c), s[i], param);
}

// Gaussian blur, separably: each source row's horizontal sums (BlurRowSum's) once, into a ring
// of 2r + 1 rows (the rows one output row reads, reflected ones included, fall in distinct
// slots), then each output row's vertical sums in BlurPixel's order: bit-identical to the
// per-pixel (GPU) function. AVX2 with FMA 32 values a step, fmaf for the rest.
void GaussianBlurCpu(const uint8_t* src, const AugmentImage& image_info, const StageParams& stage_params,
                     uint8_t* dst) {
  const int r = stage_params.blur_radius, c = image_info.c, h = image_info.h, slots = 2 * r + 1;
  const float* w = stage_params.blur;
  const size_t row = size_t(image_info.w) * c;
  if (r == 0) {
    std::memcpy(dst, src, row * h);
    return;
  }
  // Scratch per pool thread, reused; raw pointers so the loops do not look up the
  // thread-local storage on every access.
  thread_local std::vector<float> ring_storage;
  thread_local std::vector<uint8_t> padded_row;
  ring_storage.resize(row * slots);
  padded_row.resize(size_t(image_info.w + 2 * r) * c);
  float* ring = ring_storage.data();
  const uint8_t* centre = padded_row.data() + size_t(r) * c;
  int held[2 * kMaxBlurRadius + 1];
  for (int i = 0; i < slots; ++i) held[i] = -1;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  const bool fma = CpuHasAvx2Fma();
#endif
  auto row_sums = [&](int y) -> const float* {  // source row y's horizontal sums
    float* out = ring + size_t(y % slots) * row;
    if (held[y % slots] == y) return out;
    held[y % slots] = y;
    PadRowReflect101(src + size_t(y) * row, image_info.w, c, r, padded_row.data());
    size_t e = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (fma) e = BlurRowBytesAvx2(centre, c, w, r, row, out);
#endif
    for (; e < row; ++e) {
      float acc = w[r] * float(centre[e]);
      for (int d = 1; d <= r; ++d)
        acc = fmaf(w[r + d], float(centre[e - size_t(d) * c] + centre[e + size_t(d) * c]), acc);
      out[e] = acc;
    }
    return out;
  };
  const float* rows[2 * kMaxBlurRadius + 1];
  for (int y = 0; y < h; ++y) {
    rows[0] = row_sums(y);
    for (int d = 1; d <= r; ++d) {
      rows[2 * d - 1] = row_sums(Reflect101(y - d, h));
      rows[2 * d] = row_sums(Reflect101(y + d, h));
    }
    uint8_t* o = dst + size_t(y) * row;
    size_t e = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (fma) e = BlurColumnsAvx2(rows, w, r, row, o);
#endif
    for (; e < row; ++e) {
      float acc = w[r] * rows[0][e];
      for (int d = 1; d <= r; ++d) acc = fmaf(w[r + d], rows[2 * d - 1][e] + rows[2 * d][e], acc);
      o[e] = SaturateToUint8(acc);
    }
  }
}

// The sums of LightnessTimes510 and of its square over n pixels of C channels. Blocks of 4096
// pixels sum in 32 bits (4096 x 510^2 < 2^32), which vectorizes; the blocks add up in 64 bits.
template <int C>
inline void LightnessSums(const uint8_t* src, size_t n, uint64_t* sum, uint64_t* sum_sq) {
  constexpr size_t kBlock = 4096;
  uint64_t s = 0, s2 = 0;
  for (size_t i0 = 0; i0 < n; i0 += kBlock) {
    const size_t end = std::min(n, i0 + kBlock);
    uint32_t block = 0, block_sq = 0;
    for (size_t i = i0; i < end; ++i) {
      const uint8_t* p = src + i * C;
      const uint32_t l =
          uint32_t(std::max(std::max(p[0], p[1]), p[2])) + std::min(std::min(p[0], p[1]), p[2]);
      block += l;
      block_sq += l * l;
    }
    s += block;
    s2 += block_sq;
  }
  *sum = s;
  *sum_sq = s2;
}
TFGPUAUG_VECTOR_CLONES void LightnessSumsRgb(const uint8_t* src, size_t n, uint64_t* sum, uint64_t* sum_sq) {
  LightnessSums<3>(src, n, sum, sum_sq);
}
TFGPUAUG_VECTOR_CLONES void LightnessSumsRgba(const uint8_t* src, size_t n, uint64_t* sum, uint64_t* sum_sq) {
  LightnessSums<4>(src, n, sum, sum_sq);
}

}  // namespace

void SetLightnessStatsCpu(const uint8_t* src, const AugmentImage& image_info, StageParams* stage_params) {
  const size_t n = size_t(image_info.h) * image_info.w;
  uint64_t sum = 0, sum_sq = 0;
  if (image_info.c == 3) {
    LightnessSumsRgb(src, n, &sum, &sum_sq);
  } else if (image_info.c == 4) {
    LightnessSumsRgba(src, n, &sum, &sum_sq);
  } else {
    for (size_t i = 0; i < n; ++i) {
      const uint64_t l = LightnessTimes510(src + i * image_info.c);
      sum += l;
      sum_sq += l * l;
    }
  }
  SetLightnessStats(double(sum), double(sum_sq), double(n), stage_params);
}

// Downscale: each output row is a source row gathered through one column table (the same
// DownscaleSource the CUDA kernel calls per pixel).
// One output row of downscale: pixel x is source pixel columns[x] / C (restrict, and C known,
// so the byte copies are not reloaded through aliasing stores).
template <int C>
void GatherRow(const uint8_t* __restrict s, const int* __restrict columns, int w, uint8_t* __restrict o) {
  for (int x = 0; x < w; ++x)
    for (int k = 0; k < C; ++k) o[x * C + k] = s[columns[x] + k];
}

void DownscaleCpu(const uint8_t* src, const AugmentImage& image_info, float scale, uint8_t* dst) {
  const int h = image_info.h, w = image_info.w, c = image_info.c;
  const size_t row = size_t(w) * c;
  if (!(scale > 0.f && scale < 1.f)) {
    std::memcpy(dst, src, row * h);
    return;
  }
  const int sh = DownscaledSize(h, scale), sw = DownscaledSize(w, scale);
  thread_local std::vector<int> columns;
  columns.resize(w);
  for (int x = 0; x < w; ++x) columns[x] = DownscaleSource(x, w, sw, scale) * c;
  // Output rows that read the same source row are equal: gather it once, copy it after
  // (about 1 / scale copies a gather at small scales).
  int gathered_from = -1;
  const uint8_t* gathered = nullptr;
  for (int y = 0; y < h; ++y) {
    const int sy = DownscaleSource(y, h, sh, scale);
    uint8_t* o = dst + size_t(y) * row;
    if (sy == gathered_from) {
      std::memcpy(o, gathered, row);
      continue;
    }
    const uint8_t* s = src + size_t(sy) * row;
    if (c == 3) {
      GatherRow<3>(s, columns.data(), w, o);
    } else if (c == 1) {
      GatherRow<1>(s, columns.data(), w, o);
    } else if (c == 4) {
      GatherRow<4>(s, columns.data(), w, o);
    } else {
      for (int x = 0; x < w; ++x)
        for (int k = 0; k < c; ++k) o[x * c + k] = s[columns[x] + k];
    }
    gathered_from = sy;
    gathered = o;
  }
}

// The interior bytes [c, row - c) of one output row of a 3x3 relief kernel, summed in
// ReliefPixel's order (so bit-identical to it), for CPUs without AVX2 (relief_avx2.cc). One
// flat loop over the bytes (every channel alike), which vectorizes: the weights are locals and
// the pointers restrict, or a store through `out` (a byte pointer, which may alias anything)
// would make the compiler reload them every iteration.
void ReliefRowInterior(const uint8_t* __restrict up, const uint8_t* __restrict mid,
                       const uint8_t* __restrict down, size_t c, size_t row, const float* wt,
                       uint8_t* __restrict out) {
  const float w0 = wt[0], w1 = wt[1], w2 = wt[2], w3 = wt[3], w4 = wt[4], w5 = wt[5], w6 = wt[6], w7 = wt[7],
              w8 = wt[8];
  for (size_t e = c; e < row - c; ++e) {
    float acc = 0.f;
    acc += w0 * up[e - c];
    acc += w1 * up[e];
    acc += w2 * up[e + c];
    acc += w3 * mid[e - c];
    acc += w4 * mid[e];
    acc += w5 * mid[e + c];
    acc += w6 * down[e - c];
    acc += w7 * down[e];
    acc += w8 * down[e + c];
    out[e] = RoundThenClampToUint8(acc);
  }
}

// Sharpen and emboss: the interior of each row without border arithmetic, summed in
// ReliefPixel's order (so bit-identical to it); the first and last columns through it.
void ReliefCpu(const uint8_t* src, const AugmentImage& image_info, const float* wt, uint8_t* dst) {
  const int h = image_info.h, w = image_info.w, c = image_info.c;
  const size_t row = size_t(w) * c;
  bool interior_done = false;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) {  // rows converted to floats once, not nine times
    ReliefInteriorAvx2(src, h, w, c, wt, dst);
    interior_done = true;
  }
#endif
  for (int y = 0; y < h; ++y) {
    const uint8_t* rows[3] = {src + size_t(Reflect101(y - 1, h)) * row, src + size_t(y) * row,
                              src + size_t(Reflect101(y + 1, h)) * row};
    uint8_t* o = dst + size_t(y) * row;
    if (!interior_done) ReliefRowInterior(rows[0], rows[1], rows[2], size_t(c), row, wt, o);
    for (int x : {0, w - 1})
      for (int k = 0; k < c; ++k) o[x * c + k] = ReliefPixel(src, image_info, wt, y, x, k);
  }
}

inline uint8_t Median3(uint8_t a, uint8_t b, uint8_t c) {
  return std::max(std::min(a, b), std::min(std::max(a, b), c));
}

// 3x3 median: each column of three sorted once per row (lo <= md <= hi), then the median of
// the nine is Median3(max of the lows, median of the middles, min of the highs). Flat
// min/max loops over the row's bytes, which vectorize; the same value MedianPixel sorts for.
void Median3x3Cpu(const uint8_t* src, const AugmentImage& image_info, uint8_t* dst) {
  const int h = image_info.h, w = image_info.w, c = image_info.c;
  const size_t row = size_t(w) * c, padded = size_t(w + 2) * c;
  thread_local std::vector<uint8_t> scratch;
  scratch.resize(6 * padded);
  uint8_t *up = scratch.data(), *mid = up + padded, *down = mid + padded;
  uint8_t *lo = down + padded, *md = lo + padded, *hi = md + padded;
  for (int y = 0; y < h; ++y) {
    PadRowReplicate(src + size_t(y > 0 ? y - 1 : 0) * row, w, c, 1, up);
    PadRowReplicate(src + size_t(y) * row, w, c, 1, mid);
    PadRowReplicate(src + size_t(y + 1 < h ? y + 1 : h - 1) * row, w, c, 1, down);
    {  // restrict: the six rows are disjoint parts of the scratch
      const uint8_t* __restrict u = up, * __restrict m = mid, * __restrict d = down;
      uint8_t* __restrict l = lo, * __restrict md_ = md, * __restrict hg = hi;
      for (size_t e = 0; e < padded; ++e) {
        const uint8_t a = std::min(u[e], m[e]), b = std::max(u[e], m[e]);
        l[e] = std::min(a, d[e]);
        hg[e] = std::max(b, d[e]);
        md_[e] = std::max(a, std::min(b, d[e]));
      }
    }
    uint8_t* o = dst + size_t(y) * row;
    for (size_t e = 0; e < row; ++e) {
      const uint8_t low = std::max(std::max(lo[e], lo[e + c]), lo[e + 2 * c]);
      const uint8_t high = std::min(std::min(hi[e], hi[e + c]), hi[e + 2 * c]);
      o[e] = Median3(low, Median3(md[e], md[e + c], md[e + 2 * c]), high);
    }
  }
}

// 5x5 and 7x7 medians: a histogram per channel slides along each row (Huang's algorithm):
// one column of `side` values leaves and one enters per pixel, and the median moves from
// the last one by the counts it crosses. Border replicated, as MedianPixel.
void MedianHistogramCpu(const uint8_t* src, const AugmentImage& image_info, int side, uint8_t* dst) {
  const int h = image_info.h, w = image_info.w, c = image_info.c, r = side / 2;
  const int rank = side * side / 2;  // the median's index in sorted order
  const size_t row = size_t(w) * c;
  const uint8_t* rows[kMaxMedianSide];
  for (int y = 0; y < h; ++y) {
    for (int dy = -r; dy <= r; ++dy) rows[dy + r] = src + size_t(std::min(std::max(y + dy, 0), h - 1)) * row;
    for (int k = 0; k < c; ++k) {
      uint16_t hist[256] = {};
      for (int dx = -r; dx <= r; ++dx) {
        const size_t at = size_t(std::min(std::max(dx, 0), w - 1)) * c + k;
        for (int i = 0; i < side; ++i) ++hist[rows[i][at]];
      }
      int median = 0, below = 0;  // below: how many window values are under `median`
      while (below + hist[median] <= rank) below += hist[median++];
      uint8_t* o = dst + size_t(y) * row + k;
      o[0] = uint8_t(median);
      for (int x = 1; x < w; ++x) {
        const size_t out = size_t(std::max(x - r - 1, 0)) * c + k,
                     in = size_t(std::min(x + r, w - 1)) * c + k;
        for (int i = 0; i < side; ++i) {
          const uint8_t gone = rows[i][out], come = rows[i][in];
          --hist[gone];
          ++hist[come];
          below += (come < median) - (gone < median);
        }
        while (below > rank) below -= hist[--median];
        while (below + hist[median] <= rank) below += hist[median++];
        o[size_t(x) * c] = uint8_t(median);
      }
    }
  }
}

// MotionPixel's rounded mean (2 sum + n) / (2 n), from acc = 2 sum + n, by float division
// (which vectorizes): a whole quotient is exact, and any other is at least 1 / (2 n) from the
// next whole number, far beyond float's error here.
inline uint8_t MotionQuotient(int32_t acc, int n) {
  return static_cast<uint8_t>(static_cast<int>(float(acc) / float(2 * n)));
}

// Motion blur over a reflect-101 padded copy of the image, so the border runs the interior's
// loop: per output row, the taps are the padded image at fixed offsets, summed one tap over
// the whole row at a time (flat loops, which vectorize; AVX2 32 bytes a step where it can)
// and rounded as MotionPixel rounds.
void MotionBlurCpu(const uint8_t* src, const AugmentImage& image_info, const StageParams& s, uint8_t* dst) {
  const int h = image_info.h, w = image_info.w, c = image_info.c, n = s.window;
  int rx = 0, ry = 0;
  for (int i = 0; i < n; ++i) {
    rx = std::max(rx, std::abs(s.motion_dx[i]));
    ry = std::max(ry, std::abs(s.motion_dy[i]));
  }
  const size_t row = size_t(w) * c, padded_row = size_t(w + 2 * rx) * c;
  thread_local std::vector<uint8_t> padded_storage;
  thread_local std::vector<int32_t> sums;
  padded_storage.resize(padded_row * size_t(h + 2 * ry));
  sums.resize(row);
  uint8_t* padded = padded_storage.data();
  PadImageReflect101(src, h, w, c, ry, rx, padded);
#if TFGPUAUG_HAVE_AVX2_LOOPS
  const bool avx2 = CpuHasAvx2();
#endif
  for (int y = 0; y < h; ++y) {
    const uint8_t* taps[kMaxMotionLength];
    for (int i = 0; i < n; ++i)
      taps[i] = padded + size_t(y + ry + s.motion_dy[i]) * padded_row + size_t(rx + s.motion_dx[i]) * c;
    uint8_t* o = dst + size_t(y) * row;
    size_t done = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (avx2) done = MotionBlurRowAvx2(taps, n, row, o);
#endif
    int32_t* __restrict acc = sums.data();
    for (size_t e = done; e < row; ++e) acc[e] = n;
    for (int i = 0; i < n; ++i) {
      const uint8_t* __restrict tap = taps[i];
      for (size_t e = done; e < row; ++e) acc[e] += 2 * tap[e];
    }
    for (size_t e = done; e < row; ++e) o[e] = MotionQuotient(acc[e], n);
  }
}

// Channel shuffle and RGB shift on RGB(A): a permutation or one lookup table per channel.
void ColorChannelsCpu(const StageParams& s, const uint8_t* src, const AugmentImage& image_info,
                      uint8_t* dst) {
  const size_t n = size_t(image_info.h) * image_info.w;
  const int c = image_info.c;
  if (s.op == int(AugmentOp::kChannelShuffle)) {
    int perm[3];
    ChannelPermutation(s.param, perm);
    for (size_t i = 0; i < n; ++i) {
      const uint8_t* px = src + i * c;
      uint8_t* o = dst + i * c;
      o[0] = px[perm[0]];
      o[1] = px[perm[1]];
      o[2] = px[perm[2]];
      for (int k = 3; k < c; ++k) o[k] = px[k];
    }
    return;
  }
  uint8_t lut[3][256];
  const float shift[3] = {s.param, s.aux[0], s.aux[1]};
  for (int k = 0; k < 3; ++k)
    for (int v = 0; v < 256; ++v) lut[k][v] = SaturateToUint8(float(v) + floorf(shift[k] + 0.5f));
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* px = src + i * c;
    uint8_t* o = dst + i * c;
    o[0] = lut[0][px[0]];
    o[1] = lut[1][px[1]];
    o[2] = lut[2][px[2]];
    for (int k = 3; k < c; ++k) o[k] = px[k];
  }
}

// Sepia of n pixels of c >= 3 channels (channels past the third kept).
void SepiaCpu(const uint8_t* src, size_t n, int c, uint8_t* dst) {
  for (size_t i = 0; i < n; ++i) {
    SepiaPixel(src + i * c, dst + i * c);
    for (int k = 3; k < c; ++k) dst[i * c + k] = src[i * c + k];
  }
}

void AugmentStageCpu(int op, float param, const float* aux, const uint8_t* src,
                     const AugmentImage& image_info, uint8_t* dst) {
  const size_t n = size_t(image_info.h) * image_info.w;
  if (op == int(AugmentOp::kIdentity)) {
    std::memcpy(dst, src, n * image_info.c);
    return;
  }
  if (IsLutOp(op)) {
    uint32_t hist[4 * 256];
    uint8_t lut[4 * 256];
    if (NeedsHistogram(op)) Histograms(src, image_info, hist);
    const int mean = NeedsLumaMean(op) ? LumaMean(src, image_info) : 0;
    for (int k = 0; k < image_info.c; ++k) BuildLut(op, param, aux, k, hist + 256 * k, mean, lut + 256 * k);
    if (image_info.c == 3) {
      for (size_t i = 0; i < n; ++i) {
        dst[3 * i] = lut[src[3 * i]];
        dst[3 * i + 1] = lut[256 + src[3 * i + 1]];
        dst[3 * i + 2] = lut[512 + src[3 * i + 2]];
      }
      return;
    }
    for (size_t i = 0; i < n; ++i)
      for (int k = 0; k < image_info.c; ++k)
        dst[i * image_info.c + k] = lut[256 * k + src[i * image_info.c + k]];
    return;
  }
  StageParams stage_params = PrepareStage(op, param, aux, image_info);
  if (NeedsLightness(op) && image_info.c >= 3) SetLightnessStatsCpu(src, image_info, &stage_params);
  // Loops specialised per family so the per-pixel work inlines; the math is the shared
  // inline code the CUDA kernel runs.
  if (IsAffineOp(op)) {
    const AffineParams p{image_info.h,   image_info.w, image_info.c,
                         image_info.h,   image_info.w, image_info.interpolation,
                         image_info.fill};
    WarpAffineCpu(src, p, stage_params.matrix, dst);
    return;
  }
  if (op == int(AugmentOp::kColor) && image_info.c == 3) return ColorRgb(src, n, param, dst);
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if ((op == int(AugmentOp::kHue) || op == int(AugmentOp::kSaturation)) && image_info.c >= 3 && CpuHasAvx2())
    return HueSaturationAvx2(src, n, image_info.c, op == int(AugmentOp::kHue), param, dst);
  if (op == int(AugmentOp::kHsvShift) && image_info.c >= 3 && CpuHasAvx2Fma() &&
      !(param == 0.f && aux[0] == 0.f && aux[1] == 0.f)) {  // no shift: the per-pixel path's copy
    const HsvShifts shift = HsvShiftsOf(param, aux[0], aux[1]);
    return HsvShiftAvx2(src, n, image_info.c, shift.hue, shift.sat, shift.val, dst);
  }
  if (op == int(AugmentOp::kGaussianNoise) && CpuHasAvx2())
    return GaussianNoiseAvx2(src, n * image_info.c, stage_params.seed, param, dst);
  if (op == int(AugmentOp::kGrayscale) && image_info.c == 3 && CpuHasAvx2())
    return GrayscaleRgbAvx2(src, n, dst);
  if (op == int(AugmentOp::kChannelShuffle) && image_info.c == 3 && CpuHasAvx2()) {
    int perm[3];
    ChannelPermutation(param, perm);
    return ChannelShuffleRgbAvx2(src, n, perm, dst);
  }
#endif
  if (op == int(AugmentOp::kSepia) && image_info.c >= 3) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (CpuHasAvx2()) return SepiaAvx2(src, n, image_info.c, dst);
#endif
    return SepiaCpu(src, n, image_info.c, dst);
  }
  if (op == int(AugmentOp::kChannelDropout)) return ChannelDropoutCpu(stage_params, src, image_info, dst);
  if (op == int(AugmentOp::kPixelDropout) || op == int(AugmentOp::kPixelDropoutPerChannel))
    return PixelDropoutCpu(stage_params, src, image_info, dst);
  if (op == int(AugmentOp::kSaltAndPepper)) return SaltAndPepperCpu(stage_params, src, image_info, dst);
  if (op == int(AugmentOp::kMultiplicativeNoise) || op == int(AugmentOp::kMultiplicativeNoisePerChannel))
    return MultiplicativeNoiseCpu(stage_params, src, image_info, dst);
  if (IsAdditiveNoiseOp(op)) return AdditiveNoiseCpu(stage_params, src, image_info, dst);
  if (IsIlluminationOp(op)) return IlluminationCpu(stage_params, src, image_info, dst);
  if (op == int(AugmentOp::kShotNoise)) return ShotNoiseCpu(stage_params, src, image_info, dst);
  if (op == int(AugmentOp::kGaussianBlur)) return GaussianBlurCpu(src, image_info, stage_params, dst);
  if (op == int(AugmentOp::kIsoNoise) && image_info.c >= 3)
    return IsoNoiseCpu(stage_params, src, image_info, dst);
  if (op == int(AugmentOp::kDownscale)) return DownscaleCpu(src, image_info, param, dst);
  if (op == int(AugmentOp::kDihedral)) return DihedralCpu(param, src, image_info, dst);
  if (op == int(AugmentOp::kBoxBlur) && stage_params.window > 0)
    return BoxBlurCpu(src, image_info, stage_params.window, dst);
  if (op == int(AugmentOp::kClahe))
    return ClaheCpu(src, image_info, stage_params.clahe, stage_params.param, dst);
  if (op == int(AugmentOp::kMedianBlur) && stage_params.window == 3)
    return Median3x3Cpu(src, image_info, dst);
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (op == int(AugmentOp::kMedianBlur) && stage_params.window >= 5 && CpuHasAvx2() &&
      size_t(image_info.w) * image_info.c >= 32)
    return MedianAvx2(src, image_info.h, image_info.w, image_info.c, stage_params.window, dst);
#endif
  if (op == int(AugmentOp::kMedianBlur) && stage_params.window > 3)
    return MedianHistogramCpu(src, image_info, stage_params.window, dst);
  if (op == int(AugmentOp::kMotionBlur) && stage_params.window > 0)
    return MotionBlurCpu(src, image_info, stage_params, dst);
  if ((op == int(AugmentOp::kSharpen) || op == int(AugmentOp::kEmboss)) && image_info.w > 2)
    return ReliefCpu(src, image_info, stage_params.relief, dst);
  if ((op == int(AugmentOp::kChannelShuffle) || op == int(AugmentOp::kRgbShift)) && image_info.c >= 3)
    return ColorChannelsCpu(stage_params, src, image_info, dst);
  if (op == int(AugmentOp::kCutout)) {  // a copy, then the square: rows and columns tested apart
    std::memcpy(dst, src, n * image_info.c);
    const CutoutSquare sq = CutoutOf(stage_params, image_info);
    const uint8_t fill = SaturateToUint8(image_info.fill);
    for (int y = 0; y < image_info.h; ++y) {
      if (!CutoutCovers(sq.cy, sq.half, y + 0.5f)) continue;
      for (int x = 0; x < image_info.w; ++x)
        if (CutoutCovers(sq.cx, sq.half, x + 0.5f))
          std::memset(dst + (size_t(y) * image_info.w + x) * image_info.c, fill, image_info.c);
    }
    return;
  }
  if ((op == int(AugmentOp::kColor) || op == int(AugmentOp::kGrayscale)) && image_info.c >= 3) {
    const bool gray_only = op == int(AugmentOp::kGrayscale);
    for (size_t i = 0; i < n; ++i) {
      const uint8_t* px = src + i * image_info.c;
      uint8_t* o = dst + i * image_info.c;
      const uint8_t gray = RgbToLuma(px[0], px[1], px[2]);
      for (int k = 0; k < 3; ++k) o[k] = gray_only ? gray : BlendPil(gray, px[k], param);
      for (int k = 3; k < image_info.c; ++k) o[k] = px[k];
    }
    return;
  }
  if (op == int(AugmentOp::kSharpness) && image_info.h > 2 && image_info.w > 2) {
    const int nc = image_info.c >= 3 ? 3 : image_info.c;
    const size_t row = size_t(image_info.w) * image_info.c;
    std::memcpy(dst, src, row);
    std::memcpy(dst + (image_info.h - 1) * row, src + (image_info.h - 1) * row, row);
    for (int y = 1; y < image_info.h - 1; ++y) {
      const uint8_t* s = src + y * row;
      uint8_t* o = dst + y * row;
      std::memcpy(o, s, image_info.c);
      std::memcpy(o + row - image_info.c, s + row - image_info.c, image_info.c);
      if (nc == image_info.c) {  // every channel sharpened: one flat loop over the row's bytes
        SharpenRow(s, row, image_info.c, param, o);
        continue;
      }
      for (int x = 1; x < image_info.w - 1; ++x) {
        for (int k = 0; k < nc; ++k)
          o[x * image_info.c + k] =
              BlendPil(SmoothPil(src, image_info.w, image_info.c, y, x, k), s[x * image_info.c + k], param);
        for (int k = nc; k < image_info.c; ++k) o[x * image_info.c + k] = s[x * image_info.c + k];
      }
    }
    return;
  }
  uint8_t* o = dst;
  for (int y = 0; y < image_info.h; ++y)
    for (int x = 0; x < image_info.w; ++x, o += image_info.c)
      AugmentPixel(stage_params, src, image_info, y, x, o);
}

Status AugmentSampleCpu(const uint8_t* in, const AugmentImage& image_info, const int32_t* ops,
                        const float* params, const float* aux, int num_stages, uint8_t* scratch,
                        uint8_t* out) {
  if (image_info.c > 4) return Status::Invalid("augment supports at most 4 channels");
  for (int k = 0; k < num_stages; ++k) {
    if (ops[k] < 0 || ops[k] >= int(AugmentOp::kNumOps)) {
      return Status::Invalid("unknown augmentation op id " + std::to_string(ops[k]));
    }
  }
  const size_t bytes = size_t(image_info.h) * image_info.w * image_info.c;
  if (num_stages == 0) {
    std::memcpy(out, in, bytes);
    return Status::Ok();
  }
  // Ping-pong so that the last stage writes `out`: stage k writes out when
  // (num_stages - 1 - k) is even, scratch otherwise.
  const uint8_t* src = in;
  for (int k = 0; k < num_stages; ++k) {
    uint8_t* dst = ((num_stages - 1 - k) % 2 == 0) ? out : scratch;
    AugmentStageCpu(ops[k], params[k], aux + 2 * k, src, image_info, dst);
    src = dst;
  }
  return Status::Ok();
}

}  // namespace tfgpuaug
