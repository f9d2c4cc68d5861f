// The per-device part of the Remap, RemapAffine, SeparableResample, ElasticMaps, CellMaps and
// TileShuffle ops (the CPU's in
// remap_kernels.cc, the GPU's in remap_kernels_gpu.cc), called once the inputs are checked and the output
// allocated.
#ifndef TFGPUAUG_CC_OPS_REMAP_COMMON_H_
#define TFGPUAUG_CC_OPS_REMAP_COMMON_H_

#include "cc/kernels/warp/elastic_maps.h"
#include "cc/kernels/warp/remap.h"
#include "cc/ops/device_tags.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

// input 1: the maps [B, H, W, 2] (Remap) or the matrices [B, 2, 3] (RemapAffine).
absl::Status LaunchRemap(CpuDevice, tensorflow::OpKernelContext* ctx, const RemapParams& p,
                         tensorflow::Tensor* out);
absl::Status LaunchRemapAffine(CpuDevice, tensorflow::OpKernelContext* ctx, const RemapParams& p,
                               tensorflow::Tensor* out);
// RemapRadial: input 1 the coefficients [B, 2].
absl::Status LaunchRemapRadial(CpuDevice, tensorflow::OpKernelContext* ctx, const RemapParams& p,
                               tensorflow::Tensor* out);
absl::Status LaunchSeparableResample(CpuDevice, tensorflow::OpKernelContext* ctx, uint8_t fill,
                                     tensorflow::Tensor* out);
// TileShuffle: inputs images, row_starts, col_starts, sources (checked on the CPU); out as images.
absl::Status LaunchTileShuffle(CpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out);
// ElasticMaps: inputs seeds, alpha, kernel; out [B, h, w, 2].
absl::Status LaunchElasticMaps(CpuDevice, tensorflow::OpKernelContext* ctx, const ElasticShape& s,
                               tensorflow::Tensor* out);
// CellMaps: inputs owners [B, H, W], matrices [B, K, 3, 3] (checked); out [B, H, W, 2].
absl::Status LaunchCellMaps(CpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out);
#if GOOGLE_CUDA
absl::Status LaunchCellMaps(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out);
absl::Status LaunchTileShuffle(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out);
absl::Status LaunchElasticMaps(GpuDevice, tensorflow::OpKernelContext* ctx, const ElasticShape& s,
                               tensorflow::Tensor* out);
absl::Status LaunchSeparableResample(GpuDevice, tensorflow::OpKernelContext* ctx, uint8_t fill,
                                     tensorflow::Tensor* out);
absl::Status LaunchRemap(GpuDevice, tensorflow::OpKernelContext* ctx, const RemapParams& p,
                         tensorflow::Tensor* out);
absl::Status LaunchRemapAffine(GpuDevice, tensorflow::OpKernelContext* ctx, const RemapParams& p,
                               tensorflow::Tensor* out);
absl::Status LaunchRemapRadial(GpuDevice, tensorflow::OpKernelContext* ctx, const RemapParams& p,
                               tensorflow::Tensor* out);
#endif  // GOOGLE_CUDA

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_REMAP_COMMON_H_
