// OpKernels of the geometry ops, one class per op templated on the device (device_tags.h),
// and their CPU launchers, which spread the samples over the intra-op pool. The GPU launchers
// are in geometry_kernels_gpu.cc.
#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "cc/kernels/decode/decode_crop_resize.h"
#include "cc/kernels/normalize/normalize_cpu.h"
#include "cc/kernels/resample/resample_cpu.h"
#include "cc/kernels/warp/warp_cpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/geometry_common.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/parallel.h"
#include "cc/ops/pooled_output.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {
namespace {

using tensorflow::OpKernel;
using tensorflow::OpKernelConstruction;
using tensorflow::OpKernelContext;
using tensorflow::Tensor;
using tensorflow::TensorShape;

}  // namespace

template <typename In, typename Out>
absl::Status LaunchCropResize(CpuDevice, OpKernelContext* ctx, const CropResizeCall& call) {
  const CropResizeBatch& batch = call.batch;
  const int c = call.channels, out_h = call.spec.out_h, out_w = call.spec.out_w;
  const In* in = ctx->input(0).flat<In>().data();
  Out* o = call.out->flat<Out>().data();
  ForEachImage(ctx, batch.boxes.size(), [&](int64_t i) {
    ResampleAxis ay, ax;
    CropAxes(batch.boxes[i], batch.heights[i], batch.widths[i], call.spec, &ay, &ax);
    ResampleImageCpu<In, Out>(in + batch.pixel_offsets[i] * c, batch.heights[i], batch.widths[i], c,
                              long(batch.widths[i]) * c, ay, ax, out_h, out_w,
                              o + i * int64_t{out_h} * out_w * c, call.epilogues[i]);
  });
  return absl::OkStatus();
}

absl::Status LaunchCropMirrorNormalize(CpuDevice, OpKernelContext* ctx, const CropMirrorNormalizeAttrs& attrs,
                                       const CropMirrorNormalizeParams& p, Tensor* out) {
  const uint8_t* in = ctx->input(0).flat<uint8_t>().data();
  auto* o = static_cast<uint8_t*>(out->data());
  auto off = ctx->input(1).matrix<int32_t>();
  auto flip = ctx->input(2).vec<bool>();
  const int64_t in_per = int64_t{p.in_h} * p.in_w * p.channels;
  const int64_t out_bytes =
      int64_t{p.crop_h} * p.crop_w * p.out_channels * CropMirrorNormalizeElementBytes(p.type);
  ForEachImage(ctx, ctx->input(0).dim_size(0), [&](int64_t i) {
    CropMirrorNormalizeCpu(in + i * in_per, p, off(i, 0), off(i, 1), flip(i), attrs.mean.data(),
                           attrs.inv_std.data(), o + i * out_bytes);
  });
  return absl::OkStatus();
}

absl::Status LaunchFlip(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  auto h = ctx->input(1).vec<bool>();
  auto v = ctx->input(2).vec<bool>();
  const size_t elem = tensorflow::DataTypeSize(images.dtype());
  const int hh = images.dim_size(1), ww = images.dim_size(2), c = images.dim_size(3);
  const size_t per = size_t(hh) * ww * c * elem;
  const auto* in = static_cast<const uint8_t*>(images.data());
  auto* o = static_cast<uint8_t*>(out->data());
  ForEachImage(ctx, images.dim_size(0),
               [&](int64_t i) { FlipCpu(in + i * per, hh, ww, c, elem, h(i), v(i), o + i * per); });
  return absl::OkStatus();
}

absl::Status LaunchWarpAffine(CpuDevice, OpKernelContext* ctx, const AffineParams& p, Tensor* out) {
  const uint8_t* in = ctx->input(0).flat<uint8_t>().data();
  const float* m = ctx->input(1).flat<float>().data();
  uint8_t* o = out->flat<uint8_t>().data();
  const int64_t in_per = int64_t{p.in_h} * p.in_w * p.channels;
  const int64_t out_per = int64_t{p.out_h} * p.out_w * p.channels;
  ForEachImage(ctx, ctx->input(0).dim_size(0),
               [&](int64_t i) { WarpAffineCpu(in + i * in_per, p, m + 6 * i, o + i * out_per); });
  return absl::OkStatus();
}

