// GPU OpKernels of the geometry ops: per-sample scalars (shapes, boxes, sizes) in host
// memory, pixels and per-sample flags in device memory.
#if GOOGLE_CUDA
#include <vector>

#include "cc/kernels/normalize/normalize_gpu.h"
#include "cc/kernels/resample/resample_gpu.h"
#include "cc/kernels/warp/warp_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/geometry_common.h"
#include "cc/ops/gpu_stream.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {
namespace {

using tensorflow::OpKernel;
using tensorflow::OpKernelConstruction;
using tensorflow::OpKernelContext;
using tensorflow::Tensor;
using tensorflow::TensorShape;

template <typename In, typename Out>
class CropResizeGpuOp : public OpKernel {
 public:
  explicit CropResizeGpuOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadCropResizeAttrs(ctx, &attrs_));
  }

  void Compute(OpKernelContext* ctx) override {
    CropResizeCall call;
    OP_REQUIRES_OK(ctx, BeginCropResize(ctx, attrs_, &call));
    const CropResizeBatch& batch = call.batch;
    const int c = call.channels, out_h = call.spec.out_h, out_w = call.spec.out_w;
    const int64_t n = batch.boxes.size();
    int64_t scratch_floats = 0;
    for (int64_t i = 0; i < n; ++i) scratch_floats += int64_t{batch.heights[i]} * out_w * c;
    Tensor scratch;
    OP_REQUIRES_OK(ctx,
                   ctx->allocate_temp(tensorflow::DT_FLOAT, TensorShape({scratch_floats + 1}), &scratch));
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
    OP_REQUIRES_OK(ctx, ToTfStatus(ResampleBatchGpu(jobs.data(), static_cast<int>(n), c, out_h, out_w,
                                                    std::is_same<In, float>::value,
                                                    std::is_same<Out, float>::value, GpuStream(ctx))));
  }

 private:
  CropResizeAttrs attrs_;
};

class CropMirrorNormalizeGpuOp : public OpKernel {
 public:
  explicit CropMirrorNormalizeGpuOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadCropMirrorNormalizeAttrs(ctx, &attrs_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& offsets = ctx->input(1);
    CropMirrorNormalizeParams p;
    OP_REQUIRES_OK(ctx, MakeCropMirrorNormalizeParams(attrs_, images, offsets, ctx->input(2), &p));
    OP_REQUIRES_OK(ctx, CheckCropOffsets(p, offsets));  // offsets are in host memory
    const int64_t n = images.dim_size(0);
    TensorShape shape = p.nchw ? TensorShape({n, p.out_channels, p.crop_h, p.crop_w})
                               : TensorShape({n, p.crop_h, p.crop_w, p.out_channels});
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    // Offsets go to the device as part of a small upload.
    Tensor device_offsets;
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(tensorflow::DT_INT32, offsets.shape(), &device_offsets));
    cudaMemcpyAsync(device_offsets.data(), offsets.data(), offsets.TotalBytes(), cudaMemcpyHostToDevice,
                    GpuStream(ctx));
    OP_REQUIRES_OK(ctx, ToTfStatus(CropMirrorNormalizeGpu(
                            images.flat<uint8_t>().data(), static_cast<int>(n), p,
                            device_offsets.flat<int32_t>().data(), ctx->input(2).flat<bool>().data(),
                            attrs_.mean.data(), attrs_.inv_std.data(), out->data(), GpuStream(ctx))));
  }

 private:
  CropMirrorNormalizeAttrs attrs_;
};

class FlipGpuOp : public OpKernel {
 public:
  explicit FlipGpuOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const int64_t n = images.dim_size(0);
    OP_REQUIRES(ctx, ctx->input(1).NumElements() == n && ctx->input(2).NumElements() == n,
                tensorflow::errors::InvalidArgument("need one horizontal and one vertical flag per image"));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, images.shape(), &out));
    OP_REQUIRES_OK(
        ctx, ToTfStatus(FlipGpu(static_cast<const uint8_t*>(images.data()), static_cast<int>(n),
                                images.dim_size(1), images.dim_size(2), images.dim_size(3),
                                tensorflow::DataTypeSize(images.dtype()), ctx->input(1).flat<bool>().data(),
                                ctx->input(2).flat<bool>().data(), static_cast<uint8_t*>(out->data()),
                                GpuStream(ctx))));
  }
};

class WarpAffineGpuOp : public OpKernel {
 public:
  explicit WarpAffineGpuOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadAffineAttrs(ctx, &interpolation_, &fill_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const int64_t n = images.dim_size(0);
    OP_REQUIRES(ctx, ctx->input(1).dim_size(0) == n,
                tensorflow::errors::InvalidArgument("need one matrix per image"));
    int out_h, out_w;
    OP_REQUIRES_OK(ctx, ReadSize(ctx->input(2), &out_h, &out_w));
    const AffineParams p{static_cast<int>(images.dim_size(1)),
                         static_cast<int>(images.dim_size(2)),
                         static_cast<int>(images.dim_size(3)),
                         out_h,
                         out_w,
                         interpolation_,
                         fill_};
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({n, out_h, out_w, p.channels}), &out));
    OP_REQUIRES_OK(ctx, ToTfStatus(WarpAffineGpu(images.flat<uint8_t>().data(), static_cast<int>(n), p,
                                                 ctx->input(1).flat<float>().data(),
                                                 out->flat<uint8_t>().data(), GpuStream(ctx))));
  }

 private:
  Interpolation interpolation_;
  float fill_;
};

#define REGISTER_CROP_RESIZE_GPU(In, Out)                       \
  REGISTER_KERNEL_BUILDER(Name("TfGpuAug>CropResize")           \
                              .Device(tensorflow::DEVICE_GPU)   \
                              .HostMemory("shapes")             \
                              .HostMemory("boxes")              \
                              .HostMemory("size")               \
                              .HostMemory("mirror")             \
                              .TypeConstraint<In>("T")          \
                              .TypeConstraint<Out>("out_type"), \
                          CropResizeGpuOp<In, Out>);
REGISTER_CROP_RESIZE_GPU(uint8_t, uint8_t)
REGISTER_CROP_RESIZE_GPU(uint8_t, float)
REGISTER_CROP_RESIZE_GPU(float, float)
REGISTER_CROP_RESIZE_GPU(float, uint8_t)

REGISTER_KERNEL_BUILDER(
    Name("TfGpuAug>CropMirrorNormalize").Device(tensorflow::DEVICE_GPU).HostMemory("crop_offsets"),
    CropMirrorNormalizeGpuOp);
#define REGISTER_FLIP_GPU(T)                                                                           \
  REGISTER_KERNEL_BUILDER(Name("TfGpuAug>Flip").Device(tensorflow::DEVICE_GPU).TypeConstraint<T>("T"), \
                          FlipGpuOp);
REGISTER_FLIP_GPU(uint8_t)
REGISTER_FLIP_GPU(float)
REGISTER_FLIP_GPU(Eigen::half)
REGISTER_FLIP_GPU(Eigen::bfloat16)
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>WarpAffine").Device(tensorflow::DEVICE_GPU).HostMemory("size"),
                        WarpAffineGpuOp);

}  // namespace
}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
