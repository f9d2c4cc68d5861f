// Outputs of CPU kernels large enough to pay for fresh pages every step (8 MiB and more) come
// from the host block pool (cc/kernels/common/large_block_pool.h) instead of TensorFlow's CPU
// allocator, which hands them to malloc and so to a new mapping each time. The tensor is an
// ordinary one: its buffer returns to the pool when TensorFlow drops its last reference.
#ifndef TFGPUAUG_CC_OPS_POOLED_OUTPUT_H_
#define TFGPUAUG_CC_OPS_POOLED_OUTPUT_H_

#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/tensor.h"
#include "tensorflow/core/framework/tensor_shape.h"

namespace tfgpuaug {

// Like ctx->allocate_output(index, shape, out); on the CPU device, for outputs of at least the
// pool's minimum, the buffer comes from the pool (TensorFlow's allocator otherwise).
absl::Status AllocatePooledOutput(tensorflow::OpKernelContext* ctx, int index,
                                  const tensorflow::TensorShape& shape, tensorflow::Tensor** out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_POOLED_OUTPUT_H_
