#include "cc/kernels/encode/jpeg_restart_transcode.h"

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <jerror.h>
#include <jpeglib.h>

#include "cc/kernels/common/jpeg_error.h"

namespace tfgpuaug {
namespace {

bool IsJfif(const jpeg_saved_marker_ptr m) {
  return m->marker == JPEG_APP0 && m->data_length >= 5 && std::memcmp(m->data, "JFIF\0", 5) == 0;
}
bool IsAdobe(const jpeg_saved_marker_ptr m) {
  return m->marker == JPEG_APP0 + 14 && m->data_length >= 5 && std::memcmp(m->data, "Adobe", 5) == 0;
}

// Both structs and the output buffer, released on every way out (return or longjmp).
struct Transcoder {
  jpeg_decompress_struct src;
  jpeg_compress_struct dst;
  JpegErrorManager err;
  jpeg_progress_mgr progress;
  unsigned char* buffer = nullptr;
  unsigned long buffer_size = 0;  // NOLINT: libjpeg's type

  Transcoder() {
    src.mem = nullptr;
    dst.mem = nullptr;
    src.err = jpeg_std_error(&err.pub);
    dst.err = &err.pub;
    err.pub.error_exit = OnJpegError;
    err.pub.emit_message = OnJpegMessage;
    err.message[0] = '\0';
    progress.progress_monitor = OnJpegProgress;
  }
  ~Transcoder() {
    jpeg_destroy_compress(&dst);
    jpeg_destroy_decompress(&src);
    std::free(buffer);
  }
  Transcoder(const Transcoder&) = delete;
  Transcoder& operator=(const Transcoder&) = delete;
};

}  // namespace

int RestartIntervalFor(int mcus_per_row, int wanted) {
  wanted = std::max(1, std::min(wanted, mcus_per_row));
  int below = 1, above = mcus_per_row;
  for (int n = wanted; n > 1; --n) {
    if (mcus_per_row % n == 0) {
      below = n;
      break;
    }
  }
  for (int n = wanted; n < mcus_per_row; ++n) {
    if (mcus_per_row % n == 0) {
      above = n;
      break;
    }
  }
  // The nearer by ratio: a prime row of 47 MCUs wanted in 8s gets 47 (whole-row bands, no
  // column cuts) rather than 1 (a marker per MCU, 7% more bytes).
  return int64_t{wanted} * wanted <= int64_t{below} * above ? below : above;
}

Status AddJpegRestartMarkers(const uint8_t* data, size_t size, const RestartTranscodeOptions& options,
                             std::vector<uint8_t>* out) {
  if (options.interval_width < 1) return Status::Invalid("restart interval width must be positive");
  Transcoder t;
  if (setjmp(t.err.jump)) {
    return Status::Invalid(std::string("invalid JPEG: ") + t.err.message);
  }
  jpeg_create_decompress(&t.src);
  t.src.progress = &t.progress;
  jpeg_mem_src(&t.src, data, static_cast<unsigned long>(size));
  jpeg_save_markers(&t.src, JPEG_COM, 0xFFFF);
  for (int m = 0; m < 16; ++m) jpeg_save_markers(&t.src, JPEG_APP0 + m, 0xFFFF);
  jpeg_read_header(&t.src, TRUE);
  const int64_t pixels = int64_t{t.src.image_width} * t.src.image_height;
  if (pixels > options.max_pixels) {
    return Status::Invalid("JPEG of " + std::to_string(t.src.image_width) + "x" +
                           std::to_string(t.src.image_height) + " pixels is over the limit of " +
                           std::to_string(options.max_pixels));
  }
  jvirt_barray_ptr* coefficients = jpeg_read_coefficients(&t.src);

  jpeg_create_compress(&t.dst);
  jpeg_mem_dest(&t.dst, &t.buffer, &t.buffer_size);
  jpeg_copy_critical_parameters(&t.src, &t.dst);
  // One scan of every component: its MCU is the sampling factors' block, or 8x8 alone.
  const int mcu_width = t.dst.num_components == 1 ? 8 : 8 * t.src.max_h_samp_factor;
  const int mcus_per_row = static_cast<int>((t.src.image_width + mcu_width - 1) / mcu_width);
  const int wanted = std::min(65535, std::max(1, options.interval_width / mcu_width));
  t.dst.restart_interval = static_cast<unsigned int>(RestartIntervalFor(mcus_per_row, wanted));
  t.dst.optimize_coding = options.optimize_huffman ? TRUE : FALSE;
  t.dst.arith_code = FALSE;
  jpeg_write_coefficients(&t.dst, coefficients);
  for (jpeg_saved_marker_ptr m = t.src.marker_list; m != nullptr; m = m->next) {
    if ((t.dst.write_JFIF_header && IsJfif(m)) || (t.dst.write_Adobe_marker && IsAdobe(m))) continue;
    jpeg_write_marker(&t.dst, m->marker, m->data, m->data_length);
  }
  jpeg_finish_compress(&t.dst);
  jpeg_finish_decompress(&t.src);
  out->assign(t.buffer, t.buffer + t.buffer_size);
  return Status::Ok();
}

}  // namespace tfgpuaug
