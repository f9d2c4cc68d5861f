// Horizontal spans rasterised into an int32 plane per image, and optionally box-summed: the
// weather effects' shapes (polygon crossings and outlines, discs, rain drops, gravel squares)
// are spans of rows, and their cover counts (sum), largest marks (max) or last writers (last,
// painter's order) feed one table pass.
// Sums wrap as unsigned 32-bit integers (defined, where int32 overflow is not). Inline math
// shared by the CPU loop and the CUDA kernels.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SPAN_RASTER_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SPAN_RASTER_H_

#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// How spans on a pixel combine with the plane's starting value `fill`: their values added to it,
// the largest of it and theirs kept, or the value of the last span in the list (painter's order;
// `fill` where none covers the pixel).
enum class SpanCombine { kSum, kMax, kLast };

// One image's spans: span k covers row rows[k], columns starts[k] <= x < stops[k].
struct SpanList {
  const int32_t* rows;
  const int32_t* starts;
  const int32_t* stops;
  const int32_t* values;
  int64_t count;
};

// Span k clipped to an h x w plane: its columns [*x0, *x1) on row *y; false when nothing is left.
TFGPUAUG_HD bool ClipSpan(const SpanList& spans, int64_t k, int h, int w, int* y, int* x0, int* x1) {
  const int32_t row = spans.rows[k], start = spans.starts[k], stop = spans.stops[k];
  if (row < 0 || row >= h) return false;
  *y = row;
  *x0 = start < 0 ? 0 : start;
  *x1 = stop > w ? w : stop;
  return *x0 < *x1;
}

// Lines (x0, y0) -> (x1, y1) of one image, each with a value: the spans of the rows they cross.
struct LineList {
  const int32_t* x0;
  const int32_t* y0;
  const int32_t* x1;
  const int32_t* y1;
  const int32_t* values;
  int64_t count;
};

// A line as cv2.line walks it 4-connected (LINE_4, thickness 1): from its left end, M and m
// its major and minor extents (x major on ties). Unsigned 64-bit: products of two extents of
// int32 coordinates fit.
struct LineWalk {
  int64_t x0, y0, sx, sy;
  uint64_t major, minor;
  bool x_major;
};

TFGPUAUG_HD LineWalk LineWalkOf(const LineList& lines, int64_t k) {
  int64_t x0 = lines.x0[k], y0 = lines.y0[k], x1 = lines.x1[k], y1 = lines.y1[k];
  if (x1 < x0) {
    const int64_t tx = x0, ty = y0;
    x0 = x1, y0 = y1, x1 = tx, y1 = ty;
  }
  const uint64_t dx = uint64_t(x1 - x0), dy = uint64_t(y1 >= y0 ? y1 - y0 : y0 - y1);
  LineWalk l{
      x0,      y0, dx > 0 ? 1 : 0, y1 > y0 ? 1 : (y1 < y0 ? -1 : 0), dx >= dy ? dx : dy, dx >= dy ? dy : dx,
      dx >= dy};
  return l;
}

// The row offsets r (row y0 + sy r) of the line inside rows [0, h): [*first, *last], empty when
// first > last.
TFGPUAUG_HD void LineRowsInside(const LineWalk& l, int h, int64_t* first, int64_t* last) {
  const int64_t rows = int64_t(l.x_major ? l.minor : l.major);  // |dy|
  if (l.sy >= 0) {
    *first = l.y0 < 0 ? -l.y0 : 0;
    *last = rows < h - 1 - l.y0 ? rows : h - 1 - l.y0;
  } else {
    *first = l.y0 - (h - 1) > 0 ? l.y0 - (h - 1) : 0;
    *last = rows < l.y0 ? rows : l.y0;
  }
}

// Row offset r's pixels: one run of columns. y-major, the walk's step r holds the minor offsets
// ceil(m (r - 1) / M) .. ceil(m r / M); x-major, row r is reached by the column steps
// floor(M (r - 1) / m) + 1 .. floor(M r / m) + 1, at most M (all of 0 .. M when m = 0). Each
// pixel widened to `span_width` columns, (span_width - 1) / 2 of them left of it: the span on
// row *y, columns *start <= x < *stop.
TFGPUAUG_HD void LineRowSpan(const LineWalk& l, int64_t r, int span_width, int64_t* y, int64_t* start,
                             int64_t* stop) {
  const uint64_t u = uint64_t(r), big = l.major, small = l.minor;
  uint64_t lo, hi;
  if (l.x_major) {
    lo = u == 0 ? 0 : big * (u - 1) / small + 1;  // r > 0 only when m > 0
    hi = small == 0 ? big : (big * u / small + 1 < big ? big * u / small + 1 : big);
  } else {  // M > 0 here
    lo = u == 0 ? 0 : (small * (u - 1) + big - 1) / big;
    hi = (small * u + big - 1) / big;
  }
  const int64_t a = l.x0 + l.sx * int64_t(lo), b = l.x0 + l.sx * int64_t(hi);
  const int64_t left = span_width > 0 ? (span_width - 1) / 2 : 0;
  *y = l.y0 + l.sy * r;
  *start = (a < b ? a : b) - left;
  *stop = (a < b ? b : a) - left + span_width;
}

// The box window of cv2.blur's default anchor: side // 2 pixels before the pixel, the rest after.
TFGPUAUG_HD int BoxBefore(int side) { return side / 2; }
TFGPUAUG_HD int BoxAfter(int side) { return side - 1 - side / 2; }

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SPAN_RASTER_H_
