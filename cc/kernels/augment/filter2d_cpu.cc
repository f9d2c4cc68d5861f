#include "cc/kernels/augment/filter2d_cpu.h"

#include <cstring>
#include <vector>

#include "cc/kernels/augment/filter2d.h"
#include "cc/kernels/common/border.h"
#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

// A non-zero tap: its weight and its offset in the padded plane from the element it sums for.
struct Tap {
  size_t offset;
  float weight;
};

// A tap of the octant and where its orbit's points are read: in the row's vertical pairs (row
// y - i plus row y + i of the padded plane, i = 0 .. r; i = 0 the row alone), so an orbit of
// eight points is four loads, of four two or three, the centre one.
struct Orbit {
  float weight;
  int count;
  size_t offsets[4];
};

// Consecutive orbits of one load count (the octant's rows run 3, 4, ..., 4, 2): the vector
// loops take each run with its count fixed, so the loads unroll without a branch a point.
struct OrbitRun {
  int count;
  size_t begin, end;
};

// The plateau (Filter2DPlateau) as column runs read from column prefix sums: run m's sum for
// output row y is prefix row y + below[m] minus prefix row y + above[m], at column offset
// column[m] (16-bit lanes, exact modulo 2^16: a run holds at most 63 bytes); the runs of group g
// (up to ends[g]) add up to at most 65535, so each group is summed in 16-bit lanes before it is
// widened. top and bottom: the current row's pointers into the ring of prefix rows.
struct Plateau {
  float weight = 0.f;
  std::vector<int> above, below;
  std::vector<size_t> column, ends;
  std::vector<const uint16_t*> top, bottom;
};

#if TFGPUAUG_HAVE_AVX2_LOOPS
// Filter2DByte of eight sums: max(sum, 0) first gives 0 for NaN; cvtps rounds to the nearest
// even, as rintf; ties up: the floor plus one where the exact remainder is at least a half.
__attribute__((target("avx2"))) inline void StoreSums8(__m256 sum, bool ties_up, uint8_t* dst) {
  const __m256 held = _mm256_min_ps(_mm256_max_ps(sum, _mm256_setzero_ps()), _mm256_set1_ps(255.f));
  if (!ties_up) return StoreLanes8(_mm256_cvtps_epi32(held), dst);
  const __m256 low = _mm256_floor_ps(held);
  const __m256 up = _mm256_cmp_ps(_mm256_sub_ps(held, low), _mm256_set1_ps(0.5f), _CMP_GE_OQ);
  StoreLanes8(_mm256_cvttps_epi32(_mm256_add_ps(low, _mm256_and_ps(up, _mm256_set1_ps(1.f)))), dst);
}

// Elements [0, n) of one output row: `row` points at the padded plane where the row's first
// element's top-left tap lies; each sum over the taps in order (fused multiply-adds, as
// Filter2DSum), then the byte. Sixty-four elements a step (eight accumulators: one weight
// broadcast and the loop's overhead shared by eight vectors), then eight. Returns where the
// vector loops stopped.
__attribute__((target("avx2,fma"))) size_t RowAvx2Fma(const float* row, size_t n, const Tap* taps,
                                                      size_t count, bool ties_up, uint8_t* out) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m256 a[8];
    for (int v = 0; v < 8; ++v) a[v] = _mm256_setzero_ps();
    for (size_t t = 0; t < count; ++t) {
      const float* p = row + taps[t].offset + i;
      const __m256 weight = _mm256_set1_ps(taps[t].weight);
      for (int v = 0; v < 8; ++v) a[v] = _mm256_fmadd_ps(weight, _mm256_loadu_ps(p + 8 * v), a[v]);
    }
    for (int v = 0; v < 8; ++v) StoreSums8(a[v], ties_up, out + i + 8 * v);
  }
  for (; i + 8 <= n; i += 8) {
    __m256 acc = _mm256_setzero_ps();
    for (size_t t = 0; t < count; ++t)
      acc = _mm256_fmadd_ps(_mm256_set1_ps(taps[t].weight), _mm256_loadu_ps(row + taps[t].offset + i), acc);
    StoreSums8(acc, ties_up, out + i);
  }
  return i;
}

// Sixteen elements' orbit sum: its pairs' sums, added as 16-bit lanes (at most 8 x 255).
template <int kCount>
__attribute__((target("avx2"))) inline __m256i OrbitSum16(const uint16_t* p, const size_t* offsets) {
  __m256i s = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + offsets[0]));
  for (int m = 1; m < kCount; ++m)
    s = _mm256_add_epi16(s, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + offsets[m])));
  return s;
}

