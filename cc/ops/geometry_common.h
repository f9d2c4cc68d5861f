// Attribute parsing and argument checks shared by the CPU and GPU geometry OpKernels.
#ifndef TFGPUAUG_CC_OPS_GEOMETRY_COMMON_H_
#define TFGPUAUG_CC_OPS_GEOMETRY_COMMON_H_

#include <string>
#include <vector>

#include "cc/kernels/decode/decode_crop_resize.h"
#include "cc/kernels/normalize/normalize.h"
#include "cc/kernels/warp/warp.h"
#include "cc/ops/device_tags.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

absl::Status ReadResizeAttrs(tensorflow::OpKernelConstruction* ctx, ResizeMethod* method, bool* antialias);

// Output [height, width] from a size tensor; both must be positive.
absl::Status ReadSize(const tensorflow::Tensor& size, int* h, int* w);

// Where each image of a flattened batch starts in `values` [sum of h * w, C], from `shapes`
// [N, 2] (h, w): every shape positive, their pixels adding up to values' rows.
absl::Status ReadImageOffsets(const tensorflow::Tensor& values, const tensorflow::Tensor& shapes,
                              std::vector<int64_t>* offsets);

// Per-image shapes and boxes of a CropResize call, validated; offsets into `values` rows.
struct CropResizeBatch {
  std::vector<int> heights, widths;
  std::vector<CropBox> boxes;
  std::vector<int64_t> pixel_offsets;
};
absl::Status ReadCropResizeBatch(const tensorflow::Tensor& values, const tensorflow::Tensor& shapes,
                                 const tensorflow::Tensor& boxes, CropResizeBatch* batch);

// Attributes of CropResize, read once per kernel.
struct CropResizeAttrs {
  ResizeMethod method = ResizeMethod::kBilinear;
  bool antialias = true;
  Epilogue epilogue;
};
absl::Status ReadCropResizeAttrs(tensorflow::OpKernelConstruction* ctx, CropResizeAttrs* attrs);

// Everything a CropResize kernel needs before it resamples: validated per-image shapes and
// boxes, the output size, per-sample epilogues and the allocated output.
struct CropResizeCall {
  CropResizeBatch batch;
  ResizeSpec spec;
  int channels = 0;
  std::vector<Epilogue> epilogues;
  tensorflow::Tensor* out = nullptr;
};
absl::Status BeginCropResize(tensorflow::OpKernelContext* ctx, const CropResizeAttrs& attrs,
                             CropResizeCall* call);

struct CropMirrorNormalizeAttrs {
  std::vector<float> mean, inv_std;
  int crop_h = 0, crop_w = 0;
  bool nchw = false, pad = false;
  OutputType type = OutputType::kFloat32;
};
absl::Status ReadCropMirrorNormalizeAttrs(tensorflow::OpKernelConstruction* ctx,
                                          CropMirrorNormalizeAttrs* attrs);

// Params for images [B, H, W, C]; checks crop offsets [B, 2] and mirror [B].
absl::Status MakeCropMirrorNormalizeParams(const CropMirrorNormalizeAttrs& a,
                                           const tensorflow::Tensor& images,
                                           const tensorflow::Tensor& offsets,
                                           const tensorflow::Tensor& mirror, CropMirrorNormalizeParams* p);

// Crop offsets must keep each crop inside the image (checked where the offsets are on the host).
absl::Status CheckCropOffsets(const CropMirrorNormalizeParams& p, const tensorflow::Tensor& offsets);

// mean/std attrs into an epilogue (normalize only when given).
absl::Status ReadEpilogueAttrs(tensorflow::OpKernelConstruction* ctx, Epilogue* epilogue);

// Per-sample epilogues: the base with each sample's mirror flag ([n] or [0] for none).
absl::Status SampleEpilogues(const Epilogue& base, const tensorflow::Tensor& mirror, int64_t n,
                             std::vector<Epilogue>* out);

absl::Status ReadAffineAttrs(tensorflow::OpKernelConstruction* ctx, Interpolation* interpolation,
                             float* fill);

// The per-device part of each geometry op, called by its one OpKernel class once the inputs
// are checked and the output allocated: the CPU's in geometry_kernels.cc, the GPU's in
// geometry_kernels_gpu.cc. Inputs are read from `ctx` as the op declares them.
template <typename In, typename Out>
absl::Status LaunchCropResize(CpuDevice, tensorflow::OpKernelContext* ctx, const CropResizeCall& call);
absl::Status LaunchCropMirrorNormalize(CpuDevice, tensorflow::OpKernelContext* ctx,
                                       const CropMirrorNormalizeAttrs& attrs,
                                       const CropMirrorNormalizeParams& p, tensorflow::Tensor* out);
absl::Status LaunchFlip(CpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out);
absl::Status LaunchWarpAffine(CpuDevice, tensorflow::OpKernelContext* ctx, const AffineParams& p,
                              tensorflow::Tensor* out);
#if GOOGLE_CUDA
template <typename In, typename Out>
absl::Status LaunchCropResize(GpuDevice, tensorflow::OpKernelContext* ctx, const CropResizeCall& call);
absl::Status LaunchCropMirrorNormalize(GpuDevice, tensorflow::OpKernelContext* ctx,
                                       const CropMirrorNormalizeAttrs& attrs,
                                       const CropMirrorNormalizeParams& p, tensorflow::Tensor* out);
absl::Status LaunchFlip(GpuDevice, tensorflow::OpKernelContext* ctx, tensorflow::Tensor* out);
absl::Status LaunchWarpAffine(GpuDevice, tensorflow::OpKernelContext* ctx, const AffineParams& p,
                              tensorflow::Tensor* out);
#endif  // GOOGLE_CUDA

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_GEOMETRY_COMMON_H_
