// Which images of a GPU decode go to nvJPEG and which to the CPU decoder (plus a copy), and
// the TFGPUAUG_NVJPEG switch. Host code without CUDA, so the CPU build and the kernels
// module test the rules the GPU path follows.
#ifndef TFGPUAUG_CC_KERNELS_DECODE_GPU_DECODE_ROUTE_H_
#define TFGPUAUG_CC_KERNELS_DECODE_GPU_DECODE_ROUTE_H_

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "cc/kernels/decode/image_decode.h"

namespace tfgpuaug {

// TFGPUAUG_NVJPEG: unset or "on" uses nvJPEG where it can; "off" decodes everything on the
// CPU (as when libnvjpeg is missing); "reject" makes nvJPEG refuse every batch, which takes
// the fallback path a rejected image takes (for tests on a GPU machine).
enum class NvjpegMode { kOn, kOff, kReject };

inline NvjpegMode NvjpegModeFrom(const char* value) {
  if (value == nullptr) return NvjpegMode::kOn;
  if (std::strcmp(value, "off") == 0) return NvjpegMode::kOff;
  if (std::strcmp(value, "reject") == 0) return NvjpegMode::kReject;
  return NvjpegMode::kOn;
}

// Whether a JPEG's last bytes hold its end-of-image marker (trailing padding allowed). A file
// cut short has none: libjpeg's CPU decoder refuses it ("premature end"), while nvJPEG may fill
// the missing rows and report success, so such files go to the CPU and fail there, by name.
inline bool JpegEndsWithEoi(const uint8_t* data, size_t size) {
  constexpr size_t kTrailing = 64;  // padding some writers leave after the marker
  for (size_t i = size >= kTrailing + 2 ? size - kTrailing - 2 : 0; i + 1 < size; ++i) {
    if (data[i] == 0xFF && data[i + 1] == 0xD9) return true;
  }
  return false;
}

// nvJPEG decodes whole 3-channel JPEGs at full scale that end with their marker; everything
// else (other formats, CMYK, DCT scaling, EXIF re-orientation, truncated files), and every
// image when nvJPEG is not ready, goes through the CPU decoder.
inline bool RoutesToNvjpeg(const uint8_t* data, size_t size, const DecodePlan& p, const DecodeRequest& r,
                           bool nvjpeg_ready) {
  const bool oriented = r.apply_exif_orientation && p.info.orientation != 1;
  return nvjpeg_ready && p.info.format == ImageFormat::kJpeg && p.info.channels != 4 && r.dct_denom == 1 &&
         !oriented && JpegEndsWithEoi(data, size);
}

// nvJPEG writes whole images into device scratch even when the output is a small window. To
// keep that scratch within `budget` bytes, the nvJPEG images are decoded in consecutive groups
// whose full-size outputs fit in it (an image over the budget is a group alone). Returns each
// group's end index over `bytes`, the images' full-size output bytes.
inline std::vector<size_t> NvjpegGroupEnds(const std::vector<size_t>& bytes, size_t budget) {
  std::vector<size_t> ends;
  size_t sum = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (sum > 0 && sum + bytes[i] > budget) {
      ends.push_back(i);
      sum = 0;
    }
    sum += bytes[i];
  }
  if (!bytes.empty()) ends.push_back(bytes.size());
  return ends;
}

// The device scratch those groups need: the largest group's bytes.
inline size_t NvjpegScratchBytes(const std::vector<size_t>& bytes, size_t budget) {
  size_t largest = 0, begin = 0;
  for (size_t end : NvjpegGroupEnds(bytes, budget)) {
    size_t sum = 0;
    for (size_t i = begin; i < end; ++i) sum += bytes[i];
    largest = std::max(largest, sum);
    begin = end;
  }
  return largest;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_DECODE_GPU_DECODE_ROUTE_H_