// acc[0] += weight x sums of elements 0-3 and 8-11, acc[1] of 4-7 and 12-15 (the halves of
// each 128-bit lane; Store16 puts them back in order), fused. Each sum s becomes a float by
// its bits: 0x4B00 above s is 2^23 + s, and subtracting 2^23 leaves s exactly: two in-lane
// operations a vector where a conversion takes a lane crossing and a convert.
__attribute__((target("avx2,fma"))) inline void AddOrbit16(__m256i sums, __m256 weight, __m256* acc) {
  const __m256i magic = _mm256_set1_epi16(0x4B00);
  const __m256 two23 = _mm256_set1_ps(8388608.f);
  const __m256 low = _mm256_sub_ps(_mm256_castsi256_ps(_mm256_unpacklo_epi16(sums, magic)), two23);
  const __m256 high = _mm256_sub_ps(_mm256_castsi256_ps(_mm256_unpackhi_epi16(sums, magic)), two23);
  acc[0] = _mm256_fmadd_ps(weight, low, acc[0]);
  acc[1] = _mm256_fmadd_ps(weight, high, acc[1]);
}

// The bytes of sixteen elements accumulated by AddOrbit16, in order.
__attribute__((target("avx2"))) inline void Store16(const __m256* acc, bool ties_up, uint8_t* dst) {
  StoreSums8(_mm256_permute2f128_ps(acc[0], acc[1], 0x20), ties_up, dst);
  StoreSums8(_mm256_permute2f128_ps(acc[0], acc[1], 0x31), ties_up, dst + 8);
}

// kSteps groups of sixteen elements at p: every orbit of the run, in order.
template <int kCount, int kSteps>
__attribute__((target("avx2,fma"))) inline void AddRun(const uint16_t* p, const Orbit* begin,
                                                       const Orbit* end, __m256* acc) {
  for (const Orbit* o = begin; o != end; ++o) {
    const __m256 weight = _mm256_set1_ps(o->weight);
    for (int v = 0; v < kSteps; ++v)
      AddOrbit16(OrbitSum16<kCount>(p + 16 * v, o->offsets), weight, acc + 2 * v);
  }
}

template <int kSteps>
__attribute__((target("avx2,fma"))) inline void AddRuns(const uint16_t* p, const Orbit* orbits,
                                                        const OrbitRun* runs, size_t run_count, __m256* acc) {
  for (size_t u = 0; u < run_count; ++u) {
    const Orbit *begin = orbits + runs[u].begin, *end = orbits + runs[u].end;
    switch (runs[u].count) {
      case 4:
        AddRun<4, kSteps>(p, begin, end, acc);
        break;
      case 3:
        AddRun<3, kSteps>(p, begin, end, acc);
        break;
      case 2:
        AddRun<2, kSteps>(p, begin, end, acc);
        break;
      default:
        AddRun<1, kSteps>(p, begin, end, acc);
    }
  }
}

// Sixteen elements' plateau term: their plateau sums (column runs, groups in 16-bit lanes, then
// 32-bit) times the plateau's weight, one rounding, into acc in AddOrbit16's lane order.
__attribute__((target("avx2,fma"))) inline void StartPlateau16(size_t e, const Plateau& plateau,
                                                               __m256* acc) {
  const __m256i zero = _mm256_setzero_si256();
  __m256i low = zero, high = zero;
  size_t m = 0;
  for (const size_t end : plateau.ends) {
    __m256i sums = zero;
    for (; m < end; ++m) {
      const __m256i below = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(plateau.bottom[m] + e));
      const __m256i above = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(plateau.top[m] + e));
      sums = _mm256_add_epi16(sums, _mm256_sub_epi16(below, above));
    }
    low = _mm256_add_epi32(low, _mm256_unpacklo_epi16(sums, zero));
    high = _mm256_add_epi32(high, _mm256_unpackhi_epi16(sums, zero));
  }
  const __m256 weight = _mm256_set1_ps(plateau.weight);
  acc[0] = _mm256_fmadd_ps(weight, _mm256_cvtepi32_ps(low), _mm256_setzero_ps());
  acc[1] = _mm256_fmadd_ps(weight, _mm256_cvtepi32_ps(high), _mm256_setzero_ps());
}

