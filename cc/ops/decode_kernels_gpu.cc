// GPU launchers of the decode ops (their OpKernels are in decode_kernels.cc): pixels are
// written to device memory by the nvJPEG-backed batched decoder, queued on the op's stream
// without waiting for it.
#if GOOGLE_CUDA
#include <vector>

#include "cc/kernels/decode/image_decode_gpu.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/gpu_stream.h"
#include "cc/ops/parallel.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "xla/stream_executor/stream_executor.h"

namespace tfgpuaug {
namespace {

using tensorflow::AllocatorAttributes;
using tensorflow::OpKernelContext;
using tensorflow::Tensor;
using tensorflow::TensorShape;

void* TfAllocate(void* allocator, size_t bytes) {
  return static_cast<tensorflow::Allocator*>(allocator)->AllocateRaw(
      tensorflow::Allocator::kAllocatorAlignment, bytes);
}

void TfDeallocate(void* allocator, void* ptr) {
  static_cast<tensorflow::Allocator*>(allocator)->DeallocateRaw(ptr);
}

// The op's device for the GPU decoder: its stream, and TensorFlow's device and pinned-host
// allocators for nvJPEG's own buffers (they live as long as the process, as nvJPEG's state).
// The CPU decodes of a GPU decode run on TensorFlow's intra-op pool, as on the CPU device.
void ParallelForOnPool(void* ctx, int n, void (*fn)(void* context, int i), void* context) {
  ForEachImage(static_cast<OpKernelContext*>(ctx), n, [&](int64_t i) { fn(context, static_cast<int>(i)); });
}

GpuDecodeDevice DecodeDeviceOf(OpKernelContext* ctx) {
  GpuDecodeDevice d;
  d.parallel_for = ParallelForOnPool;
  d.pool = ctx;
  // The CUDA ordinal of the op's stream (TensorFlow's GPU id may be remapped by
  // visible_device_list; the stream executor's ordinal is the platform's).
  d.ordinal = ctx->op_device_context()->stream()->parent()->device_ordinal();
  d.stream = GpuStream(ctx);
  AllocatorAttributes pinned;
  pinned.set_on_host(true);
  pinned.set_gpu_compatible(true);
  d.device_memory = {ctx->device()->GetAllocator(AllocatorAttributes()), TfAllocate, TfDeallocate};
  d.pinned_memory = {ctx->device()->GetAllocator(pinned), TfAllocate, TfDeallocate};
  return d;
}

// Decodes planned images into `outs` (device pointers). Images whose header failed (not ok in
// `statuses`) are left out; an image that fails to decode is reported there and its output
// zeroed (the op raises or skips it, as on the CPU). A device error fails the call. nvJPEG's full-size
// scratch stays within `scratch_budget` bytes (images are decoded in groups) unless one image
// alone is larger.
absl::Status DecodeOnGpu(OpKernelContext* ctx, const Tensor& contents,
                         const std::vector<DecodeRequest>& requests, const std::vector<DecodePlan>& plans,
                         const std::vector<uint8_t*>& outs, int64_t scratch_budget,
                         std::vector<Status>* statuses) {
  auto flat = contents.flat<tensorflow::tstring>();
  std::vector<GpuDecodeTarget> targets;
  std::vector<size_t> image_of;  // target -> image index
  for (size_t i = 0; i < plans.size(); ++i) {
    if (!(*statuses)[i].ok()) continue;
    targets.push_back(GpuDecodeTarget{Bytes(flat(i)), flat(i).size(), &requests[i], &plans[i], outs[i]});
    image_of.push_back(i);
  }
  if (targets.empty()) return absl::OkStatus();
  size_t scratch_bytes = 0, staging_bytes = 0;
  GpuDecodeBufferSizes(targets.data(), static_cast<int>(targets.size()), scratch_budget, &scratch_bytes,
                       &staging_bytes);
  Tensor scratch, staging;
  TF_RETURN_IF_ERROR(
      ctx->allocate_temp(tensorflow::DT_UINT8, TensorShape({static_cast<int64_t>(scratch_bytes)}), &scratch));
  TF_RETURN_IF_ERROR(AllocatePinned(ctx, static_cast<int64_t>(staging_bytes), &staging));
  std::vector<Status> decoded(targets.size());
  Status status =
      GpuDecodeBatch(targets.data(), static_cast<int>(targets.size()), DecodeDeviceOf(ctx), scratch_budget,
                     scratch.flat<uint8_t>().data(), staging.flat<uint8_t>().data(), decoded.data());
  for (size_t t = 0; t < targets.size() && status.ok(); ++t) {
    if (decoded[t].ok()) continue;
    const size_t i = image_of[t];
    (*statuses)[i] = decoded[t];
    const DecodePlan& p = plans[i];
    status = CudaStatus(
        cudaMemsetAsync(outs[i], 0, size_t(p.out_height) * p.out_width * p.out_channels, GpuStream(ctx)),
        "clearing a skipped image");
  }
  // Copies from the staging and nvJPEG's reads of the encoded bytes may still be queued.
  HoldUntilStreamPasses(ctx, staging);
  HoldUntilStreamPasses(ctx, contents);
  return ToTfStatus(status, "");
}

}  // namespace

absl::Status LaunchDecodeImage(GpuDevice, OpKernelContext* ctx, const DecodeRequest& request,
                               const DecodePlan& plan, Tensor* image) {
  std::vector<Status> status(1);  // raised unprefixed, as the CPU kernel raises it
  TF_RETURN_IF_ERROR(
      DecodeOnGpu(ctx, ctx->input(0), {request}, {plan}, {image->flat<uint8_t>().data()}, 0, &status));
  return ToTfStatus(status[0], "");
}

absl::Status LaunchDecodeBatch(GpuDevice, OpKernelContext* ctx, int64_t max_batch_bytes,
                               DecodeBatchCall* call) {
  return DecodeOnGpu(ctx, ctx->input(0), call->requests, call->plans, call->outputs, max_batch_bytes,
                     &call->statuses);
}

}  // namespace tfgpuaug
#endif  // GOOGLE_CUDA
