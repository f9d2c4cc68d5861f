// WebP decoding with libwebp: lossy, lossless and alpha stills, and the first frame of an
// animation composited on its canvas (libwebpdemux's animation decoder, as PIL does). The
// header is read through the demuxer, which refuses partial files and finds the EXIF chunk.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <webp/decode.h>
#include <webp/demux.h>

#include "cc/kernels/decode/codecs.h"
#include "cc/kernels/decode/orientation.h"
#include "cc/kernels/decode/window_pixels.h"

namespace tfgpuaug {
namespace {

struct DemuxDeleter {
  void operator()(WebPDemuxer* d) const { WebPDemuxDelete(d); }
};
struct AnimDeleter {
  void operator()(WebPAnimDecoder* d) const { WebPAnimDecoderDelete(d); }
};
using Demuxer = std::unique_ptr<WebPDemuxer, DemuxDeleter>;

std::string StatusName(VP8StatusCode code) {
  switch (code) {
    case VP8_STATUS_OUT_OF_MEMORY:
      return "out of memory";
    case VP8_STATUS_INVALID_PARAM:
      return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR:
      return "corrupt bitstream";
    case VP8_STATUS_UNSUPPORTED_FEATURE:
      return "unsupported feature";
    case VP8_STATUS_NOT_ENOUGH_DATA:
      return "truncated data";
    default:
      return "error " + std::to_string(static_cast<int>(code));
  }
}

// The whole h x w still image, written by libwebp straight into `out` (c = 3 or 4 channels).
Status DecodeWhole(const uint8_t* data, size_t size, int c, int h, int w, uint8_t* out) {
  WebPDecoderConfig config;
  if (!WebPInitDecoderConfig(&config)) return Status::Invalid("invalid WebP: libwebp version mismatch");
  config.output.colorspace = c == 4 ? MODE_RGBA : MODE_RGB;
  config.output.is_external_memory = 1;
  config.output.u.RGBA.rgba = out;
  config.output.u.RGBA.stride = w * c;
  config.output.u.RGBA.size = size_t(h) * w * c;
  const VP8StatusCode status = WebPDecode(data, size, &config);
  if (status == VP8_STATUS_OUT_OF_MEMORY) return Status::OutOfMemory("WebP decode: out of memory");
  if (status != VP8_STATUS_OK) return Status::Invalid("invalid WebP: " + StatusName(status));
  return Status::Ok();
}

// Decodes rows [y, y + h) and columns [x, x + w) of a h_img x w_img still image into `pixels`
// (c channels). libwebp crops on even coordinates and upsamples lossy chroma as if the crop's
// edges were the image's: the crop is widened by a margin (to even coordinates) and the
// margin dropped, so the pixels equal a full decode's.
Status DecodeStill(const uint8_t* data, size_t size, int c, const Window& region, int h_img, int w_img,
                   std::vector<uint8_t>* pixels) {
  WebPDecoderConfig config;
  if (!WebPInitDecoderConfig(&config)) return Status::Invalid("invalid WebP: libwebp version mismatch");
  if (region.y == 0 && region.x == 0 && region.height == h_img && region.width == w_img) {
    pixels->resize(size_t(h_img) * w_img * c);
    return DecodeWhole(data, size, c, h_img, w_img, pixels->data());
  }
  constexpr int kMargin = 2;
  const int x0 = std::max(region.x - kMargin, 0) & ~1, y0 = std::max(region.y - kMargin, 0) & ~1;
  const int x1 = std::min(region.x + region.width + kMargin, w_img);
  const int y1 = std::min(region.y + region.height + kMargin, h_img);
  config.options.use_cropping = 1;
  config.options.crop_left = x0;
  config.options.crop_top = y0;
  config.options.crop_width = x1 - x0;
  config.options.crop_height = y1 - y0;
  config.output.colorspace = c == 4 ? MODE_RGBA : MODE_RGB;
  const VP8StatusCode status = WebPDecode(data, size, &config);
  if (status != VP8_STATUS_OK) {
    WebPFreeDecBuffer(&config.output);
    if (status == VP8_STATUS_OUT_OF_MEMORY) return Status::OutOfMemory("WebP decode: out of memory");
    return Status::Invalid("invalid WebP: " + StatusName(status));
  }
  const WebPRGBABuffer& rgba = config.output.u.RGBA;
  pixels->resize(size_t(region.height) * region.width * c);
  for (int r = 0; r < region.height; ++r) {
    const uint8_t* src = rgba.rgba + size_t(r + region.y - y0) * rgba.stride + size_t(region.x - x0) * c;
    std::copy(src, src + size_t(region.width) * c, pixels->data() + size_t(r) * region.width * c);
  }
  WebPFreeDecBuffer(&config.output);
  return Status::Ok();
}

// libwebp's animation decoder over `data` (RGBA frames composited on the canvas), or null.
std::unique_ptr<WebPAnimDecoder, AnimDeleter> NewAnimDecoder(const uint8_t* data, size_t size) {
  WebPAnimDecoderOptions options;
  if (!WebPAnimDecoderOptionsInit(&options)) return nullptr;  // a libwebp version mismatch
  options.color_mode = MODE_RGBA;
  options.use_threads = 0;
  const WebPData webp{data, size};
  return std::unique_ptr<WebPAnimDecoder, AnimDeleter>(WebPAnimDecoderNew(&webp, &options));
}

// The first frame of an animation, RGBA on the full canvas.
Status DecodeFirstFrame(const uint8_t* data, size_t size, int w, int h, std::vector<uint8_t>* pixels) {
  auto decoder = NewAnimDecoder(data, size);
  uint8_t* frame = nullptr;
  int timestamp = 0;
  if (decoder == nullptr || !WebPAnimDecoderGetNext(decoder.get(), &frame, &timestamp) || frame == nullptr) {
    return Status::Invalid("invalid WebP: could not decode the first animation frame");
  }
  pixels->assign(frame, frame + size_t(w) * h * 4);
  return Status::Ok();
}

// The header facts, and whether the file is an animation.
Status Probe(const uint8_t* data, size_t size, ImageInfo* info, bool* animated_out) {
  const WebPData webp{data, size};
  Demuxer demux(WebPDemux(&webp));  // null for invalid or partial files
  if (demux == nullptr) return Status::Invalid("invalid WebP: corrupt or truncated container");
  const uint32_t flags = WebPDemuxGetI(demux.get(), WEBP_FF_FORMAT_FLAGS);
  info->format = ImageFormat::kWebp;
  info->width = static_cast<int>(WebPDemuxGetI(demux.get(), WEBP_FF_CANVAS_WIDTH));
  info->height = static_cast<int>(WebPDemuxGetI(demux.get(), WEBP_FF_CANVAS_HEIGHT));
  info->orientation = 1;
  WebPChunkIterator exif;
  if ((flags & EXIF_FLAG) && WebPDemuxGetChunk(demux.get(), "EXIF", 1, &exif)) {
    info->orientation = ParseExifOrientation(exif.chunk.bytes, exif.chunk.size);
    WebPDemuxReleaseChunkIterator(&exif);
  }
  info->progressive = false;
  // Lossless and lossy stills declare alpha in their bitstream, extended files in the flags.
  WebPBitstreamFeatures features;
  const bool animated = (flags & ANIMATION_FLAG) != 0;
  if (!animated && WebPGetFeatures(data, size, &features) != VP8_STATUS_OK) {
    return Status::Invalid("invalid WebP: unreadable bitstream header");
  }
  info->channels = (animated ? (flags & ALPHA_FLAG) != 0 : features.has_alpha != 0) ? 4 : 3;
  *animated_out = animated;
  return Status::Ok();
}

}  // namespace

Status ProbeWebp(const uint8_t* data, size_t size, ImageInfo* info) {
  bool animated = false;
  return Probe(data, size, info, &animated);
}

Status DecodeWebpWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                        uint8_t* out) {
  ImageInfo info;
  bool animated = false;
  TFGPUAUG_RETURN_IF_ERROR(Probe(data, size, &info, &animated));
  std::vector<uint8_t> pixels;
  if (animated) {  // the whole canvas, then the window (or its blocks)
    TFGPUAUG_RETURN_IF_ERROR(DecodeFirstFrame(data, size, info.width, info.height, &pixels));
    WriteWindow(pixels.data(), info.height, info.width, 4, request.dct_denom, window, request.channels, out);
  } else if (request.dct_denom == 1 && request.channels == info.channels && window.height == info.height &&
             window.width == info.width) {  // the whole image, straight to the output
    TFGPUAUG_RETURN_IF_ERROR(DecodeWhole(data, size, info.channels, info.height, info.width, out));
  } else if (request.dct_denom == 1) {  // only the window
    TFGPUAUG_RETURN_IF_ERROR(
        DecodeStill(data, size, info.channels, window, info.height, info.width, &pixels));
    const Window all{0, 0, window.height, window.width};
    WriteWindow(pixels.data(), window.height, window.width, info.channels, 1, all, request.channels, out);
  } else {
    const Window whole{0, 0, info.height, info.width};
    TFGPUAUG_RETURN_IF_ERROR(DecodeStill(data, size, info.channels, whole, info.height, info.width, &pixels));
    WriteWindow(pixels.data(), info.height, info.width, info.channels, request.dct_denom, window,
                request.channels, out);
  }
  return Status::Ok();
}

