#include "cc/kernels/augment/span_raster_cpu.h"

#include <algorithm>
#include <vector>

#include "cc/kernels/common/border.h"

namespace tfgpuaug {

namespace {

// The sums by rows: the spans bucketed by row (a counting sort), then each row's +v / -v events
// added in a row of scratch and its running sum written once. The plane is written once, where
// zeroing it, adding the events in place and summing it read and wrote it three times.
void SpanSumRowsCpu(const SpanList& spans, int h, int w, uint32_t fill, uint32_t* cells) {
  struct Clipped {
    int32_t x0, x1;
    uint32_t value;
  };
  std::vector<int64_t> first(size_t(h) + 1, 0);  // row r's spans: order[first[r], first[r + 1])
  int y, x0, x1;
  for (int64_t k = 0; k < spans.count; ++k) {
    if (ClipSpan(spans, k, h, w, &y, &x0, &x1)) ++first[size_t(y) + 1];
  }
  for (int r = 0; r < h; ++r) first[size_t(r) + 1] += first[r];
  std::vector<Clipped> order(size_t(first[h]));
  std::vector<int64_t> next(first.begin(), first.end() - 1);
  for (int64_t k = 0; k < spans.count; ++k) {
    if (ClipSpan(spans, k, h, w, &y, &x0, &x1)) {
      order[size_t(next[y]++)] = Clipped{x0, x1, static_cast<uint32_t>(spans.values[k])};
    }
  }
  std::vector<uint32_t> events(size_t(w) + 1);  // unsigned: sums wrap, defined; [w]: ends at the edge
  for (int r = 0; r < h; ++r) {
    uint32_t* row = cells + size_t(r) * w;
    if (first[r] == first[size_t(r) + 1]) {
      std::fill(row, row + w, fill);
      continue;
    }
    std::fill(events.begin(), events.end(), 0u);
    for (int64_t i = first[r]; i < first[size_t(r) + 1]; ++i) {
      events[size_t(order[i].x0)] += order[i].value;
      events[size_t(order[i].x1)] -= order[i].value;
    }
    uint32_t sum = fill;
    for (int x = 0; x < w; ++x) row[x] = sum += events[x];
  }
}

}  // namespace

void SpanPaintCpu(const SpanList& spans, int h, int w, SpanCombine combine, int32_t fill, int32_t* plane) {
  if (combine == SpanCombine::kSum) {
    SpanSumRowsCpu(spans, h, w, static_cast<uint32_t>(fill), reinterpret_cast<uint32_t*>(plane));
    return;
  }
  std::fill(plane, plane + size_t(h) * w, fill);
  int y, x0, x1;
  for (int64_t k = 0; k < spans.count; ++k) {
    if (!ClipSpan(spans, k, h, w, &y, &x0, &x1)) continue;
    int32_t* row = plane + size_t(y) * w;
    if (combine == SpanCombine::kMax) {
      for (int x = x0; x < x1; ++x) row[x] = std::max(row[x], spans.values[k]);
    } else {  // kLast: painter's order
      std::fill(row + x0, row + x1, spans.values[k]);
    }
  }
}

void LinePaintCpu(const LineList& lines, int h, int w, int span_width, SpanCombine combine, int32_t fill,
                  int32_t* plane) {
  std::vector<int32_t> rows, starts, stops, values;
  for (int64_t k = 0; k < lines.count; ++k) {
    const LineWalk l = LineWalkOf(lines, k);
    int64_t first, last, y, start, stop;
    LineRowsInside(l, h, &first, &last);
    for (int64_t r = first; r <= last; ++r) {
      LineRowSpan(l, r, span_width, &y, &start, &stop);
      if (stop <= 0 || start >= w) continue;  // clipped to [0, w] below: every span fits int32
      rows.push_back(int32_t(y));
      starts.push_back(int32_t(start < 0 ? 0 : start));
      stops.push_back(int32_t(stop > w ? w : stop));
      values.push_back(lines.values[k]);
    }
  }
  SpanPaintCpu(SpanList{rows.data(), starts.data(), stops.data(), values.data(), int64_t(rows.size())}, h, w,
               combine, fill, plane);
}

void BoxSumsCpu(const int32_t* plane, int h, int w, int side, uint32_t* column_sums, int32_t* out) {
  const int before = BoxBefore(side), after = BoxAfter(side);
  if (h == 0 || w == 0) return;
  const uint32_t* cells = reinterpret_cast<const uint32_t*>(plane);
  auto column = [w](int x) { return x >= 0 && x < w ? x : Reflect101(x, w); };  // inside: no division
  auto row_of = [&](int y) { return cells + size_t(Reflect101(y, h)) * w; };
  std::fill(column_sums, column_sums + w, 0u);
  for (int dy = -before; dy <= after; ++dy) {
    const uint32_t* src = row_of(dy);
    for (int x = 0; x < w; ++x) column_sums[x] += src[x];
  }
  for (int y = 0; y < h; ++y) {
    if (y > 0) {  // the window slides down one row: mirrored rows leave and enter as indices
      const uint32_t* enter = row_of(y + after);
      const uint32_t* leave = row_of(y - 1 - before);
      for (int x = 0; x < w; ++x) column_sums[x] += enter[x] - leave[x];
    }
    uint32_t sum = 0;
    for (int dx = -before; dx <= after; ++dx) sum += column_sums[column(dx)];
    uint32_t* dst = reinterpret_cast<uint32_t*>(out) + size_t(y) * w;
    dst[0] = sum;
    for (int x = 1; x < w; ++x) {
      sum += column_sums[column(x + after)] - column_sums[column(x - 1 - before)];
      dst[x] = sum;
    }
  }
}

}  // namespace tfgpuaug
