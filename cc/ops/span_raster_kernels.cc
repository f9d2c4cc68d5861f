// The SpanRaster and LineRaster OpKernel (one class, templated on the device and the input
// kind) and their CPU launchers: images over the intra-op pool. The GPU launchers are in
// span_raster_kernels_gpu.cc.
#include <cstdint>
#include <string>
#include <vector>

#include "cc/kernels/augment/span_raster.h"
#include "cc/kernels/augment/span_raster_cpu.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/parallel.h"
#include "cc/ops/pooled_output.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernelContext;
using tensorflow::Tensor;
namespace errors = tensorflow::errors;

// The inputs as one image's span list.
SpanList SpansOf(OpKernelContext* ctx, int64_t image) {
  const int64_t per = ctx->input(0).dim_size(1);
  auto at = [&](int i) { return ctx->input(i).flat<int32_t>().data() + image * per; };
  return SpanList{at(0), at(1), at(2), at(3), per};
}

absl::Status LaunchSpanRaster(CpuDevice, OpKernelContext* ctx, SpanCombine combine, int32_t fill, int box,
                              Tensor* out) {
  const int h = static_cast<int>(out->dim_size(1)), w = static_cast<int>(out->dim_size(2));
  const size_t pixels = size_t(h) * w;
  int32_t* o = out->flat<int32_t>().data();
  ForEachImage(ctx, out->dim_size(0), [&](int64_t i) {
    if (box == 1) {
      SpanPaintCpu(SpansOf(ctx, i), h, w, combine, fill, o + i * pixels);
      return;
    }
    std::vector<int32_t> painted(pixels);
    std::vector<uint32_t> column_sums(w);
    SpanPaintCpu(SpansOf(ctx, i), h, w, combine, fill, painted.data());
    BoxSumsCpu(painted.data(), h, w, box, column_sums.data(), o + i * pixels);
  });
  return absl::OkStatus();
}

// The inputs as one image's line list.
LineList LinesOf(OpKernelContext* ctx, int64_t image) {
  const int64_t per = ctx->input(0).dim_size(1);
  auto at = [&](int i) { return ctx->input(i).flat<int32_t>().data() + image * per; };
  return LineList{at(0), at(1), at(2), at(3), at(4), per};
}

