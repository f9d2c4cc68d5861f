// OpKernels of the remap ops. Remap, RemapAffine, RemapRadial and CellMaps run on the CPU (samples over the
// intra-op pool) and the GPU; RemapBoxes and RemapPoints are CPU kernels, registered for GPU placement with
// every tensor in host memory (as TensorFlow runs int32 ops there), so a GPU-placed stage places them.
#include <algorithm>
#include <string>
#include <vector>

#include "cc/kernels/warp/cell_maps.h"
#include "cc/kernels/warp/cell_maps_cpu.h"
#include "cc/kernels/warp/elastic_maps_cpu.h"
#include "cc/kernels/warp/remap_cpu.h"
#include "cc/kernels/warp/tile_shuffle_cpu.h"
#include "cc/ops/guarded_kernel.h"
#include "cc/ops/parallel.h"
#include "cc/ops/pooled_output.h"
#include "cc/ops/remap_common.h"
#include "cc/ops/thread_scratch.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

using tensorflow::OpKernelConstruction;
using tensorflow::OpKernelContext;
using tensorflow::Tensor;
using tensorflow::TensorShape;
namespace errors = tensorflow::errors;

absl::Status LaunchRemap(CpuDevice, OpKernelContext* ctx, const RemapParams& p, Tensor* out) {
  const uint8_t* in = ctx->input(0).flat<uint8_t>().data();
  const float* maps = ctx->input(1).flat<float>().data();
  uint8_t* o = out->flat<uint8_t>().data();
  const int64_t in_per = int64_t{p.in_h} * p.in_w * p.channels, pixels = int64_t{p.out_h} * p.out_w;
  ForEachImage(ctx, ctx->input(0).dim_size(0), [&](int64_t i) {
    RemapCpu(in + i * in_per, p, maps + 2 * i * pixels, o + i * pixels * p.channels);
  });
  return absl::OkStatus();
}

absl::Status LaunchRemapAffine(CpuDevice, OpKernelContext* ctx, const RemapParams& p, Tensor* out) {
  const uint8_t* in = ctx->input(0).flat<uint8_t>().data();
  const float* matrices = ctx->input(1).flat<float>().data();
  uint8_t* o = out->flat<uint8_t>().data();
  const int64_t in_per = int64_t{p.in_h} * p.in_w * p.channels,
                out_per = int64_t{p.out_h} * p.out_w * p.channels;
  ForEachImage(ctx, ctx->input(0).dim_size(0),
               [&](int64_t i) { RemapAffineCpu(in + i * in_per, p, matrices + 6 * i, o + i * out_per); });
  return absl::OkStatus();
}

absl::Status LaunchRemapRadial(CpuDevice, OpKernelContext* ctx, const RemapParams& p, Tensor* out) {
  const uint8_t* in = ctx->input(0).flat<uint8_t>().data();
  const float* coefficients = ctx->input(1).flat<float>().data();
  uint8_t* o = out->flat<uint8_t>().data();
  const int64_t per = int64_t{p.in_h} * p.in_w * p.channels;
  if (ctx->input(1).dims() == 3) {  // [B, C, 2]: a map a channel
    ForEachImage(ctx, ctx->input(0).dim_size(0), [&](int64_t i) {
      std::vector<uint8_t> own;
      uint8_t* planes = PoolThreadScratch(2 * size_t(p.in_h) * p.in_w, own);
      RemapRadialChannelsCpu(in + i * per, p, coefficients + 2 * p.channels * i, planes, o + i * per);
    });
    return absl::OkStatus();
  }
  ForEachImage(ctx, ctx->input(0).dim_size(0),
               [&](int64_t i) { RemapRadialCpu(in + i * per, p, coefficients + 2 * i, o + i * per); });
  return absl::OkStatus();
}

absl::Status LaunchTileShuffle(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int h = images.dim_size(1), w = images.dim_size(2), c = images.dim_size(3);
  const int rows = ctx->input(1).dim_size(1) - 1, cols = ctx->input(2).dim_size(1) - 1;
  const int32_t* row_starts = ctx->input(1).flat<int32_t>().data();
  const int32_t* col_starts = ctx->input(2).flat<int32_t>().data();
  const int32_t* sources = ctx->input(3).flat<int32_t>().data();
  const auto plan = [&](int64_t i) {
    return TilePlan{row_starts + i * (rows + 1), rows, col_starts + i * (cols + 1), cols,
                    sources + i * int64_t{rows} * cols};
  };
  for (int64_t i = 0; i < images.dim_size(0); ++i) {  // on this thread: a bad plan is an error, not a read
    const std::string bad = CheckTilePlan(plan(i), h, w);
    if (!bad.empty()) return errors::InvalidArgument("image ", i, "'s tile plan: ", bad);
  }
  const uint8_t* in = images.flat<uint8_t>().data();
  uint8_t* o = out->flat<uint8_t>().data();
  const int64_t per = int64_t{h} * w * c;
  ForEachImage(ctx, images.dim_size(0),
               [&](int64_t i) { TileShuffleCpu(in + i * per, h, w, c, plan(i), o + i * per); });
  return absl::OkStatus();
}

