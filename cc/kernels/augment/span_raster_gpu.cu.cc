#include "cc/kernels/augment/span_raster_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/common/border.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

__global__ void FillKernel(int32_t* plane, size_t total, int32_t value) {
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    plane[e] = value;
  }
}

// A span's effect on its row: +value at its start and -value at its stop (sum), its pixels raised
// to its value (max), or to `mark`, its position in the list plus one (last: the largest is
// the last painter).
__device__ void PaintSpan(int32_t* row, int x0, int x1, int w, SpanCombine combine, int32_t value,
                          int32_t mark) {
  if (combine == SpanCombine::kSum) {
    uint32_t* cells = reinterpret_cast<uint32_t*>(row);
    atomicAdd(&cells[x0], static_cast<uint32_t>(value));
    if (x1 < w) atomicAdd(&cells[x1], 0u - static_cast<uint32_t>(value));
  } else {
    const int32_t raise = combine == SpanCombine::kMax ? value : mark;
    for (int x = x0; x < x1; ++x) atomicMax(&row[x], raise);
  }
}

// One thread a span.
__global__ void PaintKernel(const int32_t* rows, const int32_t* starts, const int32_t* stops,
                            const int32_t* values, int batch, int64_t per, int h, int w, SpanCombine combine,
                            int32_t* plane) {
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(batch) * per;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per;
    const SpanList spans{rows + b * per, starts + b * per, stops + b * per, values + b * per, per};
    int y, x0, x1;
    const int64_t k = int64_t(e - b * per);
    if (!ClipSpan(spans, k, h, w, &y, &x0, &x1)) continue;
    PaintSpan(plane + (b * h + y) * size_t(w), x0, x1, w, combine, spans.values[k],
              static_cast<int32_t>(k + 1));
  }
}

// One thread a (line, row of the plane) pair: the line's span on that row, if it crosses it.
__global__ void LinePaintKernel(const int32_t* x0s, const int32_t* y0s, const int32_t* x1s,
                                const int32_t* y1s, const int32_t* values, int batch, int64_t per, int h,
                                int w, int span_width, SpanCombine combine, int32_t* plane) {
  const size_t per_image = size_t(per) * h;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(batch) * per_image;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per_image;
    const int64_t k = int64_t((e - b * per_image) / h), slot = int64_t((e - b * per_image) % h);
    const LineList lines{x0s + b * per, y0s + b * per, x1s + b * per, y1s + b * per, values + b * per, per};
    const LineWalk l = LineWalkOf(lines, k);
    int64_t first, last, y, start, stop;
    LineRowsInside(l, h, &first, &last);
    if (first + slot > last) continue;
    LineRowSpan(l, first + slot, span_width, &y, &start, &stop);
    if (stop <= 0 || start >= w) continue;
    PaintSpan(plane + (b * h + size_t(y)) * w, start < 0 ? 0 : int(start), stop > w ? w : int(stop), w,
              combine, lines.values[k], static_cast<int32_t>(k + 1));
  }
}

// One thread a row: the running sum of its events, from `fill`.
__global__ void RowSumKernel(int32_t* plane, size_t row_count, int w, int32_t fill) {
  for (size_t r = blockIdx.x * size_t(blockDim.x) + threadIdx.x; r < row_count;
       r += size_t(blockDim.x) * gridDim.x) {
    uint32_t* row = reinterpret_cast<uint32_t*>(plane) + r * w;
    uint32_t sum = static_cast<uint32_t>(fill);
    for (int x = 0; x < w; ++x) row[x] = sum += row[x];
  }
}

// One thread a pixel: the last painter's mark (its position plus one) replaced by its value, or
// `fill` where no span painted.
__global__ void LastValueKernel(const int32_t* values, int64_t per, size_t pixels_per_image, size_t total,
                                int32_t fill, int32_t* plane) {
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    const int32_t mark = plane[e];
    plane[e] = mark > 0 ? values[(e / pixels_per_image) * per + (mark - 1)] : fill;
  }
}

