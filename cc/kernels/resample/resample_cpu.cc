#include "cc/kernels/resample/resample_cpu.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "cc/kernels/common/simd_x86.h"
#include "cc/kernels/common/stream_store.h"
#include "cc/kernels/resample/row_sums.h"

namespace tfgpuaug {
namespace {

template <typename Out>
inline Out Store(float v);
template <>
inline float Store<float>(float v) {
  return v;
}
template <>
inline uint8_t Store<uint8_t>(float v) {
  return SaturateToUint8(v);
}

}  // namespace

AxisTable BuildAxisTable(const ResampleAxis& axis, int out_size) {
  AxisTable t;
  t.offsets.reserve(out_size + 1);
  t.offsets.push_back(0);
  t.min_index = axis.in_size;
  for (int i = 0; i < out_size; ++i) {
    int first, last;
    TapRange(axis, i, &first, &last);
    const size_t begin = t.index.size();
    float norm = 0.f;
    for (int k = first; k <= last; ++k) {
      const int idx = TapIndex(axis, k);
      if (idx < 0) continue;
      const float w = TapWeight(axis, i, k);
      if (w == 0.f) continue;
      t.index.push_back(idx);
      t.weight.push_back(w);
      norm += w;
    }
    if (t.index.size() == begin) {  // degenerate footprint: nearest valid pixel
      t.index.push_back(std::min(std::max(first, 0), axis.in_size - 1));
      t.weight.push_back(1.f);
      norm = 1.f;
    }
    for (size_t j = begin; j < t.index.size(); ++j) {
      t.weight[j] /= norm;
      t.min_index = std::min(t.min_index, t.index[j]);
      t.max_index = std::max(t.max_index, t.index[j]);
    }
    t.offsets.push_back(static_cast<int>(t.index.size()));
  }
  return t;
}

void NeededRange(const ResampleAxis& axis, int out_size, int* first, int* last) {
  int f0, l0, f1, l1;
  TapRange(axis, 0, &f0, &l0);
  TapRange(axis, out_size - 1, &f1, &l1);
  *first = std::max(0, std::min(f0, f1));
  *last = std::min(axis.in_size - 1, std::max(l0, l1));
  if (*last < *first) *first = *last = std::min(std::max(f0, 0), axis.in_size - 1);
}

namespace {

// Three or four channels: one 4-lane vector multiply-add per tap (lane 3 of an RGB load
// reads the next pixel's first channel, which is never stored; the row has one float of
// padding at its end).
typedef float Float4 __attribute__((vector_size(16)));
typedef int Int4 __attribute__((vector_size(16)));

// The horizontal taps with the same count T for every output pixel (trailing taps of
// weight 0 on a valid index add exact zeros, so sums are unchanged), indices premultiplied
// by the channel count: the tap loop then has a constant trip count and unrolls.
struct FixedTaps {
  int taps = 0;
  std::vector<int> index;
  std::vector<float> weight;
};

FixedTaps MakeFixedTaps(const AxisTable& t, int out_size, int c) {
  FixedTaps f;
  for (int j = 0; j < out_size; ++j) f.taps = std::max(f.taps, t.offsets[j + 1] - t.offsets[j]);
  f.index.assign(size_t(out_size) * f.taps, 0);
  f.weight.assign(size_t(out_size) * f.taps, 0.f);
  for (int j = 0; j < out_size; ++j) {
    for (int k = 0; k < f.taps; ++k) {
      const int t_k = std::min(t.offsets[j] + k, t.offsets[j + 1] - 1);
      f.index[size_t(j) * f.taps + k] = t.index[t_k] * c;
      if (t.offsets[j] + k < t.offsets[j + 1]) f.weight[size_t(j) * f.taps + k] = t.weight[t_k];
    }
  }
  return f;
}

// The epilogue in registers: uint8 stores may alias anything, so fields read through a
// reference would be reloaded after every byte.
struct VectorEpilogue {
  Float4 mean, inv_std;
  bool normalize, mirror;
  explicit VectorEpilogue(const Epilogue& e)
      : mean{e.mean[0], e.mean[1], e.mean[2], e.mean[3]},
        inv_std{e.inv_std[0], e.inv_std[1], e.inv_std[2], e.inv_std[3]},
        normalize(e.normalize),
        mirror(e.mirror) {}
};

template <int C>
inline void StorePixel(Float4 v, float* o) {
  std::memcpy(o, &v, C * sizeof(float));
}

template <int C>
inline void StorePixel(Float4 v, uint8_t* o) {  // SaturateToUint8, lane by lane
#if TFGPUAUG_HAVE_SSE2
  const __m128 clamped = _mm_min_ps(_mm_max_ps(v, _mm_setzero_ps()), _mm_set1_ps(255.f));
  StoreTruncated(_mm_add_ps(clamped, _mm_set1_ps(0.5f)), C, o);
#else
  v = v < 0.f ? Float4{} : (v > 255.f ? Float4{} + 255.f : v);
  const Int4 q = __builtin_convertvector(v + 0.5f, Int4);
  for (int k = 0; k < C; ++k) o[k] = static_cast<uint8_t>(q[k]);
#endif
}

// Output pixels [j0, out_w) of one row.
template <int C, int T, typename Out>
void HorizontalRowFixed(const float* row, const FixedTaps& f, int j0, int out_w, const VectorEpilogue& e,
                        Out* out) {
  const int taps = T > 0 ? T : f.taps;
  const int* index = f.index.data() + size_t(j0) * taps;
  const float* weight = f.weight.data() + size_t(j0) * taps;
  for (int j = j0; j < out_w; ++j, index += taps, weight += taps) {
    Float4 acc = {0.f, 0.f, 0.f, 0.f};
    for (int t = 0; t < taps; ++t) {
      Float4 px;
      std::memcpy(&px, row + index[t], sizeof(px));
      acc += weight[t] * px;
    }
    if (e.normalize) acc = (acc - e.mean) * e.inv_std;
    StorePixel<C>(acc, out + (e.mirror ? out_w - 1 - j : j) * C);
  }
}

// Two output pixels per 8-lane vector: the low half is pixel 2p, the high half 2p + 1.
// Each lane does the same multiplies and adds, in the same order, as HorizontalRowFixed.
struct PairTaps {
  int taps = 0, pairs = 0;
  std::vector<int> index;     // [pairs][taps][2]: the two pixels' premultiplied indices
  std::vector<float> weight;  // [pairs][taps][8]: each pixel's weight in its four lanes
};

PairTaps MakePairTaps(const FixedTaps& f, int out_w) {
  PairTaps p;
  p.taps = f.taps;
  p.pairs = out_w / 2;
  p.index.resize(size_t(p.pairs) * p.taps * 2);
  p.weight.resize(size_t(p.pairs) * p.taps * 8);
  for (int q = 0; q < p.pairs; ++q) {
    for (int t = 0; t < p.taps; ++t) {
      for (int h = 0; h < 2; ++h) {
        const size_t src = size_t(2 * q + h) * f.taps + t, dst = (size_t(q) * p.taps + t);
        p.index[dst * 2 + h] = f.index[src];
        for (int k = 0; k < 4; ++k) p.weight[dst * 8 + h * 4 + k] = f.weight[src];
      }
    }
  }
  return p;
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
// Both RGB pixels of a pair (lanes 0-2 and 4-6 of acc) in one store, at o (pixel 2q) and
// the next slot on the step's side. The store's spare lanes land in the slot of pixel
// 2q + 2, which the next pair writes afterwards, so callers keep exact stores for a row's
// last pair (nothing is ever written past a row).
__attribute__((target("avx2"))) inline void StoreRgbPair(__m256 acc, bool mirror, float* o) {
  if (mirror) {
    _mm256_storeu_ps(o - 5, _mm256_permutevar8x32_ps(acc, _mm256_setr_epi32(0, 0, 4, 5, 6, 0, 1, 2)));
  } else {
    _mm256_storeu_ps(o, _mm256_permutevar8x32_ps(acc, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 6, 6)));
  }
}

// The same for bytes: SaturateToUint8 on eight lanes (as StorePixel), one 8-byte store.
__attribute__((target("avx2"))) inline void StoreRgbPair(__m256 acc, bool mirror, uint8_t* o) {
  __m256i b = SaturateLanes8(acc);
  b = _mm256_packus_epi16(_mm256_packs_epi32(b, b), b);
  const uint64_t first = uint32_t(_mm256_cvtsi256_si32(b)) & 0xffffffu;
  const uint64_t second = uint32_t(_mm_cvtsi128_si32(_mm256_extracti128_si256(b, 1))) & 0xffffffu;
  const uint64_t both = mirror ? (second << 16) | (first << 40) : first | (second << 24);
  std::memcpy(mirror ? o - 5 : o, &both, 8);
}

template <int C, int T, typename Out>
__attribute__((target("avx2"))) void HorizontalPairsAvx2(const float* row, const PairTaps& p, int out_w,
                                                         const VectorEpilogue& e, Out* out) {
  const int taps = T > 0 ? T : p.taps;
  const __m256 mean = _mm256_set_m128(e.mean, e.mean);
  const __m256 inv_std = _mm256_set_m128(e.inv_std, e.inv_std);
  // Flags and pointers in locals: stores through `out` may alias anything read through
  // a reference, which would reload them after every pixel.
  const bool normalize = e.normalize, mirror = e.mirror;
  const int* index = p.index.data();
  const float* weight = p.weight.data();
  const int pairs = p.pairs;
  // Output pixel 2q goes to first + 2q * step, 2q + 1 next to it on the step's side.
  Out* o = out + (mirror ? out_w - 1 : 0) * C;
  const long step = mirror ? -C : C;
  for (int q = 0; q < pairs; ++q, index += 2 * taps, weight += 8 * taps, o += 2 * step) {
    __m256 acc = _mm256_setzero_ps();
    for (int t = 0; t < taps; ++t) {
      const __m256 px = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(row + index[2 * t])),
                                             _mm_loadu_ps(row + index[2 * t + 1]), 1);
      acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_loadu_ps(weight + 8 * t), px));
    }
    if (normalize) acc = _mm256_mul_ps(_mm256_sub_ps(acc, mean), inv_std);
    if (C == 3 && q + 1 < pairs) {
      StoreRgbPair(acc, mirror, o);
      continue;
    }
    StorePixel<C>(_mm256_castps256_ps128(acc), o);
    StorePixel<C>(_mm256_extractf128_ps(acc, 1), o + step);
  }
}

