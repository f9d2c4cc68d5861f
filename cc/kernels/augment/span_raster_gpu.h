// CUDA launchers of the span raster (span_raster.h): a batch of images, each with the same
// number of spans.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SPAN_RASTER_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SPAN_RASTER_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/augment/span_raster.h"
#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// Spans rows/starts/stops/values [batch, spans_per_image] (device) painted into out
// [batch, h, w], which starts at `fill`, as `combine` says, then box-summed over box x box
// windows when box > 1 (the painting then goes to `painted` [batch, h, w], device scratch;
// unused when box is 1).
Status SpanRasterGpu(const int32_t* rows, const int32_t* starts, const int32_t* stops, const int32_t* values,
                     int batch, int64_t spans_per_image, int h, int w, SpanCombine combine, int32_t fill,
                     int box, int32_t* painted, int32_t* out, cudaStream_t stream);

// Lines x0/y0/x1/y1/values [batch, lines_per_image] (device) painted as their row spans
// (LineRowSpan, span_width columns a pixel) as SpanRasterGpu paints spans, in the lines' order.
Status LineRasterGpu(const int32_t* x0, const int32_t* y0, const int32_t* x1, const int32_t* y1,
                     const int32_t* values, int batch, int64_t lines_per_image, int h, int w, int span_width,
                     SpanCombine combine, int32_t fill, int box, int32_t* painted, int32_t* out,
                     cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SPAN_RASTER_GPU_H_
