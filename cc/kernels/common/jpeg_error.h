// libjpeg's error handling as a Status: its default error_exit calls exit(). Include after
// jpeglib.h. Internal linkage on purpose: jpeg_codec.cc is compiled against two libjpeg
// builds (the linked one and the x86-64-v3 copy), and each gets its own copy of these.
#ifndef TFGPUAUG_CC_KERNELS_COMMON_JPEG_ERROR_H_
#define TFGPUAUG_CC_KERNELS_COMMON_JPEG_ERROR_H_

#include <csetjmp>

namespace tfgpuaug {
namespace {

// Callers setjmp on `jump` before any libjpeg call; errors land there with `message` set.
struct JpegErrorManager {
  jpeg_error_mgr pub;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void OnJpegError(j_common_ptr cinfo) {
  auto* err = reinterpret_cast<JpegErrorManager*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, err->message);
  longjmp(err->jump, 1);
}

}  // namespace
}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_JPEG_ERROR_H_
