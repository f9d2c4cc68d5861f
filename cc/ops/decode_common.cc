#include "cc/ops/decode_common.h"

#include "cc/ops/parallel.h"
#include "cc/ops/pooled_output.h"
#include "tensorflow/core/framework/tensor_shape.h"

namespace tfgpuaug {

using tensorflow::errors::InvalidArgument;

absl::Status ReadDecodeAttrs(tensorflow::OpKernelConstruction* ctx, DecodeRequest* request) {
  TF_RETURN_IF_ERROR(ctx->GetAttr("dct_denom", &request->dct_denom));
  return ReadDecodeOptionAttrs(ctx, request);
}

absl::Status ReadFusedDecodeAttrs(tensorflow::OpKernelConstruction* ctx, DecodeRequest* request,
                                  int* max_dct_denom) {
  TF_RETURN_IF_ERROR(ctx->GetAttr("max_dct_denom", max_dct_denom));
  return ReadDecodeOptionAttrs(ctx, request);
}

absl::Status ReadDecodeOptionAttrs(tensorflow::OpKernelConstruction* ctx, DecodeRequest* request) {
  TF_RETURN_IF_ERROR(ctx->GetAttr("channels", &request->channels));
  std::string dct;
  TF_RETURN_IF_ERROR(ctx->GetAttr("dct_method", &dct));
  request->dct_method = ParseDctMethod(dct);
  TF_RETURN_IF_ERROR(ctx->GetAttr("apply_exif_orientation", &request->apply_exif_orientation));
  TF_RETURN_IF_ERROR(ctx->GetAttr("max_pixels", &request->max_pixels));
  return absl::OkStatus();
}

absl::Status ToTfStatus(const Status& status, const std::string& where) {
  const std::string prefix = where.empty() ? "" : where + ": ";
  switch (status.kind()) {
    case Status::Kind::kOk:
      return absl::OkStatus();
    case Status::Kind::kDevice:  // a failed CUDA call is not the user's bad input
    case Status::Kind::kInternal:
      return tensorflow::errors::Internal(prefix, status.message());
    case Status::Kind::kOutOfMemory:
      return tensorflow::errors::ResourceExhausted(prefix, status.message());
    case Status::Kind::kInvalidInput:
      break;
  }
  return InvalidArgument(prefix, status.message());
}

absl::Status ReadOnErrorAttr(tensorflow::OpKernelConstruction* ctx, bool* skip) {
  std::string on_error;
  TF_RETURN_IF_ERROR(ctx->GetAttr("on_error", &on_error));
  *skip = on_error == "skip";
  return absl::OkStatus();
}

namespace {

// What a batch that fails on one bad image can do instead.
constexpr char kBadImageHint[] =
    " (gpu_augment(..., on_error=\"skip\") drops bad images with their labels and names their files when "
    "elements carry a path, e.g. image_folder(..., with_paths=True); python -m tfgpuaug.scan DIR lists every "
    "bad file)";

// Image i's failure as the op's error; bad bytes also say what to do about them.
absl::Status PerImageError(const Status& s, int64_t i) {
  const std::string image = "image " + std::to_string(i);
  if (s.kind() == Status::Kind::kInvalidInput)
    return ToTfStatus(Status::Invalid(s.message() + kBadImageHint), image);
  return ToTfStatus(s, image);
}

}  // namespace

absl::Status FinishPerImage(tensorflow::OpKernelContext* ctx, int output, const std::vector<Status>& statuses,
                            bool skip, const std::function<void(int64_t)>& clear) {
  const int64_t n = static_cast<int64_t>(statuses.size());
  for (int64_t i = 0; i < n; ++i) {
    const Status& s = statuses[i];
    // Skipping covers whatever went wrong with one image (bad bytes, an allocation or an
    // exception while decoding it), never a failed CUDA call, which is not the image's.
    if (!s.ok() && (!skip || s.kind() == Status::Kind::kDevice)) return PerImageError(s, i);
  }
  tensorflow::Tensor* errors = nullptr;
  TF_RETURN_IF_ERROR(ctx->allocate_output(output, ctx->input(0).shape(), &errors));
  auto e = errors->flat<tensorflow::tstring>();
  for (int64_t i = 0; i < n; ++i) {
    if (statuses[i].ok()) continue;
    e(i) = statuses[i].message();
    clear(i);
  }
  return absl::OkStatus();
}

absl::Status PlanBatch(tensorflow::OpKernelContext* ctx, const DecodeRequest& base,
                       const tensorflow::Tensor& contents, const tensorflow::Tensor& windows,
                       std::vector<DecodeRequest>* requests, std::vector<DecodePlan>* plans,
                       std::vector<Status>* skipped) {
  const int64_t n = contents.dim_size(0);
  const bool has_windows = windows.dim_size(0) > 0;
  if (has_windows && windows.dim_size(0) != n) {
    return InvalidArgument("crop_windows has ", windows.dim_size(0), " rows for ", n,
                           " images; pass one window per image or none");
  }
  requests->assign(n, base);
  plans->assign(n, DecodePlan());
  std::vector<Status> statuses(n);
  auto flat = contents.flat<tensorflow::tstring>();
  auto win = windows.matrix<int32_t>();
  ForEachImage(ctx, n, [&](int64_t i) {
    DecodeRequest& r = (*requests)[i];
    if (has_windows) {
      r.has_window = true;
      r.window = Window{win(i, 0), win(i, 1), win(i, 2), win(i, 3)};
    }
    statuses[i] = PlanDecode(Bytes(flat(i)), flat(i).size(), r, &(*plans)[i]);
    if (!statuses[i].ok() && skipped != nullptr) {  // decodes to 0x0, reported in `errors`
      (*plans)[i] = DecodePlan();
      (*plans)[i].out_channels = r.channels;
    }
  });
  if (skipped != nullptr) {
    *skipped = std::move(statuses);
    return absl::OkStatus();
  }
  for (int64_t i = 0; i < n; ++i) {
    if (!statuses[i].ok()) return PerImageError(statuses[i], i);
  }
  return absl::OkStatus();
}

DctMethod ParseDctMethod(const std::string& name) {
  return name == "INTEGER_FAST" ? DctMethod::kIntegerFast
         : name == "FLOAT"      ? DctMethod::kFloat
                                : DctMethod::kIntegerAccurate;
}

absl::Status BeginDecodeBatch(tensorflow::OpKernelContext* ctx, const DecodeRequest& base,
                              int64_t max_batch_bytes, bool skip, DecodeBatchCall* call) {
  const tensorflow::Tensor& contents = ctx->input(0);
  const int64_t n = contents.dim_size(0);
  call->statuses.assign(n, Status::Ok());
  TF_RETURN_IF_ERROR(PlanBatch(ctx, base, contents, ctx->input(1), &call->requests, &call->plans,
                               skip ? &call->statuses : nullptr));
  tensorflow::Tensor* shapes = nullptr;
  TF_RETURN_IF_ERROR(ctx->allocate_output(1, tensorflow::TensorShape({n, 3}), &shapes));
  auto s = shapes->matrix<int32_t>();
  std::vector<int64_t> offsets(n);
  int64_t pixels = 0;
  for (int64_t i = 0; i < n; ++i) {
    const DecodePlan& p = call->plans[i];
    s(i, 0) = p.out_height;
    s(i, 1) = p.out_width;
    s(i, 2) = p.out_channels;
    offsets[i] = pixels * p.out_channels;
    pixels += int64_t{p.out_height} * p.out_width;
  }
  // Each image is at most max_pixels, so the sum cannot overflow for any realistic batch.
  if (pixels * base.channels > max_batch_bytes) {
    return InvalidArgument("the batch would decode to ", pixels * base.channels,
                           " bytes, over max_batch_bytes=", max_batch_bytes,
                           "; use smaller batches or raise max_batch_bytes");
  }
  tensorflow::Tensor* values = nullptr;
  TF_RETURN_IF_ERROR(AllocatePooledOutput(ctx, 0, tensorflow::TensorShape({pixels, base.channels}), &values));
  call->outputs.resize(n);
  for (int64_t i = 0; i < n; ++i) call->outputs[i] = values->flat<uint8_t>().data() + offsets[i];
  return absl::OkStatus();
}

}  // namespace tfgpuaug