#endif

// A row through the AVX2 pairs where the CPU has them (an odd last pixel and other CPUs
// take the 4-lane loop).
template <int C, int T, typename Out>
void HorizontalRowTaps(const float* row, const FixedTaps& f, const PairTaps* pairs, int out_w,
                       const VectorEpilogue& e, Out* out) {
  int j0 = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (pairs != nullptr) {
    HorizontalPairsAvx2<C, T>(row, *pairs, out_w, e, out);
    j0 = out_w & ~1;
  }
#endif
  HorizontalRowFixed<C, T>(row, f, j0, out_w, e, out);
}

template <int C, typename Out>
void HorizontalRowVector(const float* row, const FixedTaps& f, const PairTaps* pairs, int out_w,
                         const VectorEpilogue& e, Out* out) {
  static_assert(C == 3 || C == 4, "vector path is for 3 or 4 channels");
  switch (f.taps) {
    case 2:
      return HorizontalRowTaps<C, 2>(row, f, pairs, out_w, e, out);
    case 3:
      return HorizontalRowTaps<C, 3>(row, f, pairs, out_w, e, out);
    case 4:
      return HorizontalRowTaps<C, 4>(row, f, pairs, out_w, e, out);
    case 5:
      return HorizontalRowTaps<C, 5>(row, f, pairs, out_w, e, out);
    case 6:
      return HorizontalRowTaps<C, 6>(row, f, pairs, out_w, e, out);
    default:
      return HorizontalRowTaps<C, 0>(row, f, pairs, out_w, e, out);
  }
}

