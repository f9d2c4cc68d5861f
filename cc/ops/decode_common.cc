#include "cc/ops/decode_common.h"

#include "tensorflow/core/framework/tensor_shape.h"
#include "cc/ops/parallel.h"

namespace tfgpuaug {

using tensorflow::errors::InvalidArgument;

absl::Status ReadDecodeAttrs(tensorflow::OpKernelConstruction* ctx, DecodeRequest* request) {
  TF_RETURN_IF_ERROR(ctx->GetAttr("channels", &request->channels));
  TF_RETURN_IF_ERROR(ctx->GetAttr("scale_denom", &request->scale_denom));
  std::string dct;
  TF_RETURN_IF_ERROR(ctx->GetAttr("dct_method", &dct));
  request->dct_method = dct == "INTEGER_FAST" ? DctMethod::kIntegerFast
                        : dct == "FLOAT"      ? DctMethod::kFloat
                                              : DctMethod::kIntegerAccurate;
  TF_RETURN_IF_ERROR(ctx->GetAttr("apply_exif_orientation", &request->apply_exif_orientation));
  TF_RETURN_IF_ERROR(ctx->GetAttr("max_pixels", &request->max_pixels));
  return absl::OkStatus();
}

absl::Status ToTfStatus(const Status& status, const std::string& where) {
  if (status.ok()) return absl::OkStatus();
  return InvalidArgument(where.empty() ? "" : where + ": ", status.message());
}

absl::Status PlanBatch(tensorflow::OpKernelContext* ctx, const DecodeRequest& base,
                       const tensorflow::Tensor& contents, const tensorflow::Tensor& windows,
                       std::vector<DecodeRequest>* requests, std::vector<DecodePlan>* plans) {
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
  });
  for (int64_t i = 0; i < n; ++i) {
    TF_RETURN_IF_ERROR(ToTfStatus(statuses[i], "image " + std::to_string(i)));
  }
  return absl::OkStatus();
}

std::vector<int64_t> FillShapesAndOffsets(const std::vector<DecodePlan>& plans,
                                          tensorflow::Tensor* shapes, int64_t* total_pixels) {
  auto s = shapes->matrix<int32_t>();
  std::vector<int64_t> offsets(plans.size());
  int64_t pixels = 0;
  for (size_t i = 0; i < plans.size(); ++i) {
    const DecodePlan& p = plans[i];
    s(i, 0) = p.out_height;
    s(i, 1) = p.out_width;
    s(i, 2) = p.out_channels;
    offsets[i] = pixels * p.out_channels;
    pixels += int64_t{p.out_height} * p.out_width;
  }
  *total_pixels = pixels;
  return offsets;
}

}  // namespace tfgpuaug
