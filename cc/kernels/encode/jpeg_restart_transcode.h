// Lossless rewrite of a JPEG as a sequential JPEG with restart markers, for prepared
// datasets whose random crops then decode only their own intervals (decode/jpeg_restart.h).
// The DCT coefficients are copied, not re-quantised, so every decoder makes the same pixels.
#ifndef TFGPUAUG_CC_KERNELS_ENCODE_JPEG_RESTART_TRANSCODE_H_
#define TFGPUAUG_CC_KERNELS_ENCODE_JPEG_RESTART_TRANSCODE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

struct RestartTranscodeOptions {
  // Interval width wanted, in pixels. The interval written is the divisor of the MCUs per row
  // nearest to it by ratio (see RestartIntervalFor), so that every MCU row starts an interval
  // and crops can cut columns. Pixels rather than MCUs: an MCU is 8 pixels wide for 4:4:4
  // and gray, 16 for 4:2:0, so one width gives every file about the same crop granularity.
  int interval_width = 64;
  bool optimize_huffman = true;           // per-image Huffman tables (smaller; still lossless)
  int64_t max_pixels = int64_t{1} << 28;  // refuse larger headers before the coefficients are read
};

// The MCUs per interval for `wanted` (at least 1): of the largest divisor of `mcus_per_row`
// not above it and the smallest not below it, the nearer by ratio (the smaller on a tie).
int RestartIntervalFor(int mcus_per_row, int wanted);

// Rewrites `data` into `out`: baseline (or extended sequential for progressive and arithmetic
// input) Huffman coding, a DRI, APPn and COM markers kept. Errors for damaged input, as the
// decoder reports them.
Status AddJpegRestartMarkers(const uint8_t* data, size_t size, const RestartTranscodeOptions& options,
                             std::vector<uint8_t>* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_ENCODE_JPEG_RESTART_TRANSCODE_H_
