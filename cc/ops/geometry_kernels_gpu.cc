// GPU launchers of the geometry ops (their OpKernels, one class per op, are in
// geometry_kernels.cc). Host-side arguments a kernel reads (the resampling jobs, the crop
// offsets) go up through UploadToGpu, which holds its pinned staging until the copy has run.
#if GOOGLE_CUDA
#include <algorithm>
#include <type_traits>
#include <vector>

#include "cc/kernels/normalize/normalize_gpu.h"
#include "cc/kernels/resample/resample_gpu.h"
#include "cc/kernels/warp/warp_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/geometry_common.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernelContext;
using tensorflow::Tensor;
using tensorflow::TensorShape;

template <typename In, typename Out>
absl::Status LaunchCropResize(GpuDevice, OpKernelContext* ctx, const CropResizeCall& call) {
  const CropResizeBatch& batch = call.batch;
  const int c = call.channels, out_h = call.spec.out_h, out_w = call.spec.out_w;
  const int64_t n = batch.boxes.size();
  if (n == 0) return absl::OkStatus();
  int64_t scratch_floats = 0;
  int max_src_h = 0;
  for (int64_t i = 0; i < n; ++i) {
    scratch_floats += int64_t{batch.heights[i]} * out_w * c;
    max_src_h = std::max(max_src_h, batch.heights[i]);
  }
  Tensor scratch;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(tensorflow::DT_FLOAT, TensorShape({scratch_floats + 1}), &scratch));
  std::vector<ResampleJob> jobs(n);
  float* s = scratch.flat<float>().data();
  for (int64_t i = 0; i < n; ++i) {
    ResampleJob& j = jobs[i];
    CropAxes(batch.boxes[i], batch.heights[i], batch.widths[i], call.spec, &j.ay, &j.ax);
    j.src = ctx->input(0).flat<In>().data() + batch.pixel_offsets[i] * c;
    j.src_h = batch.heights[i];
    j.src_w = batch.widths[i];
    j.src_row_stride = long(batch.widths[i]) * c;
    j.out = call.out->flat<Out>().data() + i * int64_t{out_h} * out_w * c;
    j.scratch = s;
    j.epilogue = call.epilogues[i];
    s += int64_t{batch.heights[i]} * out_w * c;
  }
  Tensor device_jobs;
  TF_RETURN_IF_ERROR(UploadToGpu(ctx, jobs.data(), n * sizeof(ResampleJob), &device_jobs));
  return ToTfStatus(
      ResampleBatchGpu(reinterpret_cast<const ResampleJob*>(device_jobs.data()), static_cast<int>(n),
                       max_src_h, c, out_h, out_w, std::is_same<In, float>::value,
                       std::is_same<Out, float>::value, GpuStream(ctx)),
      "");
}

template absl::Status LaunchCropResize<uint8_t, uint8_t>(GpuDevice, OpKernelContext*, const CropResizeCall&);
template absl::Status LaunchCropResize<uint8_t, float>(GpuDevice, OpKernelContext*, const CropResizeCall&);
template absl::Status LaunchCropResize<float, float>(GpuDevice, OpKernelContext*, const CropResizeCall&);
template absl::Status LaunchCropResize<float, uint8_t>(GpuDevice, OpKernelContext*, const CropResizeCall&);

absl::Status LaunchCropMirrorNormalize(GpuDevice, OpKernelContext* ctx, const CropMirrorNormalizeAttrs& attrs,
                                       const CropMirrorNormalizeParams& p, Tensor* out) {
  const Tensor& offsets = ctx->input(1);
  Tensor device_offsets;
  TF_RETURN_IF_ERROR(UploadToGpu(ctx, offsets.data(), offsets.TotalBytes(), &device_offsets));
  // mean and 1/std travel by value in the launch.
  return ToTfStatus(CropMirrorNormalizeGpu(ctx->input(0).flat<uint8_t>().data(),
                                           static_cast<int>(ctx->input(0).dim_size(0)), p,
                                           reinterpret_cast<const int32_t*>(device_offsets.data()),
                                           ctx->input(2).flat<bool>().data(), attrs.mean.data(),
                                           attrs.inv_std.data(), out->data(), GpuStream(ctx)),
                    "");
}

absl::Status LaunchFlip(GpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  return ToTfStatus(
      FlipGpu(static_cast<const uint8_t*>(images.data()), static_cast<int>(images.dim_size(0)),
              images.dim_size(1), images.dim_size(2), images.dim_size(3),
              tensorflow::DataTypeSize(images.dtype()), ctx->input(1).flat<bool>().data(),
              ctx->input(2).flat<bool>().data(), static_cast<uint8_t*>(out->data()), GpuStream(ctx)),
      "");
}

absl::Status LaunchWarpAffine(GpuDevice, OpKernelContext* ctx, const AffineParams& p, Tensor* out) {
  return ToTfStatus(
      WarpAffineGpu(ctx->input(0).flat<uint8_t>().data(), static_cast<int>(ctx->input(0).dim_size(0)), p,
                    ctx->input(1).flat<float>().data(), out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
