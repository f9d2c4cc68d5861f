// JpegQuality: each image of a batch through a JPEG encode and decode at its own quality
// (DALI's jpeg_compression_distortion). CPU only: libjpeg; the stage runs it on the host.
#include <vector>

#include "cc/kernels/encode/jpeg_quality.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/parallel.h"
#include "cc/ops/pooled_output.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {
namespace {

REGISTER_OP("TfGpuAug>JpegQuality")
    .Input("images: uint8")
    .Input("quality: int32")
    .Output("output: uint8")
    .SetShapeFn([](shape_inference::InferenceContext* c) {
      shape_inference::ShapeHandle images, quality;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &quality));
      shape_inference::DimensionHandle unused;
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(quality, 0), &unused));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Each image encoded as JPEG at its quality ([batch], 1..100; 0 leaves it as it is) and decoded back, with PIL's
encoder defaults (4:2:0 chroma, accurate integer DCT, standard Huffman tables). Images of
1, 3 or 4 channels (alpha passes through).
)doc");

class JpegQualityOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit JpegQualityOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {}

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& quality = ctx->input(1);
    OP_REQUIRES(
        ctx, images.dims() == 4 && quality.dims() == 1 && quality.dim_size(0) == images.dim_size(0),
        errors::InvalidArgument("images must be [B, H, W, C] and quality [B], got ",
                                images.shape().DebugString(), " and ", quality.shape().DebugString()));
    const int64_t n = images.dim_size(0);
    const int h = static_cast<int>(images.dim_size(1)), w = static_cast<int>(images.dim_size(2));
    const int c = static_cast<int>(images.dim_size(3));
    OP_REQUIRES(ctx, c == 1 || c == 3 || c == 4,
                errors::InvalidArgument("images need 1, 3 or 4 channels, got ", c));
    auto q = quality.vec<int32_t>();
    for (int64_t i = 0; i < n; ++i) {
      OP_REQUIRES(ctx, q(i) >= 0 && q(i) <= 100,
                  errors::InvalidArgument("quality must be in [1, 100] (0: unchanged), got ", q(i),
                                          " for image ", i));
    }
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ::tfgpuaug::AllocatePooledOutput(ctx, 0, images.shape(), &out));
    const int64_t per = int64_t{h} * w * c;
    const uint8_t* in = images.flat<uint8_t>().data();
    uint8_t* o = out->flat<uint8_t>().data();
    std::vector<::tfgpuaug::Status> statuses(n);
    ::tfgpuaug::ForEachImage(ctx, n, [&](int64_t i) {
      std::copy(in + i * per, in + (i + 1) * per, o + i * per);
      if (h > 0 && w > 0 && q(i) > 0) statuses[i] = ::tfgpuaug::JpegRoundTrip(o + i * per, h, w, c, q(i));
    });
    for (int64_t i = 0; i < n; ++i) {
      OP_REQUIRES_OK(ctx, ::tfgpuaug::ToTfStatus(statuses[i], "image " + std::to_string(i)));
    }
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>JpegQuality").Device(DEVICE_CPU), JpegQualityOp);

}  // namespace
}  // namespace tensorflow