absl::Status LaunchLineRaster(CpuDevice, OpKernelContext* ctx, int span_width, SpanCombine combine,
                              int32_t fill, int box, Tensor* out) {
  const int h = static_cast<int>(out->dim_size(1)), w = static_cast<int>(out->dim_size(2));
  const size_t pixels = size_t(h) * w;
  int32_t* o = out->flat<int32_t>().data();
  ForEachImage(ctx, out->dim_size(0), [&](int64_t i) {
    if (box == 1) {
      LinePaintCpu(LinesOf(ctx, i), h, w, span_width, combine, fill, o + i * pixels);
      return;
    }
    std::vector<int32_t> painted(pixels);
    std::vector<uint32_t> column_sums(w);
    LinePaintCpu(LinesOf(ctx, i), h, w, span_width, combine, fill, painted.data());
    BoxSumsCpu(painted.data(), h, w, box, column_sums.data(), o + i * pixels);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchLineRaster(GpuDevice, OpKernelContext* ctx, int span_width, SpanCombine combine,
                              int32_t fill, int box, Tensor* out);
absl::Status LaunchSpanRaster(GpuDevice, OpKernelContext* ctx, SpanCombine combine, int32_t fill, int box,
                              Tensor* out);
#endif

namespace {

constexpr int64_t kLargestSide = int64_t{1} << 16;
constexpr int kLargestBox = 255;

// kLines: the inputs are lines (x0, y0, x1, y1, values) rather than spans (rows, starts, stops,
// values); the checks and the plane are the same.
template <typename Device, bool kLines>
class SpanRasterOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  static constexpr int kParts = kLines ? 5 : 4;

  explicit SpanRasterOp(tensorflow::OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {
    if (kLines) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("span_width", &span_width_));
      OP_REQUIRES(ctx, span_width_ >= 1 && span_width_ <= kLargestBox,
                  errors::InvalidArgument("span_width must be in [1, ", kLargestBox, "], got ", span_width_));
    }
    std::string combine;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("combine", &combine));
    combine_ =
        combine == "max" ? SpanCombine::kMax : (combine == "last" ? SpanCombine::kLast : SpanCombine::kSum);
    int64_t fill = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("fill", &fill));
    OP_REQUIRES(ctx, fill >= INT32_MIN && fill <= INT32_MAX,
                errors::InvalidArgument("fill must be a 32-bit integer, got ", fill));
    fill_ = static_cast<int32_t>(fill);
    OP_REQUIRES_OK(ctx, ctx->GetAttr("box", &box_));
    OP_REQUIRES(ctx, box_ >= 1 && box_ <= kLargestBox,
                errors::InvalidArgument("box must be a window side in [1, ", kLargestBox, "], got ", box_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const char* parts = kLines ? "x0, y0, x1, y1 and values" : "rows, starts, stops and values";
    const Tensor& rows = ctx->input(0);
    OP_REQUIRES(ctx, rows.dims() == 2,
                errors::InvalidArgument("need ", parts, " [B, K], got input 0 ", rows.shape().DebugString()));
    for (int i = 1; i < kParts; ++i) {
      OP_REQUIRES(
          ctx, ctx->input(i).shape() == rows.shape(),
          errors::InvalidArgument(parts, " must have one shape [B, K]: input 0 ", rows.shape().DebugString(),
                                  ", input ", i, " ", ctx->input(i).shape().DebugString()));
    }
    const Tensor& size = ctx->input(kParts);
    OP_REQUIRES(
        ctx, size.dims() == 1 && size.dim_size(0) == 2,
        errors::InvalidArgument("size must be [2] (height, width), got ", size.shape().DebugString()));
    const int64_t h = size.vec<int32_t>()(0), w = size.vec<int32_t>()(1);
    OP_REQUIRES(
        ctx, h >= 0 && w >= 0 && h < kLargestSide && w < kLargestSide,
        errors::InvalidArgument("size (height, width) must be in [0, ", kLargestSide, "), got ", h, ", ", w));
    const int64_t b = rows.dim_size(0);
    OP_REQUIRES(ctx, b == 0 || h * w < (int64_t{1} << 31) / b,
                errors::InvalidArgument("planes too large: ", rows.dim_size(0), " x ", h, " x ", w,
                                        " pixels (at most 2^31 in all)"));
    OP_REQUIRES(ctx, rows.dim_size(1) < INT32_MAX,
                errors::InvalidArgument("too many ", kLines ? "lines" : "spans",
                                        " an image: ", rows.dim_size(1), " (at most 2^31 - 2)"));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, tensorflow::TensorShape({b, h, w}), &out));
    if (out->NumElements() == 0) return;
    if (kLines) {
      OP_REQUIRES_OK(
          ctx, LaunchLineRaster(Device(), ctx, static_cast<int>(span_width_), combine_, fill_, box_, out));
    } else {
      OP_REQUIRES_OK(ctx, LaunchSpanRaster(Device(), ctx, combine_, fill_, box_, out));
    }
  }

 private:
  SpanCombine combine_ = SpanCombine::kSum;
  int32_t fill_ = 0;
  int box_ = 1;
  int64_t span_width_ = 1;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>SpanRaster").Device(tensorflow::DEVICE_CPU).HostMemory("size"),
                        SpanRasterOp<CpuDevice, false>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>LineRaster").Device(tensorflow::DEVICE_CPU).HostMemory("size"),
                        SpanRasterOp<CpuDevice, true>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>SpanRaster").Device(tensorflow::DEVICE_GPU).HostMemory("size"),
                        SpanRasterOp<GpuDevice, false>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>LineRaster").Device(tensorflow::DEVICE_GPU).HostMemory("size"),
                        SpanRasterOp<GpuDevice, true>);
#endif

}  // namespace
}  // namespace tfgpuaug
