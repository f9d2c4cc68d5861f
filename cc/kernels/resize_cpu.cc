#include "cc/kernels/resize_cpu.h"

#include <algorithm>
#include <cstring>

#include "cc/kernels/simd_cpu.h"

namespace tfgpuaug {
namespace {

template <typename Out>
inline Out Store(float v);
template <>
inline float Store<float>(float v) { return v; }
template <>
inline uint8_t Store<uint8_t>(float v) { return SaturateToUint8(v); }

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

// Hot loops get an AVX2 clone picked at load time on CPUs that have it; the default build
// stays baseline x86-64 so the library runs everywhere. Contraction is off (build flags),
// so both clones round every multiply and add alike: results do not depend on the CPU.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TFGA_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TFGA_VECTOR_CLONES
#endif

template <typename In>
TFGA_VECTOR_CLONES void AccumulateRow(const In* row, float w, size_t n, float* acc) {
  for (size_t e = 0; e < n; ++e) acc[e] += w * static_cast<float>(row[e]);
}

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
        normalize(e.normalize), mirror(e.mirror) {}
};

template <int C>
inline void StorePixel(Float4 v, float* o) { std::memcpy(o, &v, C * sizeof(float)); }

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

template <int C, int T, typename Out>
void HorizontalRowFixed(const float* row, const FixedTaps& f, int out_w, const VectorEpilogue& e,
                        Out* out) {
  const int taps = T > 0 ? T : f.taps;
  const int* index = f.index.data();
  const float* weight = f.weight.data();
  for (int j = 0; j < out_w; ++j, index += taps, weight += taps) {
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

template <int C, typename Out>
void HorizontalRowVector(const float* row, const FixedTaps& f, int out_w, const VectorEpilogue& e,
                         Out* out) {
  static_assert(C == 3 || C == 4, "vector path is for 3 or 4 channels");
  switch (f.taps) {
    case 2: return HorizontalRowFixed<C, 2>(row, f, out_w, e, out);
    case 3: return HorizontalRowFixed<C, 3>(row, f, out_w, e, out);
    case 4: return HorizontalRowFixed<C, 4>(row, f, out_w, e, out);
    case 5: return HorizontalRowFixed<C, 5>(row, f, out_w, e, out);
    case 6: return HorizontalRowFixed<C, 6>(row, f, out_w, e, out);
    default: return HorizontalRowFixed<C, 0>(row, f, out_w, e, out);
  }
}

template <typename Out>
void HorizontalRowAny(const float* row, const AxisTable& tx, int out_w, int c, const Epilogue& e,
                      Out* out) {
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
void ResampleImageCpu(const In* src, int src_h, int src_w, int c, long src_row_stride,
                      const ResampleAxis& ay, const ResampleAxis& ax, int out_h, int out_w,
                      Out* out, const Epilogue& epilogue) {
  (void)src_h;
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
  for (int i = 0; i < out_h; ++i) {
    std::fill(acc.begin(), acc.begin() + row_elems, 0.f);
    float* a = acc.data();
    for (int t = ty.offsets[i]; t < ty.offsets[i + 1]; ++t) {
      AccumulateRow(src + long(ty.index[t]) * src_row_stride + size_t(x0) * c, ty.weight[t],
                    row_elems, a);
    }
    Out* orow = out + size_t(i) * out_w * c;
    switch (c) {
      case 3: HorizontalRowVector<3>(a, fixed, out_w, vector_epilogue, orow); break;
      case 4: HorizontalRowVector<4>(a, fixed, out_w, vector_epilogue, orow); break;
      default: HorizontalRowAny(a, tx, out_w, c, epilogue, orow); break;
    }
  }
}

template void ResampleImageCpu<uint8_t, uint8_t>(const uint8_t*, int, int, int, long,
                                                 const ResampleAxis&, const ResampleAxis&, int,
                                                 int, uint8_t*, const Epilogue&);
template void ResampleImageCpu<uint8_t, float>(const uint8_t*, int, int, int, long,
                                               const ResampleAxis&, const ResampleAxis&, int, int,
                                               float*, const Epilogue&);
template void ResampleImageCpu<float, float>(const float*, int, int, int, long,
                                             const ResampleAxis&, const ResampleAxis&, int, int,
                                             float*, const Epilogue&);
template void ResampleImageCpu<float, uint8_t>(const float*, int, int, int, long,
                                               const ResampleAxis&, const ResampleAxis&, int, int,
                                               uint8_t*, const Epilogue&);

}  // namespace tfgpuaug
