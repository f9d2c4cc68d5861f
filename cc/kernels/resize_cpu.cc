#include "cc/kernels/resize_cpu.h"

#include <algorithm>

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

template <typename In, typename Out>
void ResampleImageCpu(const In* src, int src_h, int src_w, int c, long src_row_stride,
                      const ResampleAxis& ay, const ResampleAxis& ax, int out_h, int out_w,
                      Out* out) {
  (void)src_w;
  const AxisTable ty = BuildAxisTable(ay, out_h);
  const AxisTable tx = BuildAxisTable(ax, out_w);
  // Horizontal pass over only the rows the vertical pass reads, into floats.
  const int r0 = ty.min_index, r1 = ty.max_index;
  const size_t tmp_row = size_t(out_w) * c;
  std::vector<float> tmp(size_t(r1 - r0 + 1) * tmp_row);
  for (int r = r0; r <= r1; ++r) {
    const In* row = src + long(r) * src_row_stride;
    float* dst = tmp.data() + size_t(r - r0) * tmp_row;
    for (int j = 0; j < out_w; ++j) {
      float acc[4] = {0.f, 0.f, 0.f, 0.f};
      for (int t = tx.offsets[j]; t < tx.offsets[j + 1]; ++t) {
        const In* px = row + size_t(tx.index[t]) * c;
        const float w = tx.weight[t];
        for (int k = 0; k < c && k < 4; ++k) acc[k] += w * static_cast<float>(px[k]);
      }
      if (c <= 4) {
        for (int k = 0; k < c; ++k) dst[j * c + k] = acc[k];
      } else {
        for (int k = 0; k < c; ++k) {
          float a = 0.f;
          for (int t = tx.offsets[j]; t < tx.offsets[j + 1]; ++t)
            a += tx.weight[t] * static_cast<float>(row[size_t(tx.index[t]) * c + k]);
          dst[j * c + k] = a;
        }
      }
    }
  }
  // Vertical pass.
  std::vector<float> acc(tmp_row);
  for (int i = 0; i < out_h; ++i) {
    std::fill(acc.begin(), acc.end(), 0.f);
    for (int t = ty.offsets[i]; t < ty.offsets[i + 1]; ++t) {
      const float* trow = tmp.data() + size_t(ty.index[t] - r0) * tmp_row;
      const float w = ty.weight[t];
      for (size_t e = 0; e < tmp_row; ++e) acc[e] += w * trow[e];
    }
    Out* orow = out + size_t(i) * tmp_row;
    for (size_t e = 0; e < tmp_row; ++e) orow[e] = Store<Out>(acc[e]);
  }
}

template void ResampleImageCpu<uint8_t, uint8_t>(const uint8_t*, int, int, int, long,
                                                 const ResampleAxis&, const ResampleAxis&, int,
                                                 int, uint8_t*);
template void ResampleImageCpu<uint8_t, float>(const uint8_t*, int, int, int, long,
                                               const ResampleAxis&, const ResampleAxis&, int, int,
                                               float*);
template void ResampleImageCpu<float, float>(const float*, int, int, int, long,
                                             const ResampleAxis&, const ResampleAxis&, int, int,
                                             float*);
template void ResampleImageCpu<float, uint8_t>(const float*, int, int, int, long,
                                               const ResampleAxis&, const ResampleAxis&, int, int,
                                               uint8_t*);

}  // namespace tfgpuaug
