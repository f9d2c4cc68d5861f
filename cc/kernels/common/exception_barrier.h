// The exception barrier. A C++ exception must never leave an OpKernel, a thread-pool task, a
// dataset iterator or a kernels-module entry point: leaving a TensorFlow kernel it is undefined
// behaviour (a crash in eager mode, std::terminate inside tf.data). Every such boundary runs its
// body through CatchExceptions, which turns what escaped into a Status:
//   std::bad_alloc, std::length_error (a size past max_size) -> kOutOfMemory
//   StatusError (a Status carried across a boundary that could not return one) -> its Status
//   anything else -> `other` (kInvalidInput inside a codec: the file made it happen;
//                             kInternal elsewhere: a bug of ours)
#ifndef TFGPUAUG_CC_KERNELS_COMMON_EXCEPTION_BARRIER_H_
#define TFGPUAUG_CC_KERNELS_COMMON_EXCEPTION_BARRIER_H_

#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// A Status thrown through code that can only return void (thread-pool tasks), caught again
// by the barrier around them.
class StatusError : public std::exception {
 public:
  explicit StatusError(Status status) : status_(std::move(status)) {}
  const char* what() const noexcept override { return status_.message().c_str(); }
  const Status& status() const { return status_; }

 private:
  Status status_;
};

// The Status for the exception being handled; call only inside a catch block.
inline Status StatusFromCurrentException(const std::string& where, Status::Kind other) noexcept {
  const std::string prefix = where.empty() ? "" : where + ": ";
  try {
    throw;
  } catch (const StatusError& e) {
    return e.status().Prefixed(prefix);
  } catch (const std::bad_alloc& e) {
    return Status::OutOfMemory(prefix + "out of memory (" + e.what() + ")");
  } catch (const std::length_error& e) {
    return Status::OutOfMemory(prefix + "out of memory: a buffer past the largest size (" + e.what() + ")");
  } catch (const std::exception& e) {
    return Status::OfKind(other, prefix + "unexpected C++ exception: " + e.what());
  } catch (...) {
    return Status::OfKind(other, prefix + "unexpected C++ exception of unknown type");
  }
}

// Runs `body` (returning Status) and returns its Status, or the Status of what it threw.
template <typename Body>
Status CatchExceptions(const std::string& where, Status::Kind other, Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    return StatusFromCurrentException(where, other);
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_EXCEPTION_BARRIER_H_
