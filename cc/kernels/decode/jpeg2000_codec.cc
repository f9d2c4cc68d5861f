// JPEG 2000 decoding with OpenJPEG: JP2 files and raw J2K codestreams, gray, gray+alpha, RGB
// and RGBA, any precision (to 8 bits as PIL does: shifted, signed samples offset), subsampled
// components sampled at their nearest position. Only the tiles and code blocks a window needs
// are decoded (opj_set_decode_area). Messages are collected per codec, never printed.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <openjpeg.h>

#include "cc/kernels/common/byte_order.h"
#include "cc/kernels/decode/codecs.h"
#include "cc/kernels/decode/window_pixels.h"

namespace tfgpuaug {
namespace {

struct Source {
  const uint8_t* data;
  size_t size;
  size_t offset;
  std::string message;
};

OPJ_SIZE_T Read(void* out, OPJ_SIZE_T n, void* user) {
  auto* s = static_cast<Source*>(user);
  if (s->offset >= s->size) return static_cast<OPJ_SIZE_T>(-1);
  const size_t k = std::min(size_t(n), s->size - s->offset);
  std::memcpy(out, s->data + s->offset, k);
  s->offset += k;
  return k;
}
OPJ_OFF_T Skip(OPJ_OFF_T n, void* user) {
  auto* s = static_cast<Source*>(user);
  if (n < 0 || size_t(n) > s->size - s->offset) return -1;
  s->offset += size_t(n);
  return n;
}
OPJ_BOOL SeekTo(OPJ_OFF_T at, void* user) {
  auto* s = static_cast<Source*>(user);
  if (at < 0 || size_t(at) > s->size) return OPJ_FALSE;
  s->offset = size_t(at);
  return OPJ_TRUE;
}
void OnError(const char* message, void* user) {
  auto* s = static_cast<Source*>(user);
  if (s->message.empty()) {
    s->message = message;
    while (!s->message.empty() && (s->message.back() == '\n' || s->message.back() == ' '))
      s->message.pop_back();
  }
}
void OnQuiet(const char*, void*) {}

struct CodecCloser {
  void operator()(opj_codec_t* c) const { opj_destroy_codec(c); }
};
struct StreamCloser {
  void operator()(opj_stream_t* s) const { opj_stream_destroy(s); }
};
struct ImageCloser {
  void operator()(opj_image_t* i) const { opj_image_destroy(i); }
};

bool IsJp2(const uint8_t* data, size_t size) {
  static const uint8_t kJp2[12] = {0, 0, 0, 12, 'j', 'P', ' ', ' ', '\r', '\n', 0x87, '\n'};
  return size >= 12 && std::memcmp(data, kJp2, 12) == 0;
}

// OpenJPEG sizes its per-tile, per-component state from the SIZ marker as it reads the header
// (about 3 KB per tile and component): a 100-byte file declaring 65025 tiles of 16384
// components made it allocate past 23 GB. The SIZ marker is read here first and refused past
// these. Images with more tiles than this are far over max_pixels at any sane tile size.
constexpr uint32_t kMaxComponents = 4;
constexpr uint64_t kMaxTiles = 8192;

// Where the codestream starts: 0 for a raw J2K stream, the payload of the JP2 file's
// contiguous codestream box ('jp2c') otherwise; `size` when there is none.
size_t CodestreamStart(const uint8_t* data, size_t size) {
  if (!IsJp2(data, size)) return 0;
  size_t at = 0;
  while (at + 8 <= size) {
    uint64_t length = LoadBe32(data + at);
    size_t header = 8;
    if (length == 1) {  // a 64-bit length follows the type
      if (at + 16 > size) return size;
      length = uint64_t(LoadBe32(data + at + 8)) << 32 | LoadBe32(data + at + 12);
      header = 16;
    } else if (length == 0) {  // to the end of the file
      length = size - at;
    }
    if (std::memcmp(data + at + 4, "jp2c", 4) == 0) return at + header;
    if (length < header || length > size - at) return size;
    at += length;
  }
  return size;
}

// Refuses component and tile counts past the limits above, from the SIZ marker (ISO 15444-1
// A.5.1), before OpenJPEG reads it. A stream this cannot read is left to OpenJPEG to refuse.
Status CheckSizMarker(const uint8_t* data, size_t size) {
  const size_t at = CodestreamStart(data, size);
  // SOC, SIZ, Lsiz, Rsiz, then Xsiz .. YTOsiz (8 x 4 bytes) and Csiz.
  if (at > size || size - at < 2 + 2 + 2 + 2 + 32 + 2) return Status::Ok();
  const uint8_t* p = data + at;
  if (LoadBe16(p) != 0xFF4F || LoadBe16(p + 2) != 0xFF51) return Status::Ok();
  const uint8_t* siz = p + 8;
  const uint64_t x = LoadBe32(siz), y = LoadBe32(siz + 4), tile_w = LoadBe32(siz + 16),
                 tile_h = LoadBe32(siz + 20);
  const uint64_t tile_x0 = LoadBe32(siz + 24), tile_y0 = LoadBe32(siz + 28);
  const uint32_t components = LoadBe16(siz + 32);
  if (components < 1 || components > kMaxComponents) {
    return Status::Invalid("invalid JPEG 2000: " + std::to_string(components) + " components; 1 to " +
                           std::to_string(kMaxComponents) + " decode");
  }
  if (tile_w == 0 || tile_h == 0 || tile_x0 >= x || tile_y0 >= y) return Status::Ok();
  const uint64_t tiles = ((x - tile_x0 + tile_w - 1) / tile_w) * ((y - tile_y0 + tile_h - 1) / tile_h);
  if (tiles > kMaxTiles) {
    return Status::Invalid("invalid JPEG 2000: " + std::to_string(tiles) + " tiles of " +
                           std::to_string(tile_w) + "x" + std::to_string(tile_h) + "; at most " +
                           std::to_string(kMaxTiles) + " decode");
  }
  return Status::Ok();
}

// A codec with its header read; errors name the step and OpenJPEG's first message.
struct Session {
  Source source;
  std::unique_ptr<opj_codec_t, CodecCloser> codec;
  std::unique_ptr<opj_stream_t, StreamCloser> stream;
  std::unique_ptr<opj_image_t, ImageCloser> image;
  int channels = 0;