namespace {

template <typename Device, typename In, typename Out>
class CropResizeOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit CropResizeOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadCropResizeAttrs(ctx, &attrs_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    CropResizeCall call;
    OP_REQUIRES_OK(ctx, BeginCropResize(ctx, attrs_, &call));
    OP_REQUIRES_OK(ctx, LaunchCropResize<In, Out>(Device(), ctx, call));
  }

 private:
  CropResizeAttrs attrs_;
};

template <typename Out>
class DecodeCropResizeOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit DecodeCropResizeOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadFusedDecodeAttrs(ctx, &request_, &max_dct_denom_));
    OP_REQUIRES_OK(ctx, ReadResizeAttrs(ctx, &method_, &antialias_));
    OP_REQUIRES_OK(ctx, ReadEpilogueAttrs(ctx, &epilogue_));
    OP_REQUIRES_OK(ctx, ReadOnErrorAttr(ctx, &skip_));
    random_ = ctx->def().op() == "TfGpuAug>DecodeRandomCropResize";
    if (random_) {
      std::vector<float> ratio;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("ratio", &ratio));
      OP_REQUIRES(ctx, ratio.size() == 2, tensorflow::errors::InvalidArgument("ratio needs 2 values"));
      ratio_lo_ = ratio[0];
      ratio_hi_ = ratio[1];
    }
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& contents = ctx->input(0);
    const int64_t n = contents.dim_size(0);
    // Inputs after contents: boxes, or the random box's draws (areas, aspects, positions).
    const int size_input = random_ ? 4 : 2;
    std::vector<BoxRule> rules;
    std::vector<RandomBoxDraws> draws;
    if (random_) {
      const Tensor& areas = ctx->input(1);
      const Tensor& aspects = ctx->input(2);
      const Tensor& positions = ctx->input(3);
      OP_REQUIRES(ctx,
                  areas.dims() == 2 && areas.dim_size(0) == n && areas.shape() == aspects.shape() &&
                      positions.dims() == 2 && positions.dim_size(0) == n && positions.dim_size(1) == 2,
                  tensorflow::errors::InvalidArgument(
                      "areas and aspects must be [", n, ", attempts] and positions [", n, ", 2], got ",
                      areas.shape().DebugString(), ", ", aspects.shape().DebugString(), ", ",
                      positions.shape().DebugString()));
      const int attempts = static_cast<int>(areas.dim_size(1));
      auto p = positions.matrix<float>();
      for (int64_t i = 0; i < n; ++i) {
        draws.push_back({areas.flat<float>().data() + i * attempts,
                         aspects.flat<float>().data() + i * attempts, attempts, p(i, 0), p(i, 1), ratio_lo_,
                         ratio_hi_});
      }
      for (int64_t i = 0; i < n; ++i) rules.emplace_back(&draws[i]);
    } else {
      const Tensor& boxes = ctx->input(1);
      OP_REQUIRES(ctx, boxes.dims() == 2 && boxes.dim_size(0) == n && boxes.dim_size(1) == 4,
                  tensorflow::errors::InvalidArgument("boxes must be [", n, ", 4], got ",
                                                      boxes.shape().DebugString()));
      auto b = boxes.matrix<float>();
      for (int64_t i = 0; i < n; ++i) rules.emplace_back(CropBox{b(i, 0), b(i, 1), b(i, 2), b(i, 3)});
    }
    int out_h, out_w;
    OP_REQUIRES_OK(ctx, ReadSize(ctx->input(size_input), &out_h, &out_w));
    std::vector<Epilogue> epilogues;
    OP_REQUIRES_OK(ctx, SampleEpilogues(epilogue_, ctx->input(size_input + 1), n, &epilogues));
    // The output is allocated when the first decoded image is ready to be written, not
    // up front: a consumer still holding the previous batch has usually let go of it by
    // then, so two batch buffers are alive instead of three (the peak RSS of a pipeline).
    const TensorShape out_shape({n, out_h, out_w, request_.channels});
    Tensor* out = nullptr;
    absl::Status alloc_status;
    std::once_flag allocated;
    auto allocate = [&]() {
      std::call_once(allocated, [&]() { alloc_status = AllocatePooledOutput(ctx, 0, out_shape, &out); });
      return alloc_status.ok() ? out->flat<Out>().data() : nullptr;
    };
    auto flat = contents.flat<tensorflow::tstring>();
    const ResizeSpec spec{out_h, out_w, method_, antialias_};
    const int64_t per = int64_t{out_h} * out_w * request_.channels;
    std::vector<Status> statuses(n);
    ForEachImageInGroups<DecodedCrop>(
        ctx, n, kDecodeGroup, kDecodeGroupBytes,
        [&](int64_t i, DecodedCrop* crop) -> size_t {
          statuses[i] =
              DecodeCrop(Bytes(flat(i)), flat(i).size(), request_, rules[i], spec, max_dct_denom_, crop);
          return statuses[i].ok() ? crop->bytes() : 0;
        },
        [&](int64_t i, DecodedCrop* crop) {
          if (!statuses[i].ok()) return;
          Out* o = allocate();
          if (o != nullptr) ResampleCrop<Out>(*crop, spec, epilogues[i], o + i * per);
        });
    allocate();  // an empty batch (or one of bad images) still has its output
    OP_REQUIRES_OK(ctx, alloc_status);
    Out* o = out->flat<Out>().data();
    OP_REQUIRES_OK(ctx, FinishPerImage(ctx, 1, statuses, skip_,
                                       [&](int64_t i) { std::fill_n(o + i * per, per, Out(0)); }));
  }

 private:
  DecodeRequest request_;
  int max_dct_denom_ = 8;
  ResizeMethod method_;
  bool antialias_;
  Epilogue epilogue_;
  bool skip_ = false;    // on_error="skip"
  bool random_ = false;  // DecodeRandomCropResize: the box is drawn from the header
  float ratio_lo_ = 0.f, ratio_hi_ = 0.f;
};