absl::Status LaunchElasticMaps(CpuDevice, OpKernelContext* ctx, const ElasticShape& s, Tensor* out) {
  const int64_t batch = out->dim_size(0), per = ElasticScratchFloats(s);
  Tensor scratch;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(tensorflow::DT_FLOAT, TensorShape({batch * per}), &scratch));
  // the edge weights of both axes, once for the batch (on this thread: nothing allocates in a shard)
  std::vector<float> weights(2 * (int64_t{s.w} + s.h));
  const float* kernel = ctx->input(2).flat<float>().data();
  float* left_w = weights.data();
  float* right_w = left_w + s.w;
  float* left_h = right_w + s.w;
  float* right_h = left_h + s.h;
  ElasticEdgeWeights(kernel, s.taps, s.w, left_w, right_w);
  ElasticEdgeWeights(kernel, s.taps, s.h, left_h, right_h);
  const ElasticEdges edges{left_w, right_w, left_h, right_h};
  const int32_t* seeds = ctx->input(0).flat<int32_t>().data();
  const float* alpha = ctx->input(1).flat<float>().data();
  float* maps = out->flat<float>().data();
  float* work = scratch.flat<float>().data();
  const int64_t maps_per = 2 * int64_t{s.h} * s.w;
  ForEachImage(ctx, batch, [&](int64_t i) {
    ElasticMapsCpu(s, kernel, edges, static_cast<uint32_t>(seeds[i]), alpha[i], work + i * per,
                   maps + i * maps_per);
  });
  return absl::OkStatus();
}

absl::Status LaunchCellMaps(CpuDevice, OpKernelContext* ctx, Tensor* out) {
  const Tensor& owners = ctx->input(0);
  const int h = owners.dim_size(1), w = owners.dim_size(2), cells = ctx->input(1).dim_size(1);
  const int32_t* own = owners.flat<int32_t>().data();
  const double* matrices = ctx->input(1).flat<double>().data();
  float* maps = out->flat<float>().data();
  const int64_t plane = int64_t{h} * w;
  ForEachImage(ctx, owners.dim_size(0), [&](int64_t i) {
    CellMapsCpu(own + i * plane, matrices + i * 9 * int64_t{cells}, cells, h, w, maps + 2 * i * plane);
  });
  return absl::OkStatus();
}

absl::Status LaunchSeparableResample(CpuDevice, OpKernelContext* ctx, uint8_t fill, Tensor* out) {
  const Tensor& images = ctx->input(0);
  const int h = images.dim_size(1), w = images.dim_size(2), c = images.dim_size(3);
  const int out_h = out->dim_size(1), out_w = out->dim_size(2);
  const uint8_t* in = images.flat<uint8_t>().data();
  const int32_t* row_index = ctx->input(1).flat<int32_t>().data();
  const float* row_weight = ctx->input(2).flat<float>().data();
  const int32_t* col_index = ctx->input(3).flat<int32_t>().data();
  const float* col_weight = ctx->input(4).flat<float>().data();
  uint8_t* o = out->flat<uint8_t>().data();
  ForEachImage(ctx, images.dim_size(0), [&](int64_t i) {
    const SeparableTaps rows{row_index + 2 * i * out_h, row_weight + i * out_h};
    const SeparableTaps cols{col_index + 2 * i * out_w, col_weight + i * out_w};
    SeparableResampleCpu(in + i * h * int64_t{w} * c, h, w, c, rows, out_h, cols, out_w, fill,
                         o + i * out_h * int64_t{out_w} * c);
  });
  return absl::OkStatus();
}

