#include "cc/ops/pooled_output.h"

#include <string>

#include "cc/kernels/common/large_block_pool.h"
#include "tensorflow/core/framework/allocator.h"
#include "tensorflow/core/framework/types.h"
#include "tensorflow/core/platform/mem.h"

namespace tfgpuaug {
namespace {

// TensorFlow's view of the pool: blocks for large requests, TensorFlow's aligned malloc for
// any the pool declines (below its minimum, turned off, or a failed mapping).
class PooledHostAllocator final : public tensorflow::Allocator {
 public:
  std::string Name() override { return "tfgpuaug_host_pool"; }
  void* AllocateRaw(size_t alignment, size_t num_bytes) override {
    void* block =
        alignment <= LargeBlockPool::kBlockGranule ? LargeBlockPool::Host().Acquire(num_bytes) : nullptr;
    return block != nullptr ? block : tensorflow::port::AlignedMalloc(num_bytes, static_cast<int>(alignment));
  }
  void DeallocateRaw(void* ptr) override {
    if (ptr != nullptr && !LargeBlockPool::Host().Release(ptr)) tensorflow::port::AlignedFree(ptr);
  }
};

tensorflow::Allocator* PooledAllocator() {
  static tensorflow::Allocator* allocator = new PooledHostAllocator();  // outlives every tensor
  return allocator;
}

}  // namespace

absl::Status AllocatePooledOutput(tensorflow::OpKernelContext* ctx, int index,
                                  const tensorflow::TensorShape& shape, tensorflow::Tensor** out) {
  const tensorflow::DataType dtype = ctx->expected_output_dtype(index);
  const size_t bytes = static_cast<size_t>(shape.num_elements()) * tensorflow::DataTypeSize(dtype);
  if (ctx->device()->device_type() != tensorflow::DEVICE_CPU || bytes < LargeBlockPool::kHostMinBytes) {
    return ctx->allocate_output(index, shape, out);
  }
  tensorflow::Tensor tensor(PooledAllocator(), dtype, shape);
  if (!tensor.IsInitialized()) return ctx->allocate_output(index, shape, out);
  ctx->set_output(index, tensor);
  *out = ctx->mutable_output(index);
  return absl::OkStatus();
}

}  // namespace tfgpuaug