template <typename Device>
class CropMirrorNormalizeOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit CropMirrorNormalizeOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadCropMirrorNormalizeAttrs(ctx, &attrs_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& offsets = ctx->input(1);  // in host memory on every device
    CropMirrorNormalizeParams p;
    OP_REQUIRES_OK(ctx, MakeCropMirrorNormalizeParams(attrs_, images, offsets, ctx->input(2), &p));
    OP_REQUIRES_OK(ctx, CheckCropOffsets(p, offsets));
    const int64_t n = images.dim_size(0);
    TensorShape shape = p.nchw ? TensorShape({n, p.out_channels, p.crop_h, p.crop_w})
                               : TensorShape({n, p.crop_h, p.crop_w, p.out_channels});
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, shape, &out));
    if (n > 0) OP_REQUIRES_OK(ctx, LaunchCropMirrorNormalize(Device(), ctx, attrs_, p, out));
  }

 private:
  CropMirrorNormalizeAttrs attrs_;
};

template <typename Device>
class FlipOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit FlipOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {}

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& h = ctx->input(1);
    const Tensor& v = ctx->input(2);
    OP_REQUIRES(ctx, images.dims() == 4,
                tensorflow::errors::InvalidArgument("images must be [B, H, W, C], got ",
                                                    images.shape().DebugString()));
    const int64_t n = images.dim_size(0);
    OP_REQUIRES(ctx, h.dims() == 1 && v.dims() == 1 && h.dim_size(0) == n && v.dim_size(0) == n,
                tensorflow::errors::InvalidArgument(
                    "need one horizontal and one vertical flag per image: ", n, " images, flags ",
                    h.shape().DebugString(), " and ", v.shape().DebugString()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (images.NumElements() > 0) OP_REQUIRES_OK(ctx, LaunchFlip(Device(), ctx, out));
  }
};

template <typename Device>
class WarpAffineOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit WarpAffineOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadAffineAttrs(ctx, &interpolation_, &fill_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    const Tensor& matrices = ctx->input(1);
    OP_REQUIRES(ctx, images.dims() == 4,
                tensorflow::errors::InvalidArgument("images must be [B, H, W, C], got ",
                                                    images.shape().DebugString()));
    const int64_t n = images.dim_size(0);
    OP_REQUIRES(ctx, matrices.dims() >= 1 && matrices.dim_size(0) == n && matrices.NumElements() == 6 * n,
                tensorflow::errors::InvalidArgument("need one 2x3 matrix per image: ", n,
                                                    " images, matrices ", matrices.shape().DebugString()));
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
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, TensorShape({n, out_h, out_w, p.channels}), &out));
    if (out->NumElements() > 0) OP_REQUIRES_OK(ctx, LaunchWarpAffine(Device(), ctx, p, out));
  }

 private:
  Interpolation interpolation_;
  float fill_;
};

