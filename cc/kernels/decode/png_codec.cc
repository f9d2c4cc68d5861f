// PNG decoding with libpng: every format variant is expanded to 8-bit gray, gray+alpha,
// RGB or RGBA (16-bit samples keep their high byte, as PIL does), then converted.
#include <algorithm>
#include <csetjmp>
#include <cstring>
#include <string>
#include <vector>

#include <png.h>

#include "cc/kernels/common/byte_order.h"
#include "cc/kernels/common/test_fault.h"
#include "cc/kernels/decode/codecs.h"
#include "cc/kernels/decode/orientation.h"
#include "cc/kernels/decode/window_pixels.h"

namespace tfgpuaug {
namespace {

constexpr size_t kPngSignatureSize = 8;
// Ancillary chunks (text, ICC profiles) larger than this are refused.
constexpr png_alloc_size_t kMaxChunkBytes = 8u << 20;

struct Reader {
  const uint8_t* data;
  size_t size;
  size_t offset;
  char message[256];
};

void OnRead(png_structp png, png_bytep out, png_size_t length) {
  auto* r = static_cast<Reader*>(png_get_io_ptr(png));
  if (length > r->size - r->offset) png_error(png, "truncated PNG data");
  std::memcpy(out, r->data + r->offset, length);
  r->offset += length;
}

[[noreturn]] void OnError(png_structp png, png_const_charp message) {
  auto* r = static_cast<Reader*>(png_get_error_ptr(png));
  std::strncpy(r->message, message, sizeof(r->message) - 1);
  r->message[sizeof(r->message) - 1] = '\0';
  png_longjmp(png, 1);
}

void OnWarning(png_structp, png_const_charp) {}

// Owns the libpng structs; callers must setjmp(png_jmpbuf(png)) before use.
struct PngSession {
  Reader reader;
  png_structp png = nullptr;
  png_infop info = nullptr;

  PngSession(const uint8_t* data, size_t size) : reader{data, size, 0, {0}} {}
  ~PngSession() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
  bool Create() {
    png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, OnError, OnWarning);
    if (png == nullptr) return false;
    info = png_create_info_struct(png);
    if (info == nullptr) return false;
    png_set_read_fn(png, &reader, OnRead);
    png_set_chunk_malloc_max(png, kMaxChunkBytes);
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);  // pixel limit is checked by the planner
    return true;
  }
  Status Failure() const { return Status::Invalid(std::string("invalid PNG: ") + reader.message); }
};

int NativeChannels(png_structp png, png_infop info) {
  const int type = png_get_color_type(png, info);
  const bool alpha = (type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
  const bool color = type & PNG_COLOR_MASK_COLOR;
  return (color ? 3 : 1) + (alpha ? 1 : 0);
}

int OrientationOf(png_structp png, png_infop info) {
#ifdef PNG_eXIf_SUPPORTED
  png_uint_32 length = 0;
  png_bytep exif = nullptr;
  if (png_get_eXIf_1(png, info, &length, &exif) != 0 && exif != nullptr) {
    return ParseExifOrientation(exif, length);
  }
#endif
  return 1;
}

// libpng allocates an ancillary chunk's declared length before reading it (1.7 GB for a
// 132-byte file with a cut iTXt chunk, found by fuzz/decode_fuzzer_png): every chunk before the
// first IDAT, which is all libpng reads before the pixels, must fit in the file. IDAT is read
// in small pieces and needs no check.
Status CheckChunkLengths(const uint8_t* data, size_t size) {
  size_t at = kPngSignatureSize;
  while (at + 8 <= size) {
    const uint32_t length = LoadBe32(data + at);
    const char* type = reinterpret_cast<const char*>(data + at + 4);
    if (std::memcmp(type, "IDAT", 4) == 0) return Status::Ok();
    if (uint64_t{length} + 12 > size - at) {
      return Status::Invalid("invalid PNG: chunk '" + std::string(type, 4) + "' declares " +
                             std::to_string(length) + " bytes, past the end of the file (" +
                             std::to_string(size) + " bytes)");
    }
    at += size_t{length} + 12;
  }
  return Status::Ok();
}

}  // namespace

Status ProbePng(const uint8_t* data, size_t size, ImageInfo* info) {
  TFGPUAUG_RETURN_IF_ERROR(CheckChunkLengths(data, size));
  PngSession s(data, size);
  if (!s.Create()) return Status::Invalid("could not allocate PNG decoder");
  if (setjmp(png_jmpbuf(s.png))) return s.Failure();
  png_read_info(s.png, s.info);
  info->format = ImageFormat::kPng;
  info->width = static_cast<int>(png_get_image_width(s.png, s.info));
  info->height = static_cast<int>(png_get_image_height(s.png, s.info));
  info->channels = NativeChannels(s.png, s.info);
  info->orientation = OrientationOf(s.png, s.info);
  info->progressive = png_get_interlace_type(s.png, s.info) != PNG_INTERLACE_NONE;
  return Status::Ok();
}

namespace {

// The window as T samples: 8-bit output keeps 16-bit samples' high byte (as PIL), 16-bit
// output widens 8-bit samples by 257 (as tf.io.decode_png(dtype=uint16)).
template <typename T>
Status DecodePng(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                 T* out) {
  TFGPUAUG_RETURN_IF_ERROR(CheckChunkLengths(data, size));
  PngSession s(data, size);
  if (!s.Create()) return Status::Invalid("could not allocate PNG decoder");
  std::vector<uint8_t> raw;
  std::vector<T> wide;
  std::vector<png_bytep> rows;
  if (setjmp(png_jmpbuf(s.png))) return s.Failure();
  png_read_info(s.png, s.info);
  png_set_expand(s.png);
  if (sizeof(T) == 1) {
    png_set_strip_16(s.png);
  } else {
    png_set_swap(s.png);  // 16-bit samples in host (little-endian) order
  }
  png_set_interlace_handling(s.png);
  png_read_update_info(s.png, s.info);
  MaybeThrowForTest(data, size);
  const int h = static_cast<int>(png_get_image_height(s.png, s.info));
  const int w = static_cast<int>(png_get_image_width(s.png, s.info));
  const int c = png_get_channels(s.png, s.info);
  const int depth = png_get_bit_depth(s.png, s.info);
  const size_t row_bytes = png_get_rowbytes(s.png, s.info);
  raw.resize(row_bytes * h);
  rows.resize(h);
  for (int y = 0; y < h; ++y) rows[y] = raw.data() + size_t(y) * row_bytes;
  png_read_image(s.png, rows.data());
  // Trailing chunks are not read: the pixels are complete once the last row is.
  const T* pixels = reinterpret_cast<const T*>(raw.data());
  if (sizeof(T) == 2 && depth == 8) {
    wide.resize(size_t(h) * w * c);
    for (size_t i = 0; i < wide.size(); ++i) wide[i] = static_cast<T>(raw[i] * 257);
    pixels = wide.data();
  }
  WriteWindow(pixels, h, w, c, request.dct_denom, window, request.channels, out);
  return Status::Ok();
}

}  // namespace

Status DecodePngWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                       uint8_t* out) {
  return DecodePng(data, size, request, window, out);
}

Status DecodePngWindow16(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                         uint16_t* out) {
  return DecodePng(data, size, request, window, out);
}

}  // namespace tfgpuaug