namespace {

BorderMode ParseBorder(const std::string& s) {
  if (s == "replicate") return BorderMode::kReplicate;
  if (s == "reflect") return BorderMode::kReflect;
  if (s == "wrap") return BorderMode::kWrap;
  if (s == "reflect_101") return BorderMode::kReflect101;
  return BorderMode::kConstant;
}

absl::Status CheckMaps(const Tensor& maps) {
  if (maps.dims() != 4 || maps.dim_size(3) != 2) {
    return errors::InvalidArgument("maps must be [B, H, W, 2] (x, y per output pixel), got ",
                                   maps.shape().DebugString());
  }
  if (maps.dim_size(1) > (1 << 24) || maps.dim_size(2) > (1 << 24)) {
    return errors::InvalidArgument("maps too large: ", maps.shape().DebugString());
  }
  return absl::OkStatus();
}

// rows [M, width] with their image indices [M], each in [0, batch).
absl::Status CheckRows(const Tensor& rows, const Tensor& images, int width, int64_t batch, const char* what) {
  if (rows.dims() != 2 || rows.dim_size(1) != width || images.dims() != 1 ||
      images.dim_size(0) != rows.dim_size(0)) {
    return errors::InvalidArgument(what, " must be [M, ", width, "] with [M] image indices, got ",
                                   rows.shape().DebugString(), " and ", images.shape().DebugString());
  }
  auto ids = images.vec<int64_t>();
  for (int64_t k = 0; k < ids.size(); ++k) {
    if (ids(k) < 0 || ids(k) >= batch) {
      return errors::InvalidArgument(what, " row ", k, " names image ", ids(k), " of a batch of ", batch);
    }
  }
  return absl::OkStatus();
}

// Where each op's map comes from: Remap reads it (input 1, the maps [B, h, w, 2]), RemapAffine
// computes it from matrices [B, 2, 3] (input 2 the output size [h, w]), RemapRadial from lens
// coefficients [B, 2] or [B, C, 2] (output the input's size).
enum class MapSource { kMaps, kAffine, kRadial };

template <typename Device, MapSource kSource>
class RemapOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit RemapOp(OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {
    std::string interpolation, border;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("interpolation", &interpolation));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("border_mode", &border));
    float fill;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("fill_value", &fill));
    interpolation_ = interpolation == "nearest" ? Interpolation::kNearest : Interpolation::kBilinear;
    border_ = ParseBorder(border);
    fill_ = RoundHalfEvenToUint8(fill == fill ? fill : 0.f);
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES(ctx, images.dims() == 4,
                errors::InvalidArgument("images must be [B, H, W, C], got ", images.shape().DebugString()));
    int64_t out_h = 0, out_w = 0;
    if (kSource == MapSource::kRadial) {
      const Tensor& coefficients = ctx->input(1);
      const bool per_image = coefficients.dims() == 2 && coefficients.dim_size(1) == 2;
      const bool per_channel = coefficients.dims() == 3 && coefficients.dim_size(1) == images.dim_size(3) &&
                               coefficients.dim_size(2) == 2;
      OP_REQUIRES(ctx, (per_image || per_channel) && coefficients.dim_size(0) == images.dim_size(0),
                  errors::InvalidArgument("coefficients must be [B, 2] (k1, k2 per image) or [B, C, 2] (per "
                                          "channel) for images ",
                                          images.shape().DebugString(), ", got ",
                                          coefficients.shape().DebugString()));
      out_h = images.dim_size(1), out_w = images.dim_size(2);
    } else if (kSource == MapSource::kAffine) {
      const Tensor& matrices = ctx->input(1);
      const Tensor& size = ctx->input(2);
      OP_REQUIRES(
          ctx, matrices.dims() == 3 && matrices.dim_size(1) == 2 && matrices.dim_size(2) == 3,
          errors::InvalidArgument("matrices must be [B, 2, 3] (input x, y of output pixel x, y), got ",
                                  matrices.shape().DebugString()));
      OP_REQUIRES(ctx, matrices.dim_size(0) == images.dim_size(0),
                  errors::InvalidArgument("need one matrix per image: ", images.dim_size(0),
                                          " images, matrices ", matrices.shape().DebugString()));
      OP_REQUIRES(ctx, size.NumElements() == 2,
                  errors::InvalidArgument("size must be [height, width], got ", size.shape().DebugString()));
      out_h = size.flat<int32_t>()(0), out_w = size.flat<int32_t>()(1);
      OP_REQUIRES(ctx, out_h >= 0 && out_w >= 0 && out_h <= (1 << 24) && out_w <= (1 << 24),
                  errors::InvalidArgument("size must be in [0, 2^24] each, got [", out_h, ", ", out_w, "]"));
    } else {
      const Tensor& maps = ctx->input(1);
      OP_REQUIRES_OK(ctx, CheckMaps(maps));
      OP_REQUIRES(ctx, maps.dim_size(0) == images.dim_size(0),
                  errors::InvalidArgument("need one map per image: ", images.dim_size(0), " images, maps ",
                                          maps.shape().DebugString()));
      out_h = maps.dim_size(1), out_w = maps.dim_size(2);
    }
    const RemapParams p{static_cast<int>(images.dim_size(1)),
                        static_cast<int>(images.dim_size(2)),
                        static_cast<int>(images.dim_size(3)),
                        static_cast<int>(out_h),
                        static_cast<int>(out_w),
                        interpolation_,
                        border_,
                        fill_};
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(
                            ctx, 0, TensorShape({images.dim_size(0), p.out_h, p.out_w, p.channels}), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES(ctx, p.in_h > 0 && p.in_w > 0,
                errors::InvalidArgument("cannot remap empty images ", images.shape().DebugString()));
    OP_REQUIRES_OK(ctx, kSource == MapSource::kAffine   ? LaunchRemapAffine(Device(), ctx, p, out)
                        : kSource == MapSource::kRadial ? LaunchRemapRadial(Device(), ctx, p, out)
                                                        : LaunchRemap(Device(), ctx, p, out));
  }

 private:
  Interpolation interpolation_;
  BorderMode border_;
  uint8_t fill_;
};

