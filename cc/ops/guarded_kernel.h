// The base of every OpKernel in this library: Compute, final here, runs the kernel's
// ComputeGuarded behind the exception barrier (cc/kernels/common/exception_barrier.h), so a
// C++ exception thrown by a kernel, a codec or a library it calls fails the op with a status
// naming the op (ResourceExhausted for bad_alloc, Internal otherwise) instead of leaving
// Compute, which in TensorFlow is undefined behaviour and kills the process.
#ifndef TFGPUAUG_CC_OPS_GUARDED_KERNEL_H_
#define TFGPUAUG_CC_OPS_GUARDED_KERNEL_H_

#include <string>

#include "cc/kernels/common/exception_barrier.h"
#include "cc/ops/decode_common.h"
#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

// What the barrier reports for the exception being handled, as the op's status.
inline absl::Status OpStatusFromCurrentException(const tensorflow::OpKernel& op) {
  return ToTfStatus(
      StatusFromCurrentException(op.type_string() + " '" + op.name() + "'", Status::Kind::kInternal));
}

// Runs `body` (returning absl::Status) behind the barrier: for entry points that return a
// status rather than setting one (dataset iterators, MakeDataset).
template <typename Body>
absl::Status GuardedTfStatus(const std::string& where, Body&& body) {
  try {
    return body();
  } catch (...) {
    return ToTfStatus(StatusFromCurrentException(where, Status::Kind::kInternal));
  }
}

class GuardedOpKernel : public tensorflow::OpKernel {
 public:
  using tensorflow::OpKernel::OpKernel;

  void Compute(tensorflow::OpKernelContext* ctx) final {
    try {
      ComputeGuarded(ctx);
    } catch (...) {
      ctx->SetStatus(OpStatusFromCurrentException(*this));
    }
  }

 protected:
  virtual void ComputeGuarded(tensorflow::OpKernelContext* ctx) = 0;
};

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_GUARDED_KERNEL_H_
