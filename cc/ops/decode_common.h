// Adapts op attributes and tensors to the framework-free decode kernels; shared by the
// CPU and GPU OpKernels.
#ifndef TFGPUAUG_CC_OPS_DECODE_COMMON_H_
#define TFGPUAUG_CC_OPS_DECODE_COMMON_H_

#include <string>
#include <vector>

#include "cc/kernels/decode/image_decode.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/tensor.h"

namespace tfgpuaug {

// Reads channels, dct_denom, dct_method, apply_exif_orientation and max_pixels.
absl::Status ReadDecodeAttrs(tensorflow::OpKernelConstruction* ctx, DecodeRequest* request);

// channels, dct_method, apply_exif_orientation and max_pixels (every decoding op has them).
absl::Status ReadDecodeOptionAttrs(tensorflow::OpKernelConstruction* ctx, DecodeRequest* request);

// The fused decodes' attributes: the options above and max_dct_denom.
absl::Status ReadFusedDecodeAttrs(tensorflow::OpKernelConstruction* ctx, DecodeRequest* request,
                                  int* max_dct_denom);

// Converts a kernel Status to InvalidArgument, prefixed with `where` (e.g. "image 3").
absl::Status ToTfStatus(const Status& status, const std::string& where = "");

// Bytes of one string element.
inline const uint8_t* Bytes(const tensorflow::tstring& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// Per-image requests (with windows if `windows` has rows) and plans for a batch,
// computed in parallel on the CPU worker pool.
absl::Status PlanBatch(tensorflow::OpKernelContext* ctx, const DecodeRequest& base,
                       const tensorflow::Tensor& contents, const tensorflow::Tensor& windows,
                       std::vector<DecodeRequest>* requests, std::vector<DecodePlan>* plans);

// DecodeImageBatch's work before decoding, shared by the CPU and GPU kernels: plans the
// batch, refuses it when its output would exceed max_batch_bytes, writes the shapes
// output, allocates the values output and returns each image's output pointer.
struct DecodeBatchCall {
  std::vector<DecodeRequest> requests;
  std::vector<DecodePlan> plans;
  std::vector<uint8_t*> outputs;
};
absl::Status BeginDecodeBatch(tensorflow::OpKernelContext* ctx, const DecodeRequest& base,
                              int64_t max_batch_bytes, DecodeBatchCall* call);

// "INTEGER_ACCURATE" | "INTEGER_FAST" | "FLOAT" as the kernels' enum.
DctMethod ParseDctMethod(const std::string& name);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_DECODE_COMMON_H_
