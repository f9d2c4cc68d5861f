// Adapts op attributes and tensors to the framework-free decode kernels; shared by the
// CPU and GPU OpKernels.
#ifndef TFGPUAUG_CC_OPS_DECODE_COMMON_H_
#define TFGPUAUG_CC_OPS_DECODE_COMMON_H_

#include <functional>
#include <string>
#include <vector>

#include "cc/kernels/decode/image_decode.h"
#include "cc/ops/device_tags.h"
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

// The `on_error` attribute of the batched decodes: "raise" fails the op on the first bad
// image; "skip" reports each bad image's reason in the op's `errors` output instead.
absl::Status ReadOnErrorAttr(tensorflow::OpKernelConstruction* ctx, bool* skip);

// Writes the `errors` output [n] at index `output`: "" for a good image, the reason for a
// bad one. Returns the first failure when not skipping, and always for a device (CUDA) error. `clear(i)`
// zeroes a skipped image's outputs, so nothing uninitialised leaves the op.
absl::Status FinishPerImage(tensorflow::OpKernelContext* ctx, int output, const std::vector<Status>& statuses,
                            bool skip, const std::function<void(int64_t)>& clear);

// Bytes of one string element.
inline const uint8_t* Bytes(const tensorflow::tstring& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// Per-image requests (with windows if `windows` has rows) and plans for a batch,
// computed in parallel on the CPU worker pool. With `statuses`, an image whose header
// fails gets its status there and an empty plan; without, the first failure is returned.
absl::Status PlanBatch(tensorflow::OpKernelContext* ctx, const DecodeRequest& base,
                       const tensorflow::Tensor& contents, const tensorflow::Tensor& windows,
                       std::vector<DecodeRequest>* requests, std::vector<DecodePlan>* plans,
                       std::vector<Status>* statuses = nullptr);

// DecodeImageBatch's work before decoding, shared by the CPU and GPU kernels: plans the
// batch, refuses it when its output would exceed max_batch_bytes, writes the shapes
// output, allocates the values output and returns each image's output pointer. When
// skipping, `statuses` holds the header failures (those images decode to 0x0).
struct DecodeBatchCall {
  std::vector<DecodeRequest> requests;
  std::vector<DecodePlan> plans;
  std::vector<uint8_t*> outputs;
  std::vector<Status> statuses;
};
absl::Status BeginDecodeBatch(tensorflow::OpKernelContext* ctx, const DecodeRequest& base,
                              int64_t max_batch_bytes, bool skip, DecodeBatchCall* call);

// The per-device part of the decode ops, called by their one OpKernel class (decode_kernels.cc)
// once the images are planned and the outputs allocated. LaunchDecodeImage decodes `plan` into
// `image` (uint8, or uint16 on the CPU); LaunchDecodeBatch decodes every image whose status is
// ok, and one that fails gets its status set and its output zeroed. The GPU's are in
// decode_kernels_gpu.cc.
absl::Status LaunchDecodeImage(CpuDevice, tensorflow::OpKernelContext* ctx, const DecodeRequest& request,
                               const DecodePlan& plan, tensorflow::Tensor* image);
absl::Status LaunchDecodeBatch(CpuDevice, tensorflow::OpKernelContext* ctx, int64_t max_batch_bytes,
                               DecodeBatchCall* call);
#if GOOGLE_CUDA
absl::Status LaunchDecodeImage(GpuDevice, tensorflow::OpKernelContext* ctx, const DecodeRequest& request,
                               const DecodePlan& plan, tensorflow::Tensor* image);
absl::Status LaunchDecodeBatch(GpuDevice, tensorflow::OpKernelContext* ctx, int64_t max_batch_bytes,
                               DecodeBatchCall* call);
#endif

// "INTEGER_ACCURATE" | "INTEGER_FAST" | "FLOAT" as the kernels' enum.
DctMethod ParseDctMethod(const std::string& name);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_DECODE_COMMON_H_
