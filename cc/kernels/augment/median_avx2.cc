// The 5x5 and 7x7 medians of 32 bytes at a time in two comparator networks: each window
// column is sorted once per row of output (the sorted planes serve every output whose window
// holds that column), then the median of the sorted columns comes from a merge network pruned
// to the one output it needs: for 5x5, 160 min/max instructions for 32 bytes where a pruned
// sort of the 25 raw values needed 283. Rows and columns replicated at the
// border, as OpenCV's medianBlur and MedianPixel.
#include "cc/kernels/augment/augment_avx2.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

namespace tfgpuaug {
namespace {

constexpr int kUnknown = -1;  // a wire's value is data; 0 and 255 are known constants

struct NetworkOp {
  int a, b;
  bool min, max;  // compare: min to a, max to b, each only when read later
  bool move;      // a takes b's value (b holds a constant from here on)
};

struct Network {
  NetworkOp op[640];  // Batcher's 64-wire network has 543
  int count;
};

// Batcher's odd-even merge sort of Spec::kWires wires whose runs of Spec::kRun are sorted
// already, with the wires holding constants (0 below every byte, 255 above) followed at
// compile time: a comparator with a constant side is a no-op or a move, so constants are
// never loaded or compared. Then pruned backwards to what Spec::Wanted outputs depend on.
template <typename Spec>
constexpr Network BuildNetwork() {
  constexpr int n = Spec::kWires;
  int value[n] = {};
  for (int i = 0; i < n; ++i) value[i] = Spec::Constant(i);
  Network forward{};
  for (int p = Spec::kRun; p < n; p *= 2)
    for (int k = p; k >= 1; k /= 2)
      for (int j = k % p; j + k <= n - 1; j += 2 * k)
        for (int i = 0; i <= k - 1 && i <= n - j - k - 1; ++i) {
          if ((i + j) / (p * 2) != (i + j + k) / (p * 2)) continue;
          const int a = i + j, b = i + j + k;
          if (value[a] != kUnknown && value[b] != kUnknown) {
            const int lo = std::min(value[a], value[b]), hi = std::max(value[a], value[b]);
            value[a] = lo;
            value[b] = hi;
          } else if (value[a] == 0 || value[b] == 255) {
            // in order already
          } else if (value[a] == 255) {
            forward.op[forward.count++] = {a, b, false, false, true};
            value[a] = kUnknown;
            value[b] = 255;
          } else if (value[b] == 0) {
            forward.op[forward.count++] = {b, a, false, false, true};
            value[b] = kUnknown;
            value[a] = 0;
          } else {
            forward.op[forward.count++] = {a, b, true, true, false};
          }
        }
  bool needed[n] = {};
  for (int i = 0; i < n; ++i) needed[i] = Spec::Wanted(i);
  Network kept{};
  for (int m = forward.count - 1; m >= 0; --m) {
    NetworkOp o = forward.op[m];
    if (o.move) {
      if (!needed[o.a]) continue;
      needed[o.a] = false;
      needed[o.b] = true;
    } else {
      o.min = needed[o.a];
      o.max = needed[o.b];
      if (!o.min && !o.max) continue;
      needed[o.a] = needed[o.b] = true;
    }
    kept.op[kept.count++] = o;
  }
  Network out{};
  for (int m = kept.count - 1; m >= 0; --m) out.op[out.count++] = kept.op[m];
  return out;
}

// Sorting one column of Side values (wires 0 .. Side-1; the spare wires above hold 255).
template <int Side>
struct ColumnSort {
  static constexpr int kWires = 8, kRun = 1;
  static constexpr int Constant(int i) { return i < Side ? kUnknown : 255; }
  static constexpr bool Wanted(int i) { return i < Side; }
};

// The median of Side sorted columns: column d in the run of 8 wires from 8 d, its values from
// wire 8 d + kLead up, 0s before and 255s after; the spare runs hold 0s then 255s, as many 0s
// in all as 255s (one fewer for odd totals), so the median sits at a known place.
template <int Side>
struct ColumnMerge {
  static constexpr int kRun = 8, kRuns = Side <= 4 ? 4 : 8, kWires = kRun * kRuns;
  static constexpr int kLead = (kRun - Side) / 2;
  static constexpr int kZeros = (kWires - Side * Side) / 2;
  static constexpr int kTarget = kZeros + Side * Side / 2;
  static constexpr int Constant(int i) {
    const int run = i / kRun, at = i % kRun;
    if (run < Side) return at < kLead ? 0 : at < kLead + Side ? kUnknown : 255;
    const int leading_zeros = Side * kLead;  // the real runs' 0s
    return (i - Side * kRun) < kZeros - leading_zeros ? 0 : 255;
  }
  static constexpr bool Wanted(int i) { return i == kTarget; }
};

template <typename Spec>
struct Compiled {
  static constexpr Network kNet = BuildNetwork<Spec>();
};

template <typename Spec, size_t I>
__attribute__((target("avx2"))) inline void Step(__m256i* v) {
  constexpr NetworkOp o = Compiled<Spec>::kNet.op[I];
  if constexpr (o.move) {
    v[o.a] = v[o.b];
  } else if constexpr (o.min && o.max) {
    const __m256i lo = _mm256_min_epu8(v[o.a], v[o.b]);
    v[o.b] = _mm256_max_epu8(v[o.a], v[o.b]);
    v[o.a] = lo;
  } else if constexpr (o.min) {
    v[o.a] = _mm256_min_epu8(v[o.a], v[o.b]);
  } else {
    v[o.b] = _mm256_max_epu8(v[o.a], v[o.b]);
  }
}

template <typename Spec, size_t... I>
__attribute__((target("avx2"))) inline void Run(__m256i* v, std::index_sequence<I...>) {
  (Step<Spec, I>(v), ...);
}

template <typename Spec>
__attribute__((target("avx2"))) inline void RunNetwork(__m256i* v) {
  Run<Spec>(v, std::make_index_sequence<size_t(Compiled<Spec>::kNet.count)>());
}

// Where the 32-byte chunk from b of a span ending at `end` starts: the last one ends at
// `end`, overlapping the one before when the span is not a multiple of 32.
inline size_t ChunkAt(size_t b, size_t end) { return b + 32 <= end ? b : end - 32; }

template <int Side>
__attribute__((target("avx2"))) void MedianT(const uint8_t* src, int h, int w, int c, uint8_t* dst) {
  using Merge = ColumnMerge<Side>;
  constexpr int r = Side / 2;
  const size_t row = size_t(w) * c, margin = size_t(r) * c, stride = row + 2 * margin;
  // The sorted columns of the current output row, plane k holding rank k, with r columns of
  // margin each side: a replicated column sorts to the edge column's values, so the margins
  // are copies and the border needs no other path.
  thread_local std::vector<uint8_t> planes;
  planes.resize(Side * stride);
  for (int y = 0; y < h; ++y) {
    const uint8_t* rows[Side];
    for (int dy = -r; dy <= r; ++dy) rows[dy + r] = src + size_t(std::min(std::max(y + dy, 0), h - 1)) * row;
    for (size_t b = 0; b < row; b += 32) {
      const size_t at = ChunkAt(b, row);
      __m256i v[ColumnSort<Side>::kWires];
      for (int dy = 0; dy < Side; ++dy)
        v[dy] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[dy] + at));
      RunNetwork<ColumnSort<Side>>(v);
      for (int k = 0; k < Side; ++k)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(&planes[k * stride + margin + at]), v[k]);
    }
    for (int k = 0; k < Side; ++k) {
      uint8_t* plane = &planes[k * stride];
      for (int d = 0; d < r; ++d) {
        std::memcpy(plane + size_t(d) * c, plane + margin, c);
        std::memcpy(plane + margin + row + size_t(d) * c, plane + margin + row - c, c);
      }
    }
    uint8_t* o = dst + size_t(y) * row;
    for (size_t b = 0; b < row; b += 32) {
      const size_t at = ChunkAt(b, row);
      __m256i v[Merge::kWires];
      for (int d = 0; d < Side; ++d)
        for (int k = 0; k < Side; ++k)
          v[d * Merge::kRun + Merge::kLead + k] =
              _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&planes[k * stride + at + size_t(d) * c]));
      RunNetwork<Merge>(v);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + at), v[Merge::kTarget]);
    }
  }
}

}  // namespace

__attribute__((target("avx2"))) void MedianAvx2(const uint8_t* src, int h, int w, int c, int side,
                                                uint8_t* dst) {
  if (side == 7) return MedianT<7>(src, h, w, c, dst);
  MedianT<5>(src, h, w, c, dst);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_HAVE_AVX2_LOOPS
