// GIF decoding with giflib: the first frame on the logical screen, palette expanded to RGB,
// the graphic control extension's transparent index to alpha 0 (PIL's convert("RGB"/"RGBA")).
// Pixels of the screen the first frame does not cover are, as PIL fills them, the frame's
// transparent index (its colour, alpha 0) when it has one, else palette index 0 (opaque).
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

// The graphic control of the frame that follows it.
struct FrameControl {
  int transparent = -1;  // palette index shown as transparent (-1: none)
  int disposal = 0;      // 2: restore to background, 3: restore to previous
};

// Reads records up to the next image descriptor (its control in `control`); `*end` at the
// trailer.
Status NextFrame(GifFileType* gif, FrameControl* control, bool* end) {
  *control = FrameControl();
  *end = false;
  for (;;) {
    GifRecordType type;
    if (DGifGetRecordType(gif, &type) == GIF_ERROR) return Failure("corrupt record", gif->Error);
    if (type == IMAGE_DESC_RECORD_TYPE) {
      if (DGifGetImageDesc(gif) == GIF_ERROR) return Failure("corrupt image descriptor", gif->Error);
      return Status::Ok();
    }
    if (type == TERMINATE_RECORD_TYPE) {
      *end = true;
      return Status::Ok();
    }
    if (type != EXTENSION_RECORD_TYPE) continue;
    int code = 0;
    GifByteType* block = nullptr;
    if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) return Failure("corrupt extension", gif->Error);
    if (code == GRAPHICS_EXT_FUNC_CODE && block != nullptr && block[0] >= 4) {
      GraphicsControlBlock gcb;
      if (DGifExtensionToGCB(block[0], block + 1, &gcb) == GIF_OK) {
        control->transparent = gcb.TransparentColor;
        control->disposal = gcb.DisposalMode;
      }
    }
    while (block != nullptr) {
      if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return Failure("corrupt extension", gif->Error);
    }
  }
}

// Opens the file and reads up to the first frame's descriptor.
Status OpenFirstFrame(Source* source, Gif* gif, FrameControl* control) {
  int error = 0;
  gif->reset(DGifOpen(source, Read, &error));
  if (*gif == nullptr) return Failure("could not read the header", error);
  bool end = false;
  TFGPUAUG_RETURN_IF_ERROR(NextFrame(gif->get(), control, &end));
  if (end) return Status::Invalid("invalid GIF: no image in the file");
  return Status::Ok();
}

// 256 grey levels: the colours of a GIF with neither a global nor a local colour table.
const ColorMapObject* GrayColors() {
  static const ColorMapObject* gray = [] {
    static GifColorType levels[256];
    for (int i = 0; i < 256; ++i) levels[i] = GifColorType{GifByteType(i), GifByteType(i), GifByteType(i)};
    static ColorMapObject map;
    map.ColorCount = 256;
    map.BitsPerPixel = 8;
    map.SortFlag = false;
    map.Colors = levels;
    return &map;
  }();
  return gray;
}

// The current frame's colour table, after checking the frame lies on the screen.
Status FrameColors(GifFileType* gif, const ColorMapObject** colors) {
  const GifImageDesc& frame = gif->Image;
  *colors = frame.ColorMap != nullptr ? frame.ColorMap : gif->SColorMap;
  if (*colors == nullptr) *colors = GrayColors();  // as PIL: the indices are grey levels
  if (frame.Left < 0 || frame.Top < 0 || frame.Width <= 0 || frame.Height <= 0 ||
      int64_t{frame.Left} + frame.Width > gif->SWidth || int64_t{frame.Top} + frame.Height > gif->SHeight) {
    return Status::Invalid("invalid GIF: a frame lies outside the logical screen");
  }
  return Status::Ok();
}

