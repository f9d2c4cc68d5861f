// A minimal framework-free status: cc/kernels must not depend on TensorFlow.
#ifndef TFGPUAUG_CC_KERNELS_STATUS_H_
#define TFGPUAUG_CC_KERNELS_STATUS_H_

#include <string>
#include <utility>

namespace tfgpuaug {

class Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Invalid(std::string message) {
    Status s;
    s.ok_ = false;
    s.message_ = std::move(message);
    return s;
  }
  bool ok() const { return ok_; }
  const std::string& message() const { return message_; }

 private:
  bool ok_ = true;
  std::string message_;
};

#define TFGA_RETURN_IF_ERROR(expr)       \
  do {                                   \
    ::tfgpuaug::Status _s = (expr);      \
    if (!_s.ok()) return _s;             \
  } while (0)

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_STATUS_H_
