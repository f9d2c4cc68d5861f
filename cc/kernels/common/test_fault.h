// A fault-injection hook that proves the exception barrier (tests/test_exception_barrier.py).
// When the environment variable TFGPUAUG_TEST_THROW names an exception (bad_alloc,
// runtime_error or unknown) and the encoded bytes contain the marker "TFGPUAUG_TEST_THROW",
// the JPEG, PNG and TIFF decoders throw it from inside their pixel loops, as a bug or a
// failed allocation would. Unset, as outside the tests, it costs one getenv per decode.
#ifndef TFGPUAUG_CC_KERNELS_COMMON_TEST_FAULT_H_
#define TFGPUAUG_CC_KERNELS_COMMON_TEST_FAULT_H_

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

#include <string.h>  // memmem

namespace tfgpuaug {

inline void MaybeThrowForTest(const uint8_t* data, size_t size) {
  const char* kind = std::getenv("TFGPUAUG_TEST_THROW");
  if (kind == nullptr || kind[0] == '\0') return;
  static const char kMarker[] = "TFGPUAUG_TEST_THROW";
  if (memmem(data, size, kMarker, sizeof(kMarker) - 1) == nullptr) return;
  if (std::strcmp(kind, "bad_alloc") == 0) throw std::bad_alloc();
  if (std::strcmp(kind, "runtime_error") == 0) throw std::runtime_error("injected by TFGPUAUG_TEST_THROW");
  throw 42;  // "unknown": not even a std::exception
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_TEST_FAULT_H_