// Draws the current frame on the RGBA screen. The first frame writes every pixel (its
// transparent index as its colour with alpha 0, as PIL converts it); later frames leave the
// screen where they are transparent (PIL pastes them with their alpha as the mask).
Status DrawFrame(GifFileType* gif, const FrameControl& control, bool first, uint8_t* rgba) {
  const GifImageDesc& frame = gif->Image;
  const ColorMapObject* colors = nullptr;
  TFGPUAUG_RETURN_IF_ERROR(FrameColors(gif, &colors));
  std::vector<GifPixelType> line(frame.Width);
  static const int kPassStart[4] = {0, 4, 2, 1}, kPassStep[4] = {8, 8, 4, 2};
  const int passes = frame.Interlace ? 4 : 1;
  for (int pass = 0; pass < passes; ++pass) {
    const int start = frame.Interlace ? kPassStart[pass] : 0, step = frame.Interlace ? kPassStep[pass] : 1;
    for (int y = start; y < frame.Height; y += step) {
      if (DGifGetLine(gif, line.data(), frame.Width) == GIF_ERROR) {
        return Failure("truncated or corrupt pixel data", gif->Error);
      }
      uint8_t* row = rgba + (size_t(frame.Top + y) * gif->SWidth + frame.Left) * 4;
      for (int x = 0; x < frame.Width; ++x) {
        const int index = line[x];
        if (index >= colors->ColorCount)
          return Status::Invalid("invalid GIF: pixel outside the colour table");
        const bool transparent = index == control.transparent;
        if (transparent && !first) continue;
        const GifColorType& c = colors->Colors[index];
        row[4 * x] = c.Red;
        row[4 * x + 1] = c.Green;
        row[4 * x + 2] = c.Blue;
        row[4 * x + 3] = transparent ? 0 : 255;
      }
    }
  }
  return Status::Ok();
}

// The screen before the first frame: every pixel its transparent index, or index 0.
Status FillFirstScreen(GifFileType* gif, const FrameControl& control, uint8_t* rgba) {
  const ColorMapObject* colors = nullptr;
  TFGPUAUG_RETURN_IF_ERROR(FrameColors(gif, &colors));
  const bool transparent = control.transparent >= 0 && control.transparent < colors->ColorCount;
  const GifColorType& c = colors->Colors[transparent ? control.transparent : 0];
  const uint8_t fill[4] = {c.Red, c.Green, c.Blue, uint8_t(transparent ? 0 : 255)};
  const size_t pixels = size_t(gif->SWidth) * gif->SHeight;
  for (size_t i = 0; i < pixels; ++i) std::memcpy(rgba + 4 * i, fill, 4);
  return Status::Ok();
}

// Skips the current frame's pixel data without decoding it.
Status SkipFrame(GifFileType* gif) {
  int code_size = 0;
  GifByteType* block = nullptr;
  if (DGifGetCode(gif, &code_size, &block) == GIF_ERROR) return Failure("corrupt pixel data", gif->Error);
  while (block != nullptr) {
    if (DGifGetCodeNext(gif, &block) == GIF_ERROR)
      return Failure("truncated or corrupt pixel data", gif->Error);
  }
  return Status::Ok();
}

}  // namespace

Status ProbeGif(const uint8_t* data, size_t size, ImageInfo* info) {
  Source source{data, size, 0};
  Gif gif;
  FrameControl control;
  TFGPUAUG_RETURN_IF_ERROR(OpenFirstFrame(&source, &gif, &control));
  info->format = ImageFormat::kGif;
  info->width = gif->SWidth;
  info->height = gif->SHeight;
  info->channels = control.transparent >= 0 ? 4 : 3;
  info->orientation = 1;
  info->progressive = gif->Image.Interlace;
  return Status::Ok();
}

Status DecodeGifWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                       uint8_t* out) {
  Source source{data, size, 0};
  Gif gif;
  FrameControl control;
  TFGPUAUG_RETURN_IF_ERROR(OpenFirstFrame(&source, &gif, &control));
  const int h = gif->SHeight, w = gif->SWidth;
  // The screen as RGBA, rows in display order.
  std::vector<uint8_t> rgba(size_t(h) * w * 4);
  TFGPUAUG_RETURN_IF_ERROR(FillFirstScreen(gif.get(), control, rgba.data()));
  TFGPUAUG_RETURN_IF_ERROR(DrawFrame(gif.get(), control, true, rgba.data()));
  WriteWindow(rgba.data(), h, w, 4, request.dct_denom, window, request.channels, out);
  return Status::Ok();
}