template <typename Device>
class SeparableResampleOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit SeparableResampleOp(OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {
    float fill;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("fill_value", &fill));
    fill_ = RoundHalfEvenToUint8(fill == fill ? fill : 0.f);
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES(ctx, images.dims() == 4,
                errors::InvalidArgument("images must be [B, H, W, C], got ", images.shape().DebugString()));
    const int64_t b = images.dim_size(0);
    for (int axis = 0; axis < 2; ++axis) {
      const Tensor& index = ctx->input(1 + 2 * axis);
      const Tensor& weight = ctx->input(2 + 2 * axis);
      OP_REQUIRES(
          ctx,
          index.dims() == 3 && index.dim_size(0) == b && index.dim_size(2) == 2 && weight.dims() == 2 &&
              weight.dim_size(0) == b && weight.dim_size(1) == index.dim_size(1) &&
              index.dim_size(1) <= (1 << 24),
          errors::InvalidArgument(axis == 0 ? "row" : "column", " taps must be [B, n, 2] indices and [B, n] ",
                                  "weights for ", b, " images, got ", index.shape().DebugString(), " and ",
                                  weight.shape().DebugString()));
    }
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0,
                                             TensorShape({b, ctx->input(1).dim_size(1),
                                                          ctx->input(3).dim_size(1), images.dim_size(3)}),
                                             &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchSeparableResample(Device(), ctx, fill_, out));
  }

 private:
  uint8_t fill_;
};

template <typename Device>
class ElasticMapsOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit ElasticMapsOp(OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("same_dxdy", &same_dxdy_));
    std::string distribution;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("noise_distribution", &distribution));
    gaussian_ = distribution == "gaussian";
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& seeds = ctx->input(0);
    const Tensor& alpha = ctx->input(1);
    const Tensor& kernel = ctx->input(2);
    const Tensor& size = ctx->input(3);
    OP_REQUIRES(ctx, seeds.dims() == 1 && alpha.dims() == 1 && seeds.dim_size(0) == alpha.dim_size(0),
                errors::InvalidArgument("seeds and alpha must be [B] each, got ", seeds.shape().DebugString(),
                                        " and ", alpha.shape().DebugString()));
    OP_REQUIRES(ctx,
                kernel.dims() == 1 && kernel.dim_size(0) % 2 == 1 && kernel.dim_size(0) <= kMaxElasticTaps,
                errors::InvalidArgument("kernel must be [taps] with an odd number of taps up to ",
                                        kMaxElasticTaps, ", got ", kernel.shape().DebugString()));
    OP_REQUIRES(ctx, size.dims() == 1 && size.dim_size(0) == 2,
                errors::InvalidArgument("size must be [height, width], got ", size.shape().DebugString()));
    const int h = size.flat<int32_t>()(0), w = size.flat<int32_t>()(1);
    OP_REQUIRES(ctx,
                h >= 1 && w >= 1 && h <= kMaxElasticSide && w <= kMaxElasticSide &&
                    int64_t{h} * w <= kMaxElasticPixels,
                errors::InvalidArgument("size must be 1 to ", kMaxElasticSide, " a side and ",
                                        kMaxElasticPixels, " pixels at most, got ", h, " x ", w));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, TensorShape({seeds.dim_size(0), h, w, 2}), &out));
    if (out->NumElements() == 0) return;
    const ElasticShape s{h, w, same_dxdy_ ? 1 : 2, gaussian_, static_cast<int>(kernel.dim_size(0))};
    OP_REQUIRES_OK(ctx, LaunchElasticMaps(Device(), ctx, s, out));
  }

 private:
  bool same_dxdy_;
  bool gaussian_;
};

