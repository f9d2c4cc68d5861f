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

// The box window of cv2.blur's default anchor: side // 2 pixels before the pixel, the rest after.
TFGPUAUG_HD int BoxBefore(int side) { return side / 2; }
TFGPUAUG_HD int BoxAfter(int side) { return side - 1 - side / 2; }

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SPAN_RASTER_H_