// CPU only, by design: Mosaic decodes, so it runs in the host part of a GPU-placed stage.
class PasteResizeOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit PasteResizeOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadResizeAttrs(ctx, &method_, &antialias_));
    int fill = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("fill_value", &fill));
    OP_REQUIRES(ctx, fill >= 0 && fill <= 255,
                tensorflow::errors::InvalidArgument("fill_value must be in [0, 255], got ", fill));
    fill_ = static_cast<uint8_t>(fill);
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& values = ctx->input(0);
    const Tensor& shapes = ctx->input(1);
    const Tensor& sources = ctx->input(2);
    const Tensor& boxes = ctx->input(3);
    const Tensor& regions = ctx->input(4);
    const int64_t b = sources.dim_size(0), k = sources.dim_size(1);
    OP_REQUIRES(ctx,
                boxes.dims() == 3 && boxes.dim_size(0) == b && boxes.dim_size(1) == k &&
                    boxes.dim_size(2) == 4 && regions.shape() == boxes.shape(),
                tensorflow::errors::InvalidArgument(
                    "sources [B, K] need boxes and regions [B, K, 4], got ", sources.shape().DebugString(),
                    ", ", boxes.shape().DebugString(), ", ", regions.shape().DebugString()));
    int out_h, out_w;
    OP_REQUIRES_OK(ctx, ReadSize(ctx->input(5), &out_h, &out_w));
    std::vector<int64_t> offsets;
    OP_REQUIRES_OK(ctx, ReadImageOffsets(values, shapes, &offsets));
    auto s = shapes.matrix<int32_t>();
    auto src = sources.matrix<int32_t>();
    auto box = boxes.tensor<float, 3>();
    auto region = regions.tensor<int32_t, 3>();
    for (int64_t i = 0; i < b; ++i) {
      for (int64_t t = 0; t < k; ++t) {
        const std::string where = "sample " + std::to_string(i) + ", tile " + std::to_string(t);
        const int image = src(i, t);
        OP_REQUIRES(ctx, image >= 0 && image < shapes.dim_size(0),
                    tensorflow::errors::InvalidArgument(where, ": source ", image, " is not one of the ",
                                                        shapes.dim_size(0), " images"));
        OP_REQUIRES_OK(ctx,
                       ToTfStatus(ValidateBox(CropBox{box(i, t, 0), box(i, t, 1), box(i, t, 2), box(i, t, 3)},
                                              s(image, 0), s(image, 1)),
                                  where));
        const int y = region(i, t, 0), x = region(i, t, 1), h = region(i, t, 2), w = region(i, t, 3);
        OP_REQUIRES(
            ctx, y >= 0 && x >= 0 && h >= 0 && w >= 0 && y + h <= out_h && x + w <= out_w,
            tensorflow::errors::InvalidArgument(where, ": region (", y, ", ", x, ", ", h, ", ", w,
                                                ") is not inside the ", out_h, "x", out_w, " canvas"));
      }
    }
    const int c = static_cast<int>(values.dim_size(1));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, TensorShape({b, out_h, out_w, c}), &out));
    const uint8_t* in = values.flat<uint8_t>().data();
    uint8_t* o = out->flat<uint8_t>().data();
    const int64_t per = int64_t{out_h} * out_w * c;
    ForEachImage(ctx, b, [&](int64_t i) {
      uint8_t* canvas = o + i * per;
      std::fill_n(canvas, per, fill_);
      for (int64_t t = 0; t < k; ++t) {
        const int image = src(i, t), h = region(i, t, 2), w = region(i, t, 3);
        if (h == 0 || w == 0) continue;
        const int src_h = s(image, 0), src_w = s(image, 1);
        ResampleAxis ay, ax;
        CropAxes(CropBox{box(i, t, 0), box(i, t, 1), box(i, t, 2), box(i, t, 3)}, src_h, src_w,
                 ResizeSpec{h, w, method_, antialias_}, &ay, &ax);
        ResampleImageCpu<uint8_t, uint8_t>(
            in + offsets[image] * c, src_h, src_w, c, long(src_w) * c, ay, ax, h, w,
            canvas + (int64_t{region(i, t, 0)} * out_w + region(i, t, 1)) * c, Epilogue(), long(out_w) * c);
      }
    });
  }

 private:
  ResizeMethod method_;
  bool antialias_ = false;
  uint8_t fill_ = 0;
};

