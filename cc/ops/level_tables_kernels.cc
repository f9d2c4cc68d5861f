// The LevelTables OpKernel (one class, templated on the device) and its CPU launcher: images
// over the intra-op pool. The GPU launcher is in level_tables_kernels_gpu.cc.
#include "cc/kernels/augment/level_tables.h"
#include "cc/kernels/augment/level_tables_cpu.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/image_batch_checks.h"
#include "cc/ops/parallel.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernelContext;
using tensorflow::Tensor;
namespace errors = tensorflow::errors;

absl::Status LaunchLevelTables(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const Tensor& tables = ctx->input(1);
  const Tensor& rows = ctx->input(2);
  const int64_t b = images.dim_size(0), pixels = images.dim_size(1) * images.dim_size(2);
  const int c = static_cast<int>(images.dim_size(3));
  const int sets = static_cast<int>(tables.dim_size(0)), row_count = static_cast<int>(tables.dim_size(1));
  const int per_pixel = static_cast<int>(tables.dim_size(2));
  const size_t set_bytes = size_t(row_count) * per_pixel * 256;
  const uint8_t* in = images.flat<uint8_t>().data();
  const uint8_t* entries = tables.flat<uint8_t>().data();
  const int32_t* row_index = rows.NumElements() == 0 ? nullptr : rows.flat<int32_t>().data();
  uint8_t* o = out->flat<uint8_t>().data();
  ForEachImage(ctx, b, [&](int64_t i) {
    const LevelTableSet set{entries + (sets == 1 ? 0 : i * set_bytes), row_count, per_pixel};
    LevelTablesCpu(in + i * pixels * c, pixels, c, set,
                   row_index == nullptr ? nullptr : row_index + i * pixels, o + i * pixels * c);
  });
  return absl::OkStatus();
}

#if GOOGLE_CUDA
absl::Status LaunchLevelTables(GpuDevice, OpKernelContext* ctx, Tensor* out);
#endif

namespace {

template <typename Device>
class LevelTablesOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  using GuardedOpKernel::GuardedOpKernel;

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& tables = ctx->input(1);
    const Tensor& rows = ctx->input(2);
    OP_REQUIRES_OK(ctx, CheckImageBatch(images));
    const int64_t b = images.dim_size(0), c = images.dim_size(3);
    OP_REQUIRES(
        ctx,
        tables.dims() == 4 && (tables.dim_size(0) == 1 || tables.dim_size(0) == b) &&
            tables.dim_size(1) >= 1 && tables.dim_size(1) < (int64_t{1} << 24) &&
            (tables.dim_size(2) == 1 || tables.dim_size(2) == c) && tables.dim_size(3) == 256,
        errors::InvalidArgument("need tables [1 or B, R >= 1, 1 or C, 256] for images ",
                                images.shape().DebugString(), ", got ", tables.shape().DebugString()));
    OP_REQUIRES_OK(ctx, CheckPixelPlane(rows, images, "rows", "row 0"));
    Tensor* out = nullptr;
    // Into the input's buffer when TensorFlow can hand it over (no other reader): every byte is
    // read before its own write, and rows of identity tables are then left untouched on the CPU.
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, images.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchLevelTables(Device(), ctx, out));
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>LevelTables").Device(tensorflow::DEVICE_CPU),
                        LevelTablesOp<CpuDevice>);
#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>LevelTables").Device(tensorflow::DEVICE_GPU),
                        LevelTablesOp<GpuDevice>);
#endif

}  // namespace
}  // namespace tfgpuaug