Status CountGifFrames(const uint8_t* data, size_t size, int* frames) {
  Source source{data, size, 0};
  Gif gif;
  FrameControl control;
  TFGPUAUG_RETURN_IF_ERROR(OpenFirstFrame(&source, &gif, &control));
  *frames = 0;
  for (bool end = false; !end;) {
    const ColorMapObject* colors = nullptr;
    TFGPUAUG_RETURN_IF_ERROR(FrameColors(gif.get(), &colors));
    TFGPUAUG_RETURN_IF_ERROR(SkipFrame(gif.get()));
    ++*frames;
    TFGPUAUG_RETURN_IF_ERROR(NextFrame(gif.get(), &control, &end));
  }
  return Status::Ok();
}

Status DecodeGifFrames(const uint8_t* data, size_t size, int channels, uint8_t* out) {
  Source source{data, size, 0};
  Gif gif;
  FrameControl control;
  TFGPUAUG_RETURN_IF_ERROR(OpenFirstFrame(&source, &gif, &control));
  const int h = gif->SHeight, w = gif->SWidth;
  const Window screen{0, 0, h, w};
  std::vector<uint8_t> rgba(size_t(h) * w * 4), previous;
  TFGPUAUG_RETURN_IF_ERROR(FillFirstScreen(gif.get(), control, rgba.data()));
  const size_t frame_bytes = size_t(h) * w * channels;
  int global_transparent = control.transparent;  // PIL's info["transparency"]: the first frame's
  bool first = true;
  for (bool end = false; !end;) {
    const GifImageDesc rect = gif->Image;
    const ColorMapObject* colors = nullptr;
    TFGPUAUG_RETURN_IF_ERROR(FrameColors(gif.get(), &colors));
    // Restoring the first frame to "previous" follows PIL: its transparent colour when it has
    // one (as disposal 2), else nothing.
    int disposal = control.disposal;
    if (first && disposal == 3) disposal = control.transparent >= 0 ? 2 : 0;
    if (disposal == 3) previous = rgba;  // restored once this frame has been shown
    TFGPUAUG_RETURN_IF_ERROR(DrawFrame(gif.get(), control, first, rgba.data()));
    WriteWindow(rgba.data(), h, w, 4, 1, screen, channels, out);
    out += frame_bytes;
    first = false;
    // Dispose of this frame's rectangle before the next one (PIL's rule for the colour:
    // the transparent index with alpha 0 when there is one, else the background colour).
    if (disposal == 2 || disposal == 3) {
      uint8_t fill[4] = {0, 0, 0, 0};
      const int t = global_transparent >= 0 ? global_transparent : control.transparent;
      const int index = t >= 0 ? t : gif->SBackGroundColor;
      if (index >= 0 && index < colors->ColorCount) {
        fill[0] = colors->Colors[index].Red;
        fill[1] = colors->Colors[index].Green;
        fill[2] = colors->Colors[index].Blue;
      }
      fill[3] = t >= 0 ? 0 : 255;
      for (int y = rect.Top; y < rect.Top + rect.Height; ++y) {
        uint8_t* row = rgba.data() + (size_t(y) * w + rect.Left) * 4;
        for (int x = 0; x < rect.Width; ++x) {
          if (disposal == 3) {
            std::memcpy(row + 4 * x, previous.data() + (size_t(y) * w + rect.Left + x) * 4, 4);
          } else {
            std::memcpy(row + 4 * x, fill, 4);
          }
        }
      }
    }
    TFGPUAUG_RETURN_IF_ERROR(NextFrame(gif.get(), &control, &end));
  }
  return Status::Ok();
}

}  // namespace tfgpuaug
