// Picks the libjpeg a JPEG decode runs on (see JpegBuild in image_decode.h).
#include <cstdlib>

#include "cc/kernels/decode/codecs.h"

namespace tfgpuaug {
namespace {

#if TFGPUAUG_JPEG_X86_64_V3
// The x86-64-v3 copy needs BMI2, LZCNT, MOVBE and AVX2.
bool CpuHasX86_64V3() {
  static const bool yes = __builtin_cpu_supports("x86-64-v3");
  return yes;
}

// TFGPUAUG_DISABLE_JPEG_V3 keeps kAuto on the linked libjpeg, for side-by-side timing.
bool AutoTakesX86_64V3() {
  static const bool yes = CpuHasX86_64V3() && std::getenv("TFGPUAUG_DISABLE_JPEG_V3") == nullptr;
  return yes;
}
#endif

const JpegCodec& Codec(JpegBuild build) {
#if TFGPUAUG_JPEG_X86_64_V3
  if (build == JpegBuild::kX86_64V3 || (build == JpegBuild::kAuto && AutoTakesX86_64V3())) {
    return kX86_64V3JpegCodec;
  }
#endif
  return kLinkedJpegCodec;
}

Status CheckAvailable(JpegBuild build) {
  return JpegBuildAvailable(build) ? Status::Ok()
                                   : Status::Invalid("the x86-64-v3 libjpeg is not available here");
}

}  // namespace

bool JpegBuildAvailable(JpegBuild build) {
#if TFGPUAUG_JPEG_X86_64_V3
  return build != JpegBuild::kX86_64V3 || CpuHasX86_64V3();
#else
  return build != JpegBuild::kX86_64V3;
#endif
}

Status ProbeJpeg(const uint8_t* data, size_t size, ImageInfo* info) {
  return Codec(JpegBuild::kAuto).probe(data, size, info);
}

Status DecodeJpegWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                        uint8_t* out) {
  TFGPUAUG_RETURN_IF_ERROR(CheckAvailable(request.jpeg_build));
  return Codec(request.jpeg_build).decode_window(data, size, request, window, out);
}

Status DecodeJpegWindowStrided(const uint8_t* data, size_t size, const DecodeRequest& request,
                               const Window& window, std::unique_ptr<uint8_t[]>* storage,
                               StridedPixels* out) {
  TFGPUAUG_RETURN_IF_ERROR(CheckAvailable(request.jpeg_build));
  return Codec(request.jpeg_build).decode_window_strided(data, size, request, window, storage, out);
}

Status CheckJpegEntropyData(const uint8_t* data, size_t size) {
  return Codec(JpegBuild::kAuto).check_entropy(data, size);
}

}  // namespace tfgpuaug
