// CPU loops of the span raster (span_raster.h): one image at a time. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SPAN_RASTER_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SPAN_RASTER_CPU_H_

#include <cstdint>

#include "cc/kernels/augment/span_raster.h"

namespace tfgpuaug {

// The spans painted into plane [h, w], which starts at `fill`: sums as +value / -value events at
// each span's ends and one running sum along each row (work in the spans' count, not their
// lengths), or the largest value, or the last span's value, per pixel (work in their lengths).
void SpanPaintCpu(const SpanList& spans, int h, int w, SpanCombine combine, int32_t fill, int32_t* plane);

// The lines' row spans (LineRowSpan, span_width columns a pixel), those inside the plane, painted
// as SpanPaintCpu paints spans, in the lines' order.
void LinePaintCpu(const LineList& lines, int h, int w, int span_width, SpanCombine combine, int32_t fill,
                  int32_t* plane);

// Sums of plane [h, w] over side x side windows (cv2.blur's anchor, reflect-101 border) into out
// [h, w]: sliding sums down the columns into column_sums [w], then along each row.
void BoxSumsCpu(const int32_t* plane, int h, int w, int side, uint32_t* column_sums, int32_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SPAN_RASTER_CPU_H_