  Session(const uint8_t* data, size_t size) : source{data, size, 0, {}} {}
  Status Failure(const std::string& what) const {
    return Status::Invalid("invalid JPEG 2000: " + what +
                           (source.message.empty() ? "" : ": " + source.message));
  }
  Status Open() {
    TFGPUAUG_RETURN_IF_ERROR(CheckSizMarker(source.data, source.size));
    codec.reset(opj_create_decompress(IsJp2(source.data, source.size) ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K));
    stream.reset(opj_stream_create(OPJ_J2K_STREAM_CHUNK_SIZE, OPJ_TRUE));
    if (codec == nullptr || stream == nullptr) return Status::OutOfMemory("JPEG 2000 decode: out of memory");
    opj_set_error_handler(codec.get(), OnError, &source);
    opj_set_warning_handler(codec.get(), OnQuiet, &source);
    opj_set_info_handler(codec.get(), OnQuiet, &source);
    opj_stream_set_read_function(stream.get(), Read);
    opj_stream_set_skip_function(stream.get(), Skip);
    opj_stream_set_seek_function(stream.get(), SeekTo);
    opj_stream_set_user_data(stream.get(), &source, nullptr);
    opj_stream_set_user_data_length(stream.get(), source.size);
    opj_dparameters_t parameters;
    opj_set_default_decoder_parameters(&parameters);
    if (!opj_setup_decoder(codec.get(), &parameters)) return Failure("could not set up the decoder");
    opj_image_t* raw = nullptr;
    const bool ok = opj_read_header(stream.get(), codec.get(), &raw);
    image.reset(raw);
    if (!ok || raw == nullptr) return Failure("could not read the header");
    const opj_image_t& im = *raw;
    if (im.x1 <= im.x0 || im.y1 <= im.y0 || im.x1 - im.x0 > INT32_MAX || im.y1 - im.y0 > INT32_MAX) {
      return Failure("empty or oversized image");
    }
    if (im.numcomps < 1 || im.numcomps > 4) {
      return Failure(std::to_string(im.numcomps) + " components; 1 to 4 decode");
    }
    if (im.color_space == OPJ_CLRSPC_SYCC || im.color_space == OPJ_CLRSPC_EYCC ||
        im.color_space == OPJ_CLRSPC_CMYK) {
      return Failure("unsupported colour space (sYCC, e-YCC or CMYK)");
    }
    for (OPJ_UINT32 k = 0; k < im.numcomps; ++k) {
      const opj_image_comp_t& c = im.comps[k];
      if (c.dx == 0 || c.dy == 0 || c.prec == 0 || c.prec > 31) return Failure("invalid component");
    }
    channels = static_cast<int>(im.numcomps);
    return Status::Ok();
  }
  int height() const { return static_cast<int>(image->y1 - image->y0); }
  int width() const { return static_cast<int>(image->x1 - image->x0); }
};

// A component's sample as T, signed samples offset to unsigned first. 8 bits as PIL: shifted
// to 8 bits. 16 bits: deeper samples shifted down, shallower ones scaled to the full range
// (v * 65535 / (2^prec - 1): 8-bit samples widen by 257, as in every other format).
template <typename T>
T Narrow(int32_t v, const opj_image_comp_t& c) {
  const int64_t u = int64_t{v} + (c.sgnd ? int64_t{1} << (c.prec - 1) : 0);
  const int prec = static_cast<int>(c.prec);
  int64_t out = 0;
  if (sizeof(T) == 1) {
    out = prec >= 8 ? u >> (prec - 8) : u << (8 - prec);
  } else {
    out = prec >= 16 ? u >> (prec - 16) : u * 65535 / ((int64_t{1} << prec) - 1);
  }
  return static_cast<T>(std::clamp<int64_t>(out, 0, sizeof(T) == 1 ? 255 : 65535));
}

}  // namespace

Status ProbeJpeg2000(const uint8_t* data, size_t size, ImageInfo* info) {
  Session s(data, size);
  TFGPUAUG_RETURN_IF_ERROR(s.Open());
  info->format = ImageFormat::kJpeg2000;
  info->height = s.height();
  info->width = s.width();
  info->channels = s.channels;
  info->orientation = 1;
  info->progressive = false;
  return Status::Ok();
}

namespace {

template <typename T>
Status DecodeJpeg2000(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                      T* out) {
  Session s(data, size);
  TFGPUAUG_RETURN_IF_ERROR(s.Open());
  const Window region = SourceRegion(window, request.dct_denom, s.height(), s.width());
  opj_image_t* im = s.image.get();
  const OPJ_INT32 x0 = OPJ_INT32(im->x0) + region.x, y0 = OPJ_INT32(im->y0) + region.y;
  if (!opj_set_decode_area(s.codec.get(), im, x0, y0, x0 + region.width, y0 + region.height)) {
    return s.Failure("could not set the decode area");
  }
  if (!opj_decode(s.codec.get(), s.stream.get(), im) || !opj_end_decompress(s.codec.get(), s.stream.get())) {
    return s.Failure("corrupt or truncated codestream");
  }
  const int c = s.channels;
  std::vector<T> pixels(size_t(region.height) * region.width * c);
  for (int k = 0; k < c; ++k) {
    const opj_image_comp_t& comp = im->comps[k];
    if (comp.data == nullptr || comp.w == 0 || comp.h == 0) return s.Failure("a component was not decoded");
    for (int r = 0; r < region.height; ++r) {
      // Reference-grid position to component sample, clamped to what was decoded.
      const int64_t cy = (int64_t{y0} + r) / comp.dy - comp.y0;
      const int64_t row = std::clamp<int64_t>(cy, 0, comp.h - 1);
      for (int i = 0; i < region.width; ++i) {
        const int64_t cx = std::clamp<int64_t>((int64_t{x0} + i) / comp.dx - comp.x0, 0, comp.w - 1);
        pixels[(size_t(r) * region.width + i) * c + k] = Narrow<T>(comp.data[row * comp.w + cx], comp);
      }
    }
  }
  WriteWindow(pixels.data(), region.height, region.width, c, request.dct_denom,
              Window{0, 0, window.height, window.width}, request.channels, out);
  return Status::Ok();
}

}  // namespace

Status DecodeJpeg2000Window(const uint8_t* data, size_t size, const DecodeRequest& request,
                            const Window& window, uint8_t* out) {
  return DecodeJpeg2000(data, size, request, window, out);
}

Status DecodeJpeg2000Window16(const uint8_t* data, size_t size, const DecodeRequest& request,
                              const Window& window, uint16_t* out) {
  return DecodeJpeg2000(data, size, request, window, out);
}

}  // namespace tfgpuaug