template <typename Out>
void HorizontalRowAny(const float* row, const AxisTable& tx, int out_w, int c, const Epilogue& e, Out* out) {
  for (int j = 0; j < out_w; ++j) {
    Out* o = out + OutputColumn(e, j, out_w) * c;
    for (int k = 0; k < c; ++k) {
      float acc = 0.f;
      for (int t = tx.offsets[j]; t < tx.offsets[j + 1]; ++t) acc += tx.weight[t] * row[tx.index[t] * c + k];
      o[k] = Store<Out>(ApplyEpilogue(e, acc, k));
    }
  }
}

}  // namespace

template <typename In, typename Out>
void ResampleImageCpu(const In* src, int src_h, int src_w, int c, long src_row_stride, const ResampleAxis& ay,
                      const ResampleAxis& ax, int out_h, int out_w, Out* out, const Epilogue& epilogue,
                      long out_row_stride) {
  (void)src_h;
  if (out_row_stride == 0) out_row_stride = long(out_w) * c;
  (void)src_w;
  const AxisTable ty = BuildAxisTable(ay, out_h);
  AxisTable tx = BuildAxisTable(ax, out_w);
  // Vertical first, one output row at a time, over only the columns the horizontal pass
  // reads: contiguous multiply-adds the compiler vectorises, and a one-row float buffer.
  const int x0 = tx.min_index, cols = tx.max_index - tx.min_index + 1;
  for (int& idx : tx.index) idx -= x0;
  const size_t row_elems = size_t(cols) * c;
  std::vector<float> acc(row_elems + 1, 0.f);  // +1: padding for 4-lane RGB loads
  const bool vector = c == 3 || c == 4;
  const FixedTaps fixed = vector ? MakeFixedTaps(tx, out_w, c) : FixedTaps();
  const VectorEpilogue vector_epilogue(epilogue);
  const PairTaps* pairs = nullptr;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  PairTaps pair_taps;
  if (vector && CpuHasAvx2()) {
    pair_taps = MakePairTaps(fixed, out_w);
    pairs = &pair_taps;
  }
#endif
  StreamedRows<Out> out_rows(size_t(out_w) * c, out_h);  // streamed when large
  std::vector<const In*> rows;
  for (int i = 0; i < out_h; ++i) {
    float* a = acc.data();
    const In* left = src + size_t(x0) * c;
    const int t0 = ty.offsets[i], taps = ty.offsets[i + 1] - t0;  // every row has a tap
    rows.resize(taps);
    for (int t = 0; t < taps; ++t) rows[t] = left + long(ty.index[t0 + t]) * src_row_stride;
    WeightedRowSum(rows.data(), ty.weight.data() + t0, taps, row_elems, a);
    Out* const dst = out + size_t(i) * out_row_stride;
    Out* orow = out_rows.Begin(dst);
    switch (c) {
      case 3:
        HorizontalRowVector<3>(a, fixed, pairs, out_w, vector_epilogue, orow);
        break;
      case 4:
        HorizontalRowVector<4>(a, fixed, pairs, out_w, vector_epilogue, orow);
        break;
      default:
        HorizontalRowAny(a, tx, out_w, c, epilogue, orow);
        break;
    }
    out_rows.End(dst);
  }
}

template void ResampleImageCpu<uint8_t, uint8_t>(const uint8_t*, int, int, int, long, const ResampleAxis&,
                                                 const ResampleAxis&, int, int, uint8_t*, const Epilogue&,
                                                 long);
template void ResampleImageCpu<uint8_t, float>(const uint8_t*, int, int, int, long, const ResampleAxis&,
                                               const ResampleAxis&, int, int, float*, const Epilogue&, long);
template void ResampleImageCpu<float, float>(const float*, int, int, int, long, const ResampleAxis&,
                                             const ResampleAxis&, int, int, float*, const Epilogue&, long);
template void ResampleImageCpu<float, uint8_t>(const float*, int, int, int, long, const ResampleAxis&,
                                               const ResampleAxis&, int, int, uint8_t*, const Epilogue&,
                                               long);

}  // namespace tfgpuaug
