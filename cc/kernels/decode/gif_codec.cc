// GIF decoding with giflib: the first frame on the logical screen, palette expanded to RGB,
// the graphic control extension's transparent index to alpha 0 (PIL's convert("RGB"/"RGBA")).
// Pixels of the screen the first frame does not cover are transparent black.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gif_lib.h>

#include "cc/kernels/decode/codecs.h"
#include "cc/kernels/decode/window_pixels.h"

namespace tfgpuaug {
namespace {

struct Source {
  const uint8_t* data;
  size_t size;
  size_t offset;
};

int Read(GifFileType* gif, GifByteType* out, int length) {
  auto* s = static_cast<Source*>(gif->UserData);
  const size_t n = std::min(size_t(std::max(length, 0)), s->size - s->offset);
  std::memcpy(out, s->data + s->offset, n);
  s->offset += n;
  return static_cast<int>(n);
}

struct GifCloser {
  void operator()(GifFileType* gif) const {
    int error = 0;
    DGifCloseFile(gif, &error);
  }
};
using Gif = std::unique_ptr<GifFileType, GifCloser>;

Status Failure(const char* what, int code) {
  const char* reason = GifErrorString(code);
  return Status::Invalid(std::string("invalid GIF: ") + what + (reason ? std::string(": ") + reason : ""));
}

// Opens the file and reads up to the first frame's descriptor; `transparent` gets the
// transparent palette index of the frame's graphic control extension (-1 when none).
Status OpenFirstFrame(Source* source, Gif* gif, int* transparent) {
  int error = 0;
  gif->reset(DGifOpen(source, Read, &error));
  if (*gif == nullptr) return Failure("could not read the header", error);
  *transparent = -1;
  for (;;) {
    GifRecordType type;
    if (DGifGetRecordType(gif->get(), &type) == GIF_ERROR) return Failure("corrupt record", (*gif)->Error);
    if (type == IMAGE_DESC_RECORD_TYPE) {
      if (DGifGetImageDesc(gif->get()) == GIF_ERROR)
        return Failure("corrupt image descriptor", (*gif)->Error);
      return Status::Ok();
    }
    if (type == TERMINATE_RECORD_TYPE) return Status::Invalid("invalid GIF: no image in the file");
    if (type != EXTENSION_RECORD_TYPE) continue;
    int code = 0;
    GifByteType* block = nullptr;
    if (DGifGetExtension(gif->get(), &code, &block) == GIF_ERROR)
      return Failure("corrupt extension", (*gif)->Error);
    if (code == GRAPHICS_EXT_FUNC_CODE && block != nullptr && block[0] >= 4) {
      GraphicsControlBlock gcb;
      if (DGifExtensionToGCB(block[0], block + 1, &gcb) == GIF_OK) *transparent = gcb.TransparentColor;
    }
    while (block != nullptr) {
      if (DGifGetExtensionNext(gif->get(), &block) == GIF_ERROR)
        return Failure("corrupt extension", (*gif)->Error);
    }
  }
}

}  // namespace

Status ProbeGif(const uint8_t* data, size_t size, ImageInfo* info) {
  Source source{data, size, 0};
  Gif gif;
  int transparent = -1;
  TFGPUAUG_RETURN_IF_ERROR(OpenFirstFrame(&source, &gif, &transparent));
  info->format = ImageFormat::kGif;
  info->width = gif->SWidth;
  info->height = gif->SHeight;
  info->channels = transparent >= 0 ? 4 : 3;
  info->orientation = 1;
  info->progressive = gif->Image.Interlace;
  return Status::Ok();
}

Status DecodeGifWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                       uint8_t* out) {
  Source source{data, size, 0};
  Gif gif;
  int transparent = -1;
  TFGPUAUG_RETURN_IF_ERROR(OpenFirstFrame(&source, &gif, &transparent));
  const int h = gif->SHeight, w = gif->SWidth;
  const GifImageDesc& frame = gif->Image;
  const ColorMapObject* colors = frame.ColorMap != nullptr ? frame.ColorMap : gif->SColorMap;
  if (colors == nullptr) return Status::Invalid("invalid GIF: no colour table");
  if (frame.Left < 0 || frame.Top < 0 || frame.Width <= 0 || frame.Height <= 0 ||
      int64_t{frame.Left} + frame.Width > w || int64_t{frame.Top} + frame.Height > h) {
    return Status::Invalid("invalid GIF: the first frame lies outside the logical screen");
  }
  // The screen as RGBA (transparent black outside the frame), rows in display order.
  std::vector<uint8_t> rgba(size_t(h) * w * 4, 0);
  std::vector<GifPixelType> line(frame.Width);
  static const int kPassStart[4] = {0, 4, 2, 1}, kPassStep[4] = {8, 8, 4, 2};
  const int passes = frame.Interlace ? 4 : 1;
  for (int pass = 0; pass < passes; ++pass) {
    const int start = frame.Interlace ? kPassStart[pass] : 0, step = frame.Interlace ? kPassStep[pass] : 1;
    for (int y = start; y < frame.Height; y += step) {
      if (DGifGetLine(gif.get(), line.data(), frame.Width) == GIF_ERROR) {
        return Failure("truncated or corrupt pixel data", gif->Error);
      }
      uint8_t* row = rgba.data() + (size_t(frame.Top + y) * w + frame.Left) * 4;
      for (int x = 0; x < frame.Width; ++x) {
        const int index = line[x];
        if (index >= colors->ColorCount)
          return Status::Invalid("invalid GIF: pixel outside the colour table");
        const GifColorType& c = colors->Colors[index];
        row[4 * x] = c.Red;
        row[4 * x + 1] = c.Green;
        row[4 * x + 2] = c.Blue;
        row[4 * x + 3] = index == transparent ? 0 : 255;
      }
    }
  }
  WriteWindow(rgba.data(), h, w, 4, request.dct_denom, window, request.channels, out);
  return Status::Ok();
}

}  // namespace tfgpuaug
