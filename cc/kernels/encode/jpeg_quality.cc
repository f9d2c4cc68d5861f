#include "cc/kernels/encode/jpeg_quality.h"

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <jpeglib.h>

#include "cc/kernels/common/jpeg_error.h"
#include "cc/kernels/decode/image_decode.h"

namespace tfgpuaug {
namespace {

void Quiet(j_common_ptr, int) {}

}  // namespace

Status EncodeJpeg(const uint8_t* pixels, int height, int width, int channels, int quality,
                  std::vector<uint8_t>* out) {
  if (channels != 1 && channels != 3) return Status::Invalid("JPEG encoding takes 1 or 3 channels");
  if (quality < 1 || quality > 100) return Status::Invalid("JPEG quality must be in [1, 100]");
  jpeg_compress_struct cinfo;
  JpegErrorManager err;
  cinfo.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = OnJpegError;
  err.pub.emit_message = Quiet;
  unsigned char* buffer = nullptr;
  unsigned long size = 0;  // NOLINT: libjpeg's type
  if (setjmp(err.jump)) {
    jpeg_destroy_compress(&cinfo);
    std::free(buffer);
    return Status::Invalid(std::string("JPEG encoding failed: ") + err.message);
  }
  jpeg_create_compress(&cinfo);
  jpeg_mem_dest(&cinfo, &buffer, &size);
  cinfo.image_width = static_cast<JDIMENSION>(width);
  cinfo.image_height = static_cast<JDIMENSION>(height);
  cinfo.input_components = channels;
  cinfo.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&cinfo);  // 4:2:0 for colour, JDCT_ISLOW, standard tables: PIL's defaults
  jpeg_set_quality(&cinfo, quality, TRUE);
  jpeg_start_compress(&cinfo, TRUE);
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = const_cast<JSAMPROW>(pixels + size_t(cinfo.next_scanline) * width * channels);
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  out->assign(buffer, buffer + size);
  jpeg_destroy_compress(&cinfo);
  std::free(buffer);
  return Status::Ok();
}

Status JpegRoundTrip(uint8_t* image, int height, int width, int channels, int quality) {
  const int colour = channels == 1 ? 1 : 3;
  std::vector<uint8_t> packed;
  const uint8_t* source = image;
  if (channels == 4) {  // the colour without alpha
    packed.resize(size_t(height) * width * 3);
    for (size_t i = 0; i < size_t(height) * width; ++i) {
      for (int k = 0; k < 3; ++k) packed[3 * i + k] = image[4 * i + k];
    }
    source = packed.data();
  }
  std::vector<uint8_t> encoded;
  TFGPUAUG_RETURN_IF_ERROR(EncodeJpeg(source, height, width, colour, quality, &encoded));
  DecodeRequest request;
  request.channels = colour;
  request.max_pixels = int64_t{height} * width;
  DecodePlan plan;
  TFGPUAUG_RETURN_IF_ERROR(PlanDecode(encoded.data(), encoded.size(), request, &plan));
  std::vector<uint8_t> decoded(size_t(height) * width * colour);
  TFGPUAUG_RETURN_IF_ERROR(ExecuteDecode(encoded.data(), encoded.size(), request, plan, decoded.data()));
  if (channels == 4) {
    for (size_t i = 0; i < size_t(height) * width; ++i) {
      for (int k = 0; k < 3; ++k) image[4 * i + k] = decoded[3 * i + k];
    }
  } else {
    std::copy(decoded.begin(), decoded.end(), image);
  }
  return Status::Ok();
}

}  // namespace tfgpuaug