#define REGISTER_CROP_RESIZE(In, Out)                           \
  REGISTER_KERNEL_BUILDER(Name("TfGpuAug>CropResize")           \
                              .Device(tensorflow::DEVICE_CPU)   \
                              .TypeConstraint<In>("T")          \
                              .TypeConstraint<Out>("out_type"), \
                          CropResizeOp<CpuDevice, In, Out>);
REGISTER_CROP_RESIZE(uint8_t, uint8_t)
REGISTER_CROP_RESIZE(uint8_t, float)
REGISTER_CROP_RESIZE(float, float)
REGISTER_CROP_RESIZE(float, uint8_t)

REGISTER_KERNEL_BUILDER(
    Name("TfGpuAug>DecodeCropResize").Device(tensorflow::DEVICE_CPU).TypeConstraint<uint8_t>("out_type"),
    DecodeCropResizeOp<uint8_t>);
REGISTER_KERNEL_BUILDER(
    Name("TfGpuAug>DecodeCropResize").Device(tensorflow::DEVICE_CPU).TypeConstraint<float>("out_type"),
    DecodeCropResizeOp<float>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>DecodeRandomCropResize")
                            .Device(tensorflow::DEVICE_CPU)
                            .TypeConstraint<uint8_t>("out_type"),
                        DecodeCropResizeOp<uint8_t>);
REGISTER_KERNEL_BUILDER(
    Name("TfGpuAug>DecodeRandomCropResize").Device(tensorflow::DEVICE_CPU).TypeConstraint<float>("out_type"),
    DecodeCropResizeOp<float>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>CropMirrorNormalize").Device(tensorflow::DEVICE_CPU),
                        CropMirrorNormalizeOp<CpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>PasteResize").Device(tensorflow::DEVICE_CPU), PasteResizeOp);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>Flip").Device(tensorflow::DEVICE_CPU), FlipOp<CpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>WarpAffine").Device(tensorflow::DEVICE_CPU), WarpAffineOp<CpuDevice>);

#if GOOGLE_CUDA
// Per-sample scalars the kernel validates or plans with (shapes, boxes, sizes, offsets) stay
// in host memory; pixels, matrices and flags the device reads are in device memory.
#define REGISTER_CROP_RESIZE_GPU(In, Out)                       \
  REGISTER_KERNEL_BUILDER(Name("TfGpuAug>CropResize")           \
                              .Device(tensorflow::DEVICE_GPU)   \
                              .HostMemory("shapes")             \
                              .HostMemory("boxes")              \
                              .HostMemory("size")               \
                              .HostMemory("mirror")             \
                              .TypeConstraint<In>("T")          \
                              .TypeConstraint<Out>("out_type"), \
                          CropResizeOp<GpuDevice, In, Out>);
REGISTER_CROP_RESIZE_GPU(uint8_t, uint8_t)
REGISTER_CROP_RESIZE_GPU(uint8_t, float)
REGISTER_CROP_RESIZE_GPU(float, float)
REGISTER_CROP_RESIZE_GPU(float, uint8_t)

REGISTER_KERNEL_BUILDER(
    Name("TfGpuAug>CropMirrorNormalize").Device(tensorflow::DEVICE_GPU).HostMemory("crop_offsets"),
    CropMirrorNormalizeOp<GpuDevice>);
#define REGISTER_FLIP_GPU(T)                                                                           \
  REGISTER_KERNEL_BUILDER(Name("TfGpuAug>Flip").Device(tensorflow::DEVICE_GPU).TypeConstraint<T>("T"), \
                          FlipOp<GpuDevice>);
REGISTER_FLIP_GPU(uint8_t)
REGISTER_FLIP_GPU(float)
REGISTER_FLIP_GPU(Eigen::half)
REGISTER_FLIP_GPU(Eigen::bfloat16)
// int32 (label maps, instance ids) follows TensorFlow's convention for int32 on a GPU device:
// the tensors stay in host memory and the CPU kernel runs, so a GPU-placed graph flipping an
// int32 mask places and runs, with no device copy of an int32 tensor.
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>Flip")
                            .Device(tensorflow::DEVICE_GPU)
                            .HostMemory("images")
                            .HostMemory("horizontal")
                            .HostMemory("vertical")
                            .HostMemory("flipped")
                            .TypeConstraint<int32_t>("T"),
                        FlipOp<CpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>WarpAffine").Device(tensorflow::DEVICE_GPU).HostMemory("size"),
                        WarpAffineOp<GpuDevice>);
#endif  // GOOGLE_CUDA

}  // namespace
}  // namespace tfgpuaug
