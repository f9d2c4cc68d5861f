// GPU launcher of the LevelTables op (its OpKernel is in level_tables_kernels.cc): one launch on
// the op's stream.
#if GOOGLE_CUDA
#include "cc/kernels/augment/level_tables_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchLevelTables(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  const tensorflow::Tensor& tables = ctx->input(1);
  const tensorflow::Tensor& rows = ctx->input(2);
  return ToTfStatus(
      LevelTablesGpu(images.flat<uint8_t>().data(), static_cast<int>(images.dim_size(0)),
                     images.dim_size(1) * images.dim_size(2), static_cast<int>(images.dim_size(3)),
                     tables.flat<uint8_t>().data(), static_cast<int>(tables.dim_size(0)),
                     static_cast<int>(tables.dim_size(1)), static_cast<int>(tables.dim_size(2)),
                     rows.NumElements() == 0 ? nullptr : rows.flat<int32_t>().data(),
                     out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
