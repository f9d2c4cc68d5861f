// GPU launcher of the PlasmaPattern op (its OpKernel is in plasma_kernels.cc): the grids from
// the op's allocator, the kernels on the op's stream.
#if GOOGLE_CUDA
#include "cc/kernels/augment/plasma_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/device_tags.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status LaunchPlasmaPattern(GpuDevice, tensorflow::OpKernelContext* ctx, const float* scales, int steps,
                                 tensorflow::Tensor* out) {
  const int64_t b = out->dim_size(0), side = (int64_t{1} << (steps + 1)) + 1;
  tensorflow::Tensor grids, bounds;
  TF_RETURN_IF_ERROR(
      ctx->allocate_temp(tensorflow::DT_FLOAT, tensorflow::TensorShape({2, b, side, side}), &grids));
  TF_RETURN_IF_ERROR(ctx->allocate_temp(tensorflow::DT_FLOAT, tensorflow::TensorShape({b, 2}), &bounds));
  PlasmaScales by_value{};
  for (int s = 0; s < steps; ++s) by_value.value[s] = scales[s];
  float* grid = grids.flat<float>().data();
  return ToTfStatus(PlasmaPatternGpu(ctx->input(0).flat<int32_t>().data(), static_cast<int>(b),
                                     static_cast<int>(out->dim_size(1)), static_cast<int>(out->dim_size(2)),
                                     by_value, steps, grid, grid + b * side * side,
                                     bounds.flat<float>().data(), out->flat<float>().data(), GpuStream(ctx)),
                    "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
