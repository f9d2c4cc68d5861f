// A minimal framework-free status: cc/kernels must not depend on TensorFlow.
#ifndef TFGPUAUG_CC_KERNELS_COMMON_STATUS_H_
#define TFGPUAUG_CC_KERNELS_COMMON_STATUS_H_

#include <string>
#include <utility>

namespace tfgpuaug {

class Status {
 public:
  // Whose fault: the input's (bad bytes or arguments), the device's (a failed CUDA call),
  // memory's, or ours (an unexpected C++ exception outside a codec). The op layer maps them to
  // InvalidArgument, Internal, ResourceExhausted and Internal.
  enum class Kind { kOk, kInvalidInput, kDevice, kOutOfMemory, kInternal };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status Invalid(std::string message) { return Status(Kind::kInvalidInput, std::move(message)); }
  static Status Device(std::string message) { return Status(Kind::kDevice, std::move(message)); }
  static Status OutOfMemory(std::string message) { return Status(Kind::kOutOfMemory, std::move(message)); }
  static Status Internal(std::string message) { return Status(Kind::kInternal, std::move(message)); }
  static Status OfKind(Kind kind, std::string message) { return Status(kind, std::move(message)); }
  bool ok() const { return kind_ == Kind::kOk; }
  Kind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  // The same kind with a prefix on the message (e.g. which image).
  Status Prefixed(const std::string& prefix) const { return Status(kind_, prefix + message_); }

 private:
  Status(Kind kind, std::string message) : kind_(kind), message_(std::move(message)) {}
  Kind kind_ = Kind::kOk;
  std::string message_;
};

#define TFGPUAUG_RETURN_IF_ERROR(expr) \
  do {                                 \
    ::tfgpuaug::Status _s = (expr);    \
    if (!_s.ok()) return _s;           \
  } while (0)

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_STATUS_H_