// Elements [0, n) of one output row of the symmetric filter, as RowAvx2Fma: 32 elements a step,
// then 16; the plateau first where there is one. Returns where the vector loops stopped.
__attribute__((target("avx2,fma"))) size_t SymmetricRowAvx2Fma(const uint16_t* row, const Plateau* plateau,
                                                               size_t n, const Orbit* orbits,
                                                               const OrbitRun* runs, size_t run_count,
                                                               bool ties_up, uint8_t* out) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256 a[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
    if (plateau) {
      StartPlateau16(i, *plateau, a);
      StartPlateau16(i + 16, *plateau, a + 2);
    }
    AddRuns<2>(row + i, orbits, runs, run_count, a);
    Store16(a, ties_up, out + i);
    Store16(a + 2, ties_up, out + i + 16);
  }
  for (; i + 16 <= n; i += 16) {
    __m256 a[2] = {_mm256_setzero_ps(), _mm256_setzero_ps()};
    if (plateau) StartPlateau16(i, *plateau, a);
    AddRuns<1>(row + i, orbits, runs, run_count, a);
    Store16(a, ties_up, out + i);
  }
  return i;
}
#endif

// The image into `plane` ((h + 2 r) x (w + 2 r) x c): rows and columns reflect-101 beyond it.
template <typename T>
void PadPlane(const uint8_t* image, int h, int w, int c, int r, T* plane) {
  const int padded_w = w + 2 * r;
  const size_t stride = size_t(padded_w) * c, n = size_t(w) * c;
  for (int py = 0; py < h + 2 * r; ++py) {
    const uint8_t* src = image + size_t(Reflect101(py - r, h)) * n;
    T* dst = plane + size_t(py) * stride;
    const auto border = [&](int px) {
      const uint8_t* pixel = src + size_t(Reflect101(px - r, w)) * c;
      for (int k = 0; k < c; ++k) dst[size_t(px) * c + k] = T(pixel[k]);
    };
    for (int px = 0; px < r; ++px) border(px);
    for (int px = r + w; px < padded_w; ++px) border(px);
    T* middle = dst + size_t(r) * c;  // the row itself: one widening copy (vectorised)
    for (size_t e = 0; e < n; ++e) middle[e] = T(src[e]);
  }
}

// out[e] = a[e] + b[e] for the symmetric path's mirrored row pairs (16-bit sums of two bytes:
// exact). An AVX2 clone where the CPU has it: this loop was a fifth of RingingOvershoot's op in
// the baseline build's eight-lane form.
TFGPUAUG_VECTOR_CLONES void AddRows(const uint16_t* a, const uint16_t* b, size_t n, uint16_t* out) {
  for (size_t e = 0; e < n; ++e) out[e] = uint16_t(a[e] + b[e]);
}

}  // namespace

void Filter2DCpu(const uint8_t* image, int h, int w, int c, const float* kernel, int side, bool ties_up,
                 float* scratch, uint8_t* out) {
  const int r = Filter2DReach(kernel, side), centre = side / 2;
  const size_t stride = size_t(w + 2 * r) * c, n = size_t(w) * c;
  PadPlane(image, h, w, c, r, scratch);
  std::vector<Tap> taps;
  for (int i = -r; i <= r; ++i) {
    for (int j = -r; j <= r; ++j) {
      const float weight = kernel[(centre + i) * side + centre + j];
      if (weight != 0.f) taps.push_back({size_t(i + r) * stride + size_t(j + r) * c, weight});
    }
  }
  for (int y = 0; y < h; ++y) {
    const float* row = scratch + size_t(y) * stride;
    uint8_t* dst = out + size_t(y) * n;
    size_t i = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (CpuHasAvx2Fma()) i = RowAvx2Fma(row, n, taps.data(), taps.size(), ties_up, dst);
#endif
    for (; i < n; ++i) {
      float acc = 0.f;
      for (const Tap& t : taps) acc = fmaf(t.weight, row[t.offset + i], acc);
      dst[i] = Filter2DByte(acc, ties_up);
    }
  }
}