// One thread an output pixel: its box window summed, reflect-101 (the same sums as the CPU's
// sliding windows: unsigned addition is exact modulo 2^32 in any order).
__global__ void BoxKernel(const int32_t* painted, int batch, int h, int w, int side, int32_t* out) {
  const size_t per = size_t(h) * w;
  const int before = BoxBefore(side), after = BoxAfter(side);
  const uint32_t* cells = reinterpret_cast<const uint32_t*>(painted);
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < per * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per, i = e - b * per;
    const int y = static_cast<int>(i / w), x = static_cast<int>(i - size_t(y) * w);
    uint32_t sum = 0;
    for (int dy = -before; dy <= after; ++dy) {
      const uint32_t* row = cells + b * per + size_t(Reflect101(y + dy, h)) * w;
      for (int dx = -before; dx <= after; ++dx) sum += row[Reflect101(x + dx, w)];
    }
    out[e] = static_cast<int32_t>(sum);
  }
}

// What follows the painting: the running sums (sum), the last painters' values (last), the box
// sums.
Status FinishRaster(const int32_t* values, int batch, int64_t per, int h, int w, SpanCombine combine,
                    int32_t fill, int box, int32_t* plane, int32_t* out, cudaStream_t stream) {
  const size_t pixels = size_t(batch) * h * w;
  if (combine == SpanCombine::kSum) {
    RowSumKernel<<<GridBlocks(size_t(batch) * h), kThreadsPerBlock, 0, stream>>>(plane, size_t(batch) * h, w,
                                                                                 fill);
  } else if (combine == SpanCombine::kLast) {
    LastValueKernel<<<GridBlocks(pixels), kThreadsPerBlock, 0, stream>>>(values, per, size_t(h) * w, pixels,
                                                                         fill, plane);
  }
  if (box > 1) BoxKernel<<<GridBlocks(pixels), kThreadsPerBlock, 0, stream>>>(plane, batch, h, w, box, out);
  return LaunchStatus("span raster kernels");
}

}  // namespace

Status SpanRasterGpu(const int32_t* rows, const int32_t* starts, const int32_t* stops, const int32_t* values,
                     int batch, int64_t spans_per_image, int h, int w, SpanCombine combine, int32_t fill,
                     int box, int32_t* painted, int32_t* out, cudaStream_t stream) {
  const size_t pixels = size_t(batch) * h * w;
  if (pixels == 0) return Status::Ok();  // nothing to launch (a grid of no blocks is an error)
  int32_t* plane = box > 1 ? painted : out;
  // max starts at fill; sum and last start at 0 (events, marks) and meet fill afterwards
  FillKernel<<<GridBlocks(pixels), kThreadsPerBlock, 0, stream>>>(plane, pixels,
                                                                  combine == SpanCombine::kMax ? fill : 0);
  const size_t span_count = size_t(batch) * spans_per_image;
  if (span_count > 0) {
    PaintKernel<<<GridBlocks(span_count), kThreadsPerBlock, 0, stream>>>(
        rows, starts, stops, values, batch, spans_per_image, h, w, combine, plane);
  }
  return FinishRaster(values, batch, spans_per_image, h, w, combine, fill, box, plane, out, stream);
}

Status LineRasterGpu(const int32_t* x0, const int32_t* y0, const int32_t* x1, const int32_t* y1,
                     const int32_t* values, int batch, int64_t lines_per_image, int h, int w, int span_width,
                     SpanCombine combine, int32_t fill, int box, int32_t* painted, int32_t* out,
                     cudaStream_t stream) {
  const size_t pixels = size_t(batch) * h * w;
  if (pixels == 0) return Status::Ok();
  int32_t* plane = box > 1 ? painted : out;
  FillKernel<<<GridBlocks(pixels), kThreadsPerBlock, 0, stream>>>(plane, pixels,
                                                                  combine == SpanCombine::kMax ? fill : 0);
  const size_t pairs = size_t(batch) * lines_per_image * h;
  if (pairs > 0) {
    LinePaintKernel<<<GridBlocks(pairs), kThreadsPerBlock, 0, stream>>>(
        x0, y0, x1, y1, values, batch, lines_per_image, h, w, span_width, combine, plane);
  }
  return FinishRaster(values, batch, lines_per_image, h, w, combine, fill, box, plane, out, stream);
}

}  // namespace tfgpuaug