Status CountWebpFrames(const uint8_t* data, size_t size, int* frames) {
  const WebPData webp{data, size};
  Demuxer demux(WebPDemux(&webp));
  if (demux == nullptr) return Status::Invalid("invalid WebP: corrupt or truncated container");
  *frames = std::max(1, static_cast<int>(WebPDemuxGetI(demux.get(), WEBP_FF_FRAME_COUNT)));
  return Status::Ok();
}

Status DecodeWebpFrames(const uint8_t* data, size_t size, int channels, uint8_t* out) {
  ImageInfo info;
  bool animated = false;
  TFGPUAUG_RETURN_IF_ERROR(Probe(data, size, &info, &animated));
  const Window whole{0, 0, info.height, info.width};
  if (!animated) {
    DecodeRequest request;
    request.channels = channels;
    return DecodeWebpWindow(data, size, request, whole, out);
  }
  auto decoder = NewAnimDecoder(data, size);
  if (decoder == nullptr) return Status::Invalid("invalid WebP: could not read the animation");
  while (WebPAnimDecoderHasMoreFrames(decoder.get())) {
    uint8_t* frame = nullptr;
    int timestamp = 0;
    if (!WebPAnimDecoderGetNext(decoder.get(), &frame, &timestamp) || frame == nullptr) {
      return Status::Invalid("invalid WebP: corrupt animation frame");
    }
    WriteWindow(frame, info.height, info.width, 4, 1, whole, channels, out);
    out += size_t(info.height) * info.width * channels;
  }
  return Status::Ok();
}

}  // namespace tfgpuaug
