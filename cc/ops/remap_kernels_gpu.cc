// GPU launchers of the Remap, RemapAffine, SeparableResample, ElasticMaps, CellMaps and TileShuffle ops
// (their OpKernels are in remap_kernels.cc).
#if GOOGLE_CUDA
#include "cc/kernels/warp/cell_maps_gpu.h"
#include "cc/kernels/warp/elastic_maps_gpu.h"
#include "cc/kernels/warp/remap_gpu.h"
#include "cc/kernels/warp/tile_shuffle_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/gpu_stream.h"
#include "cc/ops/remap_common.h"

namespace tfgpuaug {

absl::Status LaunchRemap(GpuDevice, tensorflow::OpKernelContext* ctx, const RemapParams& p,
                         tensorflow::Tensor* out) {
  return ToTfStatus(
      RemapGpu(ctx->input(0).flat<uint8_t>().data(), static_cast<int>(ctx->input(0).dim_size(0)), p,
               ctx->input(1).flat<float>().data(), out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

absl::Status LaunchRemapAffine(GpuDevice, tensorflow::OpKernelContext* ctx, const RemapParams& p,
                               tensorflow::Tensor* out) {
  return ToTfStatus(
      RemapAffineGpu(ctx->input(0).flat<uint8_t>().data(), static_cast<int>(ctx->input(0).dim_size(0)), p,
                     ctx->input(1).flat<float>().data(), out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

absl::Status LaunchRemapRadial(GpuDevice, tensorflow::OpKernelContext* ctx, const RemapParams& p,
                               tensorflow::Tensor* out) {
  const int batch = static_cast<int>(ctx->input(0).dim_size(0));
  const uint8_t* images = ctx->input(0).flat<uint8_t>().data();
  const float* coefficients = ctx->input(1).flat<float>().data();
  uint8_t* o = out->flat<uint8_t>().data();
  return ToTfStatus(ctx->input(1).dims() == 3
                        ? RemapRadialChannelsGpu(images, batch, p, coefficients, o, GpuStream(ctx))
                        : RemapRadialGpu(images, batch, p, coefficients, o, GpuStream(ctx)),
                    "");
}

absl::Status LaunchSeparableResample(GpuDevice, tensorflow::OpKernelContext* ctx, uint8_t fill,
                                     tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  const SeparableTaps rows{ctx->input(1).flat<int32_t>().data(), ctx->input(2).flat<float>().data()};
  const SeparableTaps cols{ctx->input(3).flat<int32_t>().data(), ctx->input(4).flat<float>().data()};
  return ToTfStatus(
      SeparableResampleGpu(images.flat<uint8_t>().data(), static_cast<int>(images.dim_size(0)),
                           static_cast<int>(images.dim_size(1)), static_cast<int>(images.dim_size(2)),
                           static_cast<int>(images.dim_size(3)), rows, static_cast<int>(out->dim_size(1)),
                           cols, static_cast<int>(out->dim_size(2)), fill, out->flat<uint8_t>().data(),
                           GpuStream(ctx)),
      "");
}

absl::Status LaunchElasticMaps(GpuDevice, tensorflow::OpKernelContext* ctx, const ElasticShape& s,
                               tensorflow::Tensor* out) {
  const int batch = static_cast<int>(out->dim_size(0));
  tensorflow::Tensor scratch;
  TF_RETURN_IF_ERROR(ctx->allocate_temp(
      tensorflow::DT_FLOAT, tensorflow::TensorShape({ElasticScratchFloatsGpu(s, batch)}), &scratch));
  return ToTfStatus(ElasticMapsGpu(s, batch, ctx->input(2).flat<float>().data(),
                                   ctx->input(0).flat<int32_t>().data(), ctx->input(1).flat<float>().data(),
                                   scratch.flat<float>().data(), out->flat<float>().data(), GpuStream(ctx)),
                    "");
}

absl::Status LaunchCellMaps(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& owners = ctx->input(0);
  return ToTfStatus(
      CellMapsGpu(owners.flat<int32_t>().data(), ctx->input(1).flat<double>().data(),
                  static_cast<int>(owners.dim_size(0)), static_cast<int>(ctx->input(1).dim_size(1)),
                  static_cast<int>(owners.dim_size(1)), static_cast<int>(owners.dim_size(2)),
                  out->flat<float>().data(), GpuStream(ctx)),
      "");
}

absl::Status LaunchTileShuffle(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out) {
  const tensorflow::Tensor& images = ctx->input(0);
  return ToTfStatus(
      TileShuffleGpu(images.flat<uint8_t>().data(), static_cast<int>(images.dim_size(0)),
                     static_cast<int>(images.dim_size(1)), static_cast<int>(images.dim_size(2)),
                     static_cast<int>(images.dim_size(3)), ctx->input(1).flat<int32_t>().data(),
                     static_cast<int>(ctx->input(1).dim_size(1)) - 1, ctx->input(2).flat<int32_t>().data(),
                     static_cast<int>(ctx->input(2).dim_size(1)) - 1, ctx->input(3).flat<int32_t>().data(),
                     out->flat<uint8_t>().data(), GpuStream(ctx)),
      "");
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
