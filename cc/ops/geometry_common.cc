#include "cc/ops/geometry_common.h"

#include "cc/ops/decode_common.h"
#include "cc/ops/pooled_output.h"

namespace tfgpuaug {

using tensorflow::errors::InvalidArgument;

absl::Status ReadResizeAttrs(tensorflow::OpKernelConstruction* ctx, ResizeMethod* method, bool* antialias) {
  std::string m;
  TF_RETURN_IF_ERROR(ctx->GetAttr("method", &m));
  TF_RETURN_IF_ERROR(ctx->GetAttr("antialias", antialias));
  *method = m == "nearest"   ? ResizeMethod::kNearest
            : m == "bicubic" ? ResizeMethod::kBicubic
            : m == "area"    ? ResizeMethod::kArea
                             : ResizeMethod::kBilinear;
  return absl::OkStatus();
}

absl::Status ReadSize(const tensorflow::Tensor& size, int* h, int* w) {
  if (size.dims() != 1 || size.NumElements() != 2) {
    return InvalidArgument("size must be [height, width], got shape ", size.shape().DebugString());
  }
  *h = size.vec<int32_t>()(0);
  *w = size.vec<int32_t>()(1);
  if (*h <= 0 || *w <= 0) return InvalidArgument("size must be positive, got [", *h, ", ", *w, "]");
  return absl::OkStatus();
}

absl::Status ReadImageOffsets(const tensorflow::Tensor& values, const tensorflow::Tensor& shapes,
                              std::vector<int64_t>* offsets) {
  if (shapes.dims() != 2 || shapes.dim_size(1) != 2) {
    return InvalidArgument("shapes must be [N, 2], got ", shapes.shape().DebugString());
  }
  auto s = shapes.matrix<int32_t>();
  offsets->resize(shapes.dim_size(0));
  int64_t pixels = 0;
  for (int64_t i = 0; i < shapes.dim_size(0); ++i) {
    if (s(i, 0) <= 0 || s(i, 1) <= 0) return InvalidArgument("image ", i, " has an empty shape");
    (*offsets)[i] = pixels;
    pixels += int64_t{s(i, 0)} * s(i, 1);
  }
  if (pixels != values.dim_size(0)) {
    return InvalidArgument("shapes describe ", pixels, " pixels but values holds ", values.dim_size(0));
  }
  return absl::OkStatus();
}

absl::Status ReadCropResizeBatch(const tensorflow::Tensor& values, const tensorflow::Tensor& shapes,
                                 const tensorflow::Tensor& boxes, CropResizeBatch* batch) {
  TF_RETURN_IF_ERROR(ReadImageOffsets(values, shapes, &batch->pixel_offsets));
  const int64_t n = shapes.dim_size(0);
  if (boxes.dims() != 2 || boxes.dim_size(0) != n || boxes.dim_size(1) != 4) {
    return InvalidArgument("shapes must be [B, 2] and boxes [B, 4], got ", shapes.shape().DebugString(),
                           " and ", boxes.shape().DebugString());
  }
  auto s = shapes.matrix<int32_t>();
  auto b = boxes.matrix<float>();
  for (int64_t i = 0; i < n; ++i) {
    const int h = s(i, 0), w = s(i, 1);
    const CropBox box{b(i, 0), b(i, 1), b(i, 2), b(i, 3)};
    TF_RETURN_IF_ERROR(ToTfStatus(ValidateBox(box, h, w), "image " + std::to_string(i)));
    batch->heights.push_back(h);
    batch->widths.push_back(w);
    batch->boxes.push_back(box);
  }
  return absl::OkStatus();
}

absl::Status ReadCropResizeAttrs(tensorflow::OpKernelConstruction* ctx, CropResizeAttrs* attrs) {
  TF_RETURN_IF_ERROR(ReadResizeAttrs(ctx, &attrs->method, &attrs->antialias));
  return ReadEpilogueAttrs(ctx, &attrs->epilogue);
}

absl::Status BeginCropResize(tensorflow::OpKernelContext* ctx, const CropResizeAttrs& attrs,
                             CropResizeCall* call) {
  const tensorflow::Tensor& values = ctx->input(0);
  TF_RETURN_IF_ERROR(ReadCropResizeBatch(values, ctx->input(1), ctx->input(2), &call->batch));
  int out_h, out_w;
  TF_RETURN_IF_ERROR(ReadSize(ctx->input(3), &out_h, &out_w));
  call->spec = ResizeSpec{out_h, out_w, attrs.method, attrs.antialias};
  call->channels = static_cast<int>(values.dim_size(1));
  const int64_t n = call->batch.boxes.size();
  TF_RETURN_IF_ERROR(SampleEpilogues(attrs.epilogue, ctx->input(4), n, &call->epilogues));
  return AllocatePooledOutput(ctx, 0, tensorflow::TensorShape({n, out_h, out_w, call->channels}), &call->out);
}

absl::Status ReadCropMirrorNormalizeAttrs(tensorflow::OpKernelConstruction* ctx,
                                          CropMirrorNormalizeAttrs* a) {
  std::vector<float> std;
  TF_RETURN_IF_ERROR(ctx->GetAttr("mean", &a->mean));
  TF_RETURN_IF_ERROR(ctx->GetAttr("std", &std));
  if (a->mean.size() != std.size() || a->mean.empty() || a->mean.size() > 4) {
    return InvalidArgument("mean and std need the same 1 to 4 values");
  }
  for (float s : std) {
    if (s == 0.f) return InvalidArgument("std must not contain 0");
    a->inv_std.push_back(1.f / s);
  }
  std::string layout;
  tensorflow::DataType dtype;
  TF_RETURN_IF_ERROR(ctx->GetAttr("crop_height", &a->crop_h));
  TF_RETURN_IF_ERROR(ctx->GetAttr("crop_width", &a->crop_w));
  TF_RETURN_IF_ERROR(ctx->GetAttr("layout", &layout));
  TF_RETURN_IF_ERROR(ctx->GetAttr("pad_channels", &a->pad));
  TF_RETURN_IF_ERROR(ctx->GetAttr("dtype", &dtype));
  if (a->crop_h < 0 || a->crop_w < 0) return InvalidArgument("crop size must not be negative");
  a->nchw = layout == "NCHW";
  a->type = dtype == tensorflow::DT_HALF       ? OutputType::kFloat16
            : dtype == tensorflow::DT_BFLOAT16 ? OutputType::kBfloat16
                                               : OutputType::kFloat32;
  a->mean.resize(4, 0.f);
  a->inv_std.resize(4, 1.f);
  return absl::OkStatus();
}

absl::Status MakeCropMirrorNormalizeParams(const CropMirrorNormalizeAttrs& a,
                                           const tensorflow::Tensor& images,
                                           const tensorflow::Tensor& offsets,
                                           const tensorflow::Tensor& mirror, CropMirrorNormalizeParams* p) {
  if (images.dims() != 4) return InvalidArgument("images must be [B, H, W, C]");
  const int64_t n = images.dim_size(0);
  p->in_h = static_cast<int>(images.dim_size(1));
  p->in_w = static_cast<int>(images.dim_size(2));
  p->channels = static_cast<int>(images.dim_size(3));
  if (p->channels > 4) return InvalidArgument("at most 4 channels, got ", p->channels);
  if (offsets.dims() != 2 || offsets.dim_size(0) != n || offsets.dim_size(1) != 2 || mirror.dims() != 1 ||
      mirror.dim_size(0) != n) {
    return InvalidArgument("crop_offsets must be [", n, ", 2] and mirror [", n, "], got ",
                           offsets.shape().DebugString(), " and ", mirror.shape().DebugString());
  }
  p->crop_h = a.crop_h > 0 ? a.crop_h : p->in_h;
  p->crop_w = a.crop_w > 0 ? a.crop_w : p->in_w;
  if (p->crop_h > p->in_h || p->crop_w > p->in_w) {
    return InvalidArgument("crop ", p->crop_h, "x", p->crop_w, " exceeds the ", p->in_h, "x", p->in_w,
                           " images");
  }
  p->out_channels = a.pad ? 4 : p->channels;
  p->nchw = a.nchw;
  p->type = a.type;
  return absl::OkStatus();
}

absl::Status CheckCropOffsets(const CropMirrorNormalizeParams& p, const tensorflow::Tensor& offsets) {
  auto o = offsets.matrix<int32_t>();
  for (int64_t i = 0; i < offsets.dim_size(0); ++i) {
    if (o(i, 0) < 0 || o(i, 1) < 0 || o(i, 0) + p.crop_h > p.in_h || o(i, 1) + p.crop_w > p.in_w) {
      return InvalidArgument("crop offset (", o(i, 0), ", ", o(i, 1), ") of sample ", i, " puts the ",
                             p.crop_h, "x", p.crop_w, " crop outside the image");
    }
  }
  return absl::OkStatus();
}

absl::Status ReadEpilogueAttrs(tensorflow::OpKernelConstruction* ctx, Epilogue* e) {
  std::vector<float> mean, std;
  TF_RETURN_IF_ERROR(ctx->GetAttr("mean", &mean));
  TF_RETURN_IF_ERROR(ctx->GetAttr("std", &std));
  if (mean.size() != std.size() || mean.size() > 4) {
    return InvalidArgument("mean and std need the same number (at most 4) of values");
  }
  e->normalize = !mean.empty();
  for (size_t k = 0; k < mean.size(); ++k) {
    if (std[k] == 0.f) return InvalidArgument("std must not contain 0");
    e->mean[k] = mean[k];
    e->inv_std[k] = 1.f / std[k];
  }
  return absl::OkStatus();
}

absl::Status SampleEpilogues(const Epilogue& base, const tensorflow::Tensor& mirror, int64_t n,
                             std::vector<Epilogue>* out) {
  if (mirror.dims() != 1 || (mirror.dim_size(0) != n && mirror.dim_size(0) != 0)) {
    return InvalidArgument("mirror must be [", n, "] or [0], got ", mirror.shape().DebugString());
  }
  out->assign(n, base);
  if (mirror.dim_size(0) == 0) return absl::OkStatus();
  auto flags = mirror.vec<bool>();
  for (int64_t i = 0; i < n; ++i) (*out)[i].mirror = flags(i);
  return absl::OkStatus();
}

absl::Status ReadAffineAttrs(tensorflow::OpKernelConstruction* ctx, Interpolation* interpolation,
                             float* fill) {
  std::string interp;
  TF_RETURN_IF_ERROR(ctx->GetAttr("interpolation", &interp));
  TF_RETURN_IF_ERROR(ctx->GetAttr("fill_value", fill));
  *interpolation = interp == "nearest" ? Interpolation::kNearest : Interpolation::kBilinear;
  return absl::OkStatus();
}

}  // namespace tfgpuaug
