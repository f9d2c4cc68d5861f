// GPU launchers of the SpanRaster and LineRaster ops (their OpKernel is in span_raster_kernels.cc): the
// painting plane from the op's allocator when a box sum follows, the kernels on the op's stream.
#if GOOGLE_CUDA
#include "cc/kernels/augment/span_raster_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchSpanRaster(GpuDevice, tensorflow::OpKernelContext* ctx, SpanCombine combine, int32_t fill,
                              int box, tensorflow::Tensor* out) {
  const tensorflow::Tensor& rows = ctx->input(0);
  tensorflow::Tensor painted;
  if (box > 1) TF_RETURN_IF_ERROR(ctx->allocate_temp(tensorflow::DT_INT32, out->shape(), &painted));
  auto spans = [&](int i) { return ctx->input(i).flat<int32_t>().data(); };
  return ToTfStatus(
      SpanRasterGpu(spans(0), spans(1), spans(2), spans(3), static_cast<int>(rows.dim_size(0)),
                    rows.dim_size(1), static_cast<int>(out->dim_size(1)), static_cast<int>(out->dim_size(2)),
                    combine, fill, box, box > 1 ? painted.flat<int32_t>().data() : nullptr,
                    out->flat<int32_t>().data(), GpuStream(ctx)),
      "");
}

absl::Status LaunchLineRaster(GpuDevice, tensorflow::OpKernelContext* ctx, int span_width,
                              SpanCombine combine, int32_t fill, int box, tensorflow::Tensor* out) {
  const tensorflow::Tensor& x0 = ctx->input(0);
  tensorflow::Tensor painted;
  if (box > 1) TF_RETURN_IF_ERROR(ctx->allocate_temp(tensorflow::DT_INT32, out->shape(), &painted));
  auto lines = [&](int i) { return ctx->input(i).flat<int32_t>().data(); };
  return ToTfStatus(
      LineRasterGpu(lines(0), lines(1), lines(2), lines(3), lines(4), static_cast<int>(x0.dim_size(0)),
                    x0.dim_size(1), static_cast<int>(out->dim_size(1)), static_cast<int>(out->dim_size(2)),
                    span_width, combine, fill, box, box > 1 ? painted.flat<int32_t>().data() : nullptr,
                    out->flat<int32_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