void Filter2DSymmetricCpu(const uint8_t* image, int h, int w, int c, const float* kernel, int side,
                          bool ties_up, uint16_t* scratch, uint8_t* out) {
  const int r = Filter2DReach(kernel, side), centre = side / 2;
  int heights[kFilter2DPlanInts];
  Filter2DPlateau(kernel, side, r, heights);
  const size_t stride = size_t(w + 2 * r) * c, n = size_t(w) * c, rows = size_t(h + 2 * r);
  PadPlane(image, h, w, c, r, scratch);
  uint16_t* pairs = scratch + rows * stride;  // r + 1 rows of `stride`
  // Prefix row p (the sum of plane rows < p) lives in ring row p % ring_rows: output row y reads
  // prefix rows y .. y + 2 r + 1, so 2 r + 2 rows hold them, whatever the image's height.
  const size_t ring_rows = size_t(2 * r + 2);
  uint16_t* ring = pairs + size_t(r + 1) * stride;
  const auto prefix_row = [&](size_t p) { return ring + (p % ring_rows) * stride; };
  Plateau plateau;
  if (heights[0] >= 0) {
    plateau.weight = kernel[centre * side + centre];
    std::memset(ring, 0, stride * sizeof(uint16_t));
    for (size_t p = 0; p + 1 < ring_rows; ++p)
      AddRows(prefix_row(p), scratch + p * stride, stride, prefix_row(p + 1));
    int bound = 0;
    for (int j = -r; j <= r; ++j) {
      const int height = heights[j < 0 ? -j : j];
      if (height < 0) continue;
      const int run = 255 * (2 * height + 1);
      if (bound + run > 65535) {
        plateau.ends.push_back(plateau.column.size());
        bound = 0;
      }
      bound += run;
      plateau.above.push_back(r - height);
      plateau.below.push_back(r + height + 1);
      plateau.column.push_back(size_t(j + r) * c);
    }
    plateau.ends.push_back(plateau.column.size());
    plateau.top.resize(plateau.column.size());
    plateau.bottom.resize(plateau.column.size());
  }
  std::vector<Orbit> orbits;
  for (int i = 0; i <= r; ++i) {
    for (int j = 0; j <= i; ++j) {
      const float weight = kernel[(centre + i) * side + centre + j];
      if (weight == 0.f || i <= heights[j]) continue;  // the plateau's orbits are summed apart
      Orbit o{weight, 0, {}};
      int orbit_rows[8], cols[8];
      const int points = Filter2DOrbit(i, j, orbit_rows, cols);
      for (int m = 0; m < points; ++m) {  // (row, col) and (-row, col) are one pair load
        const int row = orbit_rows[m] < 0 ? -orbit_rows[m] : orbit_rows[m];
        const size_t offset = size_t(row) * stride + size_t(cols[m] + r) * c;
        bool seen = false;
        for (int q = 0; q < o.count; ++q) seen = seen || o.offsets[q] == offset;
        if (!seen) o.offsets[o.count++] = offset;
      }
      orbits.push_back(o);
    }
  }
  std::vector<OrbitRun> runs;
  for (size_t t = 0; t < orbits.size(); ++t) {
    if (runs.empty() || runs.back().count != orbits[t].count) runs.push_back({orbits[t].count, t, t});
    runs.back().end = t + 1;
  }
  const Plateau* has_plateau = heights[0] >= 0 ? &plateau : nullptr;
  for (int y = 0; y < h; ++y) {
    const uint16_t* middle = scratch + size_t(y + r) * stride;
    std::memcpy(pairs, middle, stride * sizeof(uint16_t));
    for (int i = 1; i <= r; ++i) {
      const uint16_t *above = middle - size_t(i) * stride, *below = middle + size_t(i) * stride;
      AddRows(above, below, stride, pairs + size_t(i) * stride);
    }
    if (has_plateau) {
      if (y > 0) {  // the ring's next prefix row, over the one row y no longer reads
        const size_t p = size_t(y) + ring_rows - 2;
        AddRows(prefix_row(p), scratch + p * stride, stride, prefix_row(p + 1));
      }
      for (size_t m = 0; m < plateau.column.size(); ++m) {
        plateau.top[m] = prefix_row(size_t(y + plateau.above[m])) + plateau.column[m];
        plateau.bottom[m] = prefix_row(size_t(y + plateau.below[m])) + plateau.column[m];
      }
    }
    uint8_t* dst = out + size_t(y) * n;
    size_t e = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (CpuHasAvx2Fma())
      e = SymmetricRowAvx2Fma(pairs, has_plateau, n, orbits.data(), runs.data(), runs.size(), ties_up, dst);
#endif
    for (; e < n; ++e) {
      float acc = 0.f;
      if (has_plateau) {
        int sum = 0;
        for (size_t m = 0; m < plateau.top.size(); ++m)
          sum += uint16_t(plateau.bottom[m][e] - plateau.top[m][e]);
        acc = fmaf(plateau.weight, float(sum), 0.f);
      }
      for (const Orbit& o : orbits) {
        int sum = 0;
        for (int m = 0; m < o.count; ++m) sum += pairs[o.offsets[m] + e];
        acc = fmaf(o.weight, float(sum), acc);
      }
      dst[e] = Filter2DByte(acc, ties_up);
    }
  }
}

}  // namespace tfgpuaug
