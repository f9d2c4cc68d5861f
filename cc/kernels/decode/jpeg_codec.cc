// JPEG decoding with libjpeg-turbo. Every libjpeg error and every warning that means
// corrupt or missing data becomes a Status: libjpeg's default handler calls exit().
// Compiled once against the linked libjpeg (kLinkedJpegCodec) and, when the build made it,
// again against the x86-64-v3 copy (jpeg_codec_x86_64_v3.cc); everything here but the
// codec table has internal linkage, so the two compilations never meet.
#ifndef TFGPUAUG_JPEG_CODEC_NAME
#define TFGPUAUG_JPEG_CODEC_NAME kLinkedJpegCodec
#endif
#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <jerror.h>
#include <jpeglib.h>

#include "cc/kernels/common/jpeg_error.h"
#include "cc/kernels/common/test_fault.h"
#include "cc/kernels/decode/codecs.h"
#include "cc/kernels/decode/jpeg_restart.h"
#include "cc/kernels/decode/orientation.h"
#include "cc/kernels/decode/pixel_convert.h"

namespace tfgpuaug {
namespace {

// Owns a decompressor; callers must setjmp on `err.jump` before any libjpeg call. The
// destructor frees libjpeg's memory on every way out: a return, a longjmp to the setjmp (whose
// frame then returns) or an exception.
struct Decompressor {
  jpeg_decompress_struct cinfo;
  JpegErrorManager err;
  jpeg_progress_mgr progress;

