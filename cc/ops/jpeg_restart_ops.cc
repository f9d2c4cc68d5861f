// JpegAddRestartMarkers: each JPEG of a string tensor rewritten losslessly with restart
// markers (encode/jpeg_restart_transcode.h), for dataset preparation. CPU only.
#include <string>
#include <vector>

#include "cc/kernels/encode/jpeg_restart_transcode.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/parallel.h"
#include "tensorflow/core/framework/common_shape_fns.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {
namespace {

REGISTER_OP("TfGpuAug>JpegAddRestartMarkers")
    .Input("contents: string")
    .Output("output: string")
    .Attr("interval_width: int = 64")
    .Attr("optimize_huffman: bool = true")
    .Attr("max_pixels: int = 268435456")
    .SetShapeFn(shape_inference::UnchangedShape)
    .Doc(R"doc(
Each JPEG rewritten with the same DCT coefficients (lossless) as one sequential scan with a
restart marker after every interval of MCUs: a divisor of the MCUs per row, the nearest by
ratio to `interval_width` pixels. Optionally per-image Huffman tables.
APPn and COM markers are kept.
)doc");

class JpegAddRestartMarkersOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit JpegAddRestartMarkersOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    int interval_width = 0;
    int64_t max_pixels = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("interval_width", &interval_width));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("optimize_huffman", &options_.optimize_huffman));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("max_pixels", &max_pixels));
    OP_REQUIRES(
        ctx, interval_width >= 1,
        errors::InvalidArgument("interval_width must be a positive number of pixels, got ", interval_width));
    OP_REQUIRES(ctx, max_pixels > 0,
                errors::InvalidArgument("max_pixels must be positive, got ", max_pixels));
    options_.interval_width = interval_width;
    options_.max_pixels = max_pixels;
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& contents = ctx->input(0);
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, contents.shape(), &output));
    auto in = contents.flat<tstring>();
    auto out = output->flat<tstring>();
    const int64_t n = in.size();
    std::vector<::tfgpuaug::Status> statuses(n);
    ::tfgpuaug::ForEachImage(ctx, n, [&](int64_t i) {
      std::vector<uint8_t> rewritten;
      const auto* data = reinterpret_cast<const uint8_t*>(in(i).data());
      statuses[i] = ::tfgpuaug::AddJpegRestartMarkers(data, in(i).size(), options_, &rewritten);
      if (statuses[i].ok()) out(i).assign(reinterpret_cast<const char*>(rewritten.data()), rewritten.size());
    });
    for (int64_t i = 0; i < n; ++i) {
      OP_REQUIRES_OK(ctx, ::tfgpuaug::ToTfStatus(statuses[i], n > 1 ? "image " + std::to_string(i) : ""));
    }
  }

 private:
  ::tfgpuaug::RestartTranscodeOptions options_;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>JpegAddRestartMarkers").Device(DEVICE_CPU), JpegAddRestartMarkersOp);

}  // namespace
}  // namespace tensorflow
