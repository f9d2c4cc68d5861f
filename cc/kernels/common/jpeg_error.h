// libjpeg's error handling as a Status: its default error_exit calls exit(). Include after
// jpeglib.h. Internal linkage on purpose: jpeg_codec.cc is compiled against two libjpeg
// builds (the linked one and the x86-64-v3 copy), and each gets its own copy of these.
#ifndef TFGPUAUG_CC_KERNELS_COMMON_JPEG_ERROR_H_
#define TFGPUAUG_CC_KERNELS_COMMON_JPEG_ERROR_H_

#include <csetjmp>
#include <cstdio>

#include <jerror.h>

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

// Warnings that mean the pixels (or coefficients) would be made up, gray fill: errors here.
bool IsDataLossWarning(int code) {
  switch (code) {
    case JWRN_JPEG_EOF:
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL:
    case JWRN_BOGUS_PROGRESSION:
      return true;
    default:
      return false;
  }
}

// emit_message: a data-loss warning fails the call; other messages are dropped.
void OnJpegMessage(j_common_ptr cinfo, int level) {
  if (level < 0 && IsDataLossWarning(cinfo->err->msg_code)) OnJpegError(cinfo);
}

// Progressive files may hold any number of scans; bound the work a file can demand.
constexpr int kMaxJpegScans = 1000;

// progress_monitor of a decompressor: fails a file past kMaxJpegScans scans.
void OnJpegProgress(j_common_ptr cinfo) {
  if (cinfo->is_decompressor &&
      reinterpret_cast<j_decompress_ptr>(cinfo)->input_scan_number > kMaxJpegScans) {
    auto* err = reinterpret_cast<JpegErrorManager*>(cinfo->err);
    std::snprintf(err->message, sizeof(err->message), "progressive JPEG has more than %d scans",
                  kMaxJpegScans);
    longjmp(err->jump, 1);
  }
}

}  // namespace
}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_JPEG_ERROR_H_