  Decompressor() {
    cinfo.mem = nullptr;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = OnJpegError;
    err.pub.emit_message = OnJpegMessage;
    err.message[0] = '\0';
    progress.progress_monitor = OnJpegProgress;
  }
  ~Decompressor() { jpeg_destroy_decompress(&cinfo); }
  Decompressor(const Decompressor&) = delete;
  Decompressor& operator=(const Decompressor&) = delete;
  Status Failure() const { return Status::Invalid(std::string("invalid JPEG: ") + err.message); }
};

bool IsCmyk(const jpeg_decompress_struct& c) {
  return c.jpeg_color_space == JCS_CMYK || c.jpeg_color_space == JCS_YCCK;
}

int OrientationFromMarkers(const jpeg_decompress_struct& c) {
  for (jpeg_saved_marker_ptr m = c.marker_list; m != nullptr; m = m->next) {
    if (m->marker == JPEG_APP0 + 1 && m->data_length >= 6 && std::memcmp(m->data, "Exif\0\0", 6) == 0) {
      return ParseExifOrientation(m->data, m->data_length);
    }
  }
  return 1;
}

// Reads the header with APP1 saved; the decompressor must already be created.
void ReadHeader(Decompressor* d, const uint8_t* data, size_t size) {
  jpeg_mem_src(&d->cinfo, data, static_cast<unsigned long>(size));
  jpeg_save_markers(&d->cinfo, JPEG_APP0 + 1, 0xFFFF);
  jpeg_read_header(&d->cinfo, TRUE);
}

Status Probe(const uint8_t* data, size_t size, ImageInfo* info) {
  Decompressor d;
  if (setjmp(d.err.jump)) {
    return d.Failure();
  }
  jpeg_create_decompress(&d.cinfo);
  ReadHeader(&d, data, size);
  info->format = ImageFormat::kJpeg;
  info->height = static_cast<int>(d.cinfo.image_height);
  info->width = static_cast<int>(d.cinfo.image_width);
  info->channels = d.cinfo.num_components == 1 ? 1 : (IsCmyk(d.cinfo) ? 4 : 3);
  info->orientation = OrientationFromMarkers(d.cinfo);
  info->progressive = jpeg_has_multiple_scans(&d.cinfo);
  return Status::Ok();
}

// Decodes `window` packed into `packed` when it is given, else leaves the rows where
// libjpeg writes them, in `storage`, and describes them in `strided`.
Status DecodeJpegRows(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& requested,
                      uint8_t* packed, std::unique_ptr<uint8_t[]>* storage, StridedPixels* strided) {
  const int out_c = request.channels;
  // Buffers live outside the setjmp region's scope so longjmp skips no destructor.
  std::vector<uint8_t> smaller;
  Window window = requested;
  if (CutRestartCrop(data, size, request.dct_denom, &window, &smaller, nullptr)) {
    data = smaller.data();
    size = smaller.size();
  }
  Decompressor d;
  std::vector<uint8_t> row_buffer;
  if (setjmp(d.err.jump)) {
    return d.Failure();
  }
  jpeg_create_decompress(&d.cinfo);
  d.cinfo.progress = &d.progress;
  ReadHeader(&d, data, size);
  const bool cmyk = IsCmyk(d.cinfo);
  if (cmyk) {
    d.cinfo.out_color_space = JCS_CMYK;
  } else {
    d.cinfo.out_color_space = out_c == 1 ? JCS_GRAYSCALE : (out_c == 3 ? JCS_RGB : JCS_EXT_RGBA);
  }
  switch (request.dct_method) {
    case DctMethod::kIntegerFast:
      d.cinfo.dct_method = JDCT_IFAST;
      break;
    case DctMethod::kFloat:
      d.cinfo.dct_method = JDCT_FLOAT;
      break;
    default:
      d.cinfo.dct_method = JDCT_ISLOW;
      break;
  }
  d.cinfo.do_fancy_upsampling = TRUE;
  d.cinfo.scale_num = 1;
  d.cinfo.scale_denom = static_cast<unsigned int>(request.dct_denom);
  jpeg_start_decompress(&d.cinfo);
  MaybeThrowForTest(data, size);

  const int full_w = static_cast<int>(d.cinfo.output_width);
  const int full_h = static_cast<int>(d.cinfo.output_height);
  if (window.x < 0 || window.y < 0 || window.x + window.width > full_w || window.y + window.height > full_h) {
    return Status::Invalid("JPEG window lies outside the decoded image");
  }
  // Column crop: libjpeg aligns the start down to an iMCU boundary.
  // Fancy upsampling treats the crop's edges as image edges; decoding a few columns
  // more on each side keeps the window's pixels identical to a full decode.
  const int left = std::min(d.cinfo.max_h_samp_factor, window.x);
  const int right = std::min(d.cinfo.max_h_samp_factor, full_w - window.x - window.width);
  JDIMENSION x_start = static_cast<JDIMENSION>(window.x - left);
  JDIMENSION crop_w = static_cast<JDIMENSION>(window.width + left + right);
  if (x_start > 0 || int(crop_w) < full_w) {
    jpeg_crop_scanline(&d.cinfo, &x_start, &crop_w);
  }
  const int skip_cols = window.x - static_cast<int>(x_start);
  if (window.y > 0) jpeg_skip_scanlines(&d.cinfo, static_cast<JDIMENSION>(window.y));

  const int comps = d.cinfo.output_components;
  const size_t in_row = size_t(d.cinfo.output_width) * comps;
  const size_t out_row = size_t(window.width) * out_c;
  // Rows go straight to their destination when no column needs dropping or converting.
  const bool in_place = packed == nullptr ||
                        (!cmyk && skip_cols == 0 && static_cast<int>(d.cinfo.output_width) == window.width);
  uint8_t* base = packed;
  size_t stride = out_row;
  if (packed == nullptr) {
    storage->reset(new uint8_t[in_row * size_t(window.height)]);
    base = storage->get();
    stride = in_row;
  }
  // Several rows per call: libjpeg's upsamplers produce row groups, and one row per call
  // costs an extra copy through their spare buffer.
  constexpr int kRowsPerRead = 16;
  if (!in_place) row_buffer.resize(in_row * kRowsPerRead);
  JSAMPROW rows[kRowsPerRead];
  for (int r = 0; r < window.height;) {
    const int want = std::min(kRowsPerRead, window.height - r);
    for (int k = 0; k < want; ++k) {
      rows[k] = in_place ? base + (r + k) * stride : row_buffer.data() + k * in_row;
    }
    const int got = static_cast<int>(jpeg_read_scanlines(&d.cinfo, rows, static_cast<JDIMENSION>(want)));
    if (got <= 0) {
      return Status::Invalid("invalid JPEG: could not read scanline");
    }
    for (int k = 0; k < got; ++k) {
      const uint8_t* src = rows[k] + size_t(skip_cols) * comps;
      uint8_t* dst = base + (r + k) * stride;
      if (cmyk) {  // in place too: each pixel's output lies at or before its input
        for (int x = 0; x < window.width; ++x) ConvertInvertedCmyk(src + x * 4, dst + x * out_c, out_c);
      } else if (!in_place) {
        std::memcpy(dst, src, out_row);
      }
    }
    r += got;
  }
  // Stopping early is intended (rows below the window are never entropy-decoded).
  if (strided != nullptr) {
    const size_t offset = cmyk ? 0 : size_t(skip_cols) * comps;
    *strided = StridedPixels{base + offset, long(stride)};
  }
  return Status::Ok();
}

Status DecodeWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                    uint8_t* out) {
  return DecodeJpegRows(data, size, request, window, out, nullptr, nullptr);
}

Status DecodeWindowStrided(const uint8_t* data, size_t size, const DecodeRequest& request,
                           const Window& window, std::unique_ptr<uint8_t[]>* storage, StridedPixels* out) {
  return DecodeJpegRows(data, size, request, window, nullptr, storage, out);
}

// Entropy-decodes every MCU without producing pixels: the check a JPEG gets before a decoder
// that does not report corrupt data (nvJPEG decodes a scan cut short, or a frame taller than
// its scan, into made-up pixels; seen on an H100, docs/gpu-runs). At 1/8 scale the rows
// skipped cost no IDCT; the last row is read, since skipping to the end decodes nothing.
Status CheckEntropy(const uint8_t* data, size_t size) {
  Decompressor d;
  std::vector<uint8_t> row;  // outside the setjmp region: a longjmp skips no destructor
  if (setjmp(d.err.jump)) {
    return d.Failure();
  }
  jpeg_create_decompress(&d.cinfo);
  d.cinfo.progress = &d.progress;
  ReadHeader(&d, data, size);
  if (IsCmyk(d.cinfo)) d.cinfo.out_color_space = JCS_CMYK;
  d.cinfo.scale_num = 1;
  d.cinfo.scale_denom = 8;
  d.cinfo.do_fancy_upsampling = FALSE;
  jpeg_start_decompress(&d.cinfo);
  const JDIMENSION height = d.cinfo.output_height;
  if (height > 1) jpeg_skip_scanlines(&d.cinfo, height - 1);
  row.resize(size_t(d.cinfo.output_width) * d.cinfo.output_components);
  JSAMPROW rows[1] = {row.data()};
  if (jpeg_read_scanlines(&d.cinfo, rows, 1) != 1)
    return Status::Invalid("invalid JPEG: could not read scanline");
  return Status::Ok();
}

}  // namespace

const JpegCodec TFGPUAUG_JPEG_CODEC_NAME = {Probe, DecodeWindow, DecodeWindowStrided, CheckEntropy};

}  // namespace tfgpuaug