template <typename Device>
class CellMapsOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  using GuardedOpKernel::GuardedOpKernel;

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& owners = ctx->input(0);
    const Tensor& matrices = ctx->input(1);
    OP_REQUIRES(
        ctx,
        owners.dims() == 3 && matrices.dims() == 4 && matrices.dim_size(0) == owners.dim_size(0) &&
            matrices.dim_size(2) == 3 && matrices.dim_size(3) == 3,
        errors::InvalidArgument("need owners [B, H, W] and matrices [B, K, 3, 3], got ",
                                owners.shape().DebugString(), " and ", matrices.shape().DebugString()));
    OP_REQUIRES(
        ctx,
        owners.dim_size(1) <= kMaxCellMapsSide && owners.dim_size(2) <= kMaxCellMapsSide &&
            matrices.dim_size(1) <= kMaxCellMapsCells,
        errors::InvalidArgument("CellMaps takes sides up to ", kMaxCellMapsSide, " and up to ",
                                kMaxCellMapsCells, " cells, got owners ", owners.shape().DebugString(),
                                " and ", matrices.dim_size(1), " cells"));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(
        ctx, AllocatePooledOutput(
                 ctx, 0, TensorShape({owners.dim_size(0), owners.dim_size(1), owners.dim_size(2), 2}), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchCellMaps(Device(), ctx, out));
  }
};

template <typename Device>
class TileShuffleOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  using GuardedOpKernel::GuardedOpKernel;

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& images = ctx->input(0);
    OP_REQUIRES(ctx, images.dims() == 4,
                errors::InvalidArgument("images must be [B, H, W, C], got ", images.shape().DebugString()));
    const int64_t b = images.dim_size(0);
    const Tensor& rows = ctx->input(1);
    const Tensor& cols = ctx->input(2);
    const Tensor& sources = ctx->input(3);
    OP_REQUIRES(ctx,
                rows.dims() == 2 && cols.dims() == 2 && sources.dims() == 2 && rows.dim_size(0) == b &&
                    cols.dim_size(0) == b && sources.dim_size(0) == b && rows.dim_size(1) >= 2 &&
                    cols.dim_size(1) >= 2 && rows.dim_size(1) <= kMaxTileShuffleParts + 1 &&
                    cols.dim_size(1) <= kMaxTileShuffleParts + 1 &&
                    sources.dim_size(1) == (rows.dim_size(1) - 1) * (cols.dim_size(1) - 1),
                errors::InvalidArgument("need row_starts [B, rows + 1], col_starts [B, cols + 1] (1 to ",
                                        kMaxTileShuffleParts, " parts) and sources [B, rows * cols] for ", b,
                                        " images, got ", rows.shape().DebugString(), ", ",
                                        cols.shape().DebugString(), " and ", sources.shape().DebugString()));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, AllocatePooledOutput(ctx, 0, images.shape(), &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchTileShuffle(Device(), ctx, out));
  }
};

class RemapBoxesOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  using GuardedOpKernel::GuardedOpKernel;

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& maps = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckMaps(maps));
    OP_REQUIRES_OK(ctx, CheckRows(ctx->input(1), ctx->input(2), 4, maps.dim_size(0), "boxes"));
    const Tensor& size = ctx->input(3);
    OP_REQUIRES(
        ctx, size.NumElements() == 2,
        errors::InvalidArgument("input_size must be [height, width], got ", size.shape().DebugString()));
    const int in_h = size.flat<int32_t>()(0), in_w = size.flat<int32_t>()(1);
    const int64_t m = ctx->input(1).dim_size(0);
    Tensor *moved = nullptr, *found = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({m, 4}), &moved));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({m}), &found));
    const int h = maps.dim_size(1), w = maps.dim_size(2);
    const float* map = maps.flat<float>().data();
    const float* boxes = ctx->input(1).flat<float>().data();
    auto ids = ctx->input(2).vec<int64_t>();
    float* out = moved->flat<float>().data();
    bool* ok = found->flat<bool>().data();
    ForEachImage(ctx, m, [&](int64_t k) {
      const float* box = boxes + 4 * k;
      ok[k] = RemapBoxCpu(map + ids(k) * int64_t{h} * w * 2, h, w, in_h, in_w, box, out + 4 * k);
      if (!ok[k]) std::copy(box, box + 4, out + 4 * k);
    });
  }
};

class RemapPointsOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit RemapPointsOp(OpKernelConstruction* ctx) : GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("reach", &reach_));
    OP_REQUIRES(ctx, reach_ > 0.f && reach_ < 1e6f,
                errors::InvalidArgument("reach must be a positive number of pixels, got ", reach_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    const Tensor& maps = ctx->input(0);
    OP_REQUIRES_OK(ctx, CheckMaps(maps));
    OP_REQUIRES_OK(ctx, CheckRows(ctx->input(1), ctx->input(2), 2, maps.dim_size(0), "points"));
    const int64_t m = ctx->input(1).dim_size(0);
    Tensor *moved = nullptr, *found = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({m, 2}), &moved));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({m}), &found));
    const int h = maps.dim_size(1), w = maps.dim_size(2);
    const float* map = maps.flat<float>().data();
    const float* points = ctx->input(1).flat<float>().data();
    auto ids = ctx->input(2).vec<int64_t>();
    float* out = moved->flat<float>().data();
    bool* ok = found->flat<bool>().data();
    ForEachImage(ctx, m, [&](int64_t k) {
      const float* point = points + 2 * k;
      ok[k] = RemapPointCpu(map + ids(k) * int64_t{h} * w * 2, h, w, point, reach_, out + 2 * k);
      if (!ok[k]) std::copy(point, point + 2, out + 2 * k);
    });
  }

 private:
  float reach_;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>Remap").Device(tensorflow::DEVICE_CPU),
                        RemapOp<CpuDevice, MapSource::kMaps>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>RemapAffine").Device(tensorflow::DEVICE_CPU),
                        RemapOp<CpuDevice, MapSource::kAffine>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>RemapRadial").Device(tensorflow::DEVICE_CPU),
                        RemapOp<CpuDevice, MapSource::kRadial>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>SeparableResample").Device(tensorflow::DEVICE_CPU),
                        SeparableResampleOp<CpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>ElasticMaps").Device(tensorflow::DEVICE_CPU),
                        ElasticMapsOp<CpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>CellMaps").Device(tensorflow::DEVICE_CPU), CellMapsOp<CpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>TileShuffle").Device(tensorflow::DEVICE_CPU),
                        TileShuffleOp<CpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>RemapBoxes").Device(tensorflow::DEVICE_CPU), RemapBoxesOp);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>RemapPoints").Device(tensorflow::DEVICE_CPU), RemapPointsOp);

#if GOOGLE_CUDA
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>Remap").Device(tensorflow::DEVICE_GPU),
                        RemapOp<GpuDevice, MapSource::kMaps>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>RemapAffine").Device(tensorflow::DEVICE_GPU).HostMemory("size"),
                        RemapOp<GpuDevice, MapSource::kAffine>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>RemapRadial").Device(tensorflow::DEVICE_GPU),
                        RemapOp<GpuDevice, MapSource::kRadial>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>SeparableResample").Device(tensorflow::DEVICE_GPU),
                        SeparableResampleOp<GpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>ElasticMaps").Device(tensorflow::DEVICE_GPU).HostMemory("size"),
                        ElasticMapsOp<GpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>CellMaps").Device(tensorflow::DEVICE_GPU), CellMapsOp<GpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>TileShuffle").Device(tensorflow::DEVICE_GPU),
                        TileShuffleOp<GpuDevice>);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>RemapBoxes")
                            .Device(tensorflow::DEVICE_GPU)
                            .HostMemory("maps")
                            .HostMemory("boxes")
                            .HostMemory("box_images")
                            .HostMemory("input_size")
                            .HostMemory("moved")
                            .HostMemory("found"),
                        RemapBoxesOp);
REGISTER_KERNEL_BUILDER(Name("TfGpuAug>RemapPoints")
                            .Device(tensorflow::DEVICE_GPU)
                            .HostMemory("maps")
                            .HostMemory("points")
                            .HostMemory("point_images")
                            .HostMemory("moved")
                            .HostMemory("found"),
                        RemapPointsOp);
#endif  // GOOGLE_CUDA

}  // namespace
}  // namespace tfgpuaug
