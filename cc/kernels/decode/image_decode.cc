#include "cc/kernels/decode/image_decode.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cc/kernels/common/exception_barrier.h"
#include "cc/kernels/decode/codecs.h"
#include "cc/kernels/decode/orientation.h"

namespace tfgpuaug {

ImageFormat SniffFormat(const uint8_t* data, size_t size) {
  static const uint8_t kPng[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF) return ImageFormat::kJpeg;
  if (size >= 8 && std::memcmp(data, kPng, 8) == 0) return ImageFormat::kPng;
  if (size >= 12 && std::memcmp(data, "RIFF", 4) == 0 && std::memcmp(data + 8, "WEBP", 4) == 0) {
    return ImageFormat::kWebp;
  }
  if (size >= 6 && (std::memcmp(data, "GIF87a", 6) == 0 || std::memcmp(data, "GIF89a", 6) == 0)) {
    return ImageFormat::kGif;
  }
  if (size >= 2 && data[0] == 'B' && data[1] == 'M') return ImageFormat::kBmp;
  if (size >= 3 && data[0] == 'P' && data[1] >= '1' && data[1] <= '6' &&
      (data[2] == ' ' || data[2] == '\t' || data[2] == '\n' || data[2] == '\r' || data[2] == '#')) {
    return ImageFormat::kPnm;
  }
  if (size >= 4 && (std::memcmp(data, "II*\0", 4) == 0 || std::memcmp(data, "MM\0*", 4) == 0 ||
                    std::memcmp(data, "II+\0", 4) == 0 || std::memcmp(data, "MM\0+", 4) == 0)) {
    return ImageFormat::kTiff;  // classic and BigTIFF
  }
  static const uint8_t kJp2[12] = {0, 0, 0, 12, 'j', 'P', ' ', ' ', '\r', '\n', 0x87, '\n'};
  static const uint8_t kJ2k[4] = {0xFF, 0x4F, 0xFF, 0x51};
  if ((size >= 12 && std::memcmp(data, kJp2, 12) == 0) || (size >= 4 && std::memcmp(data, kJ2k, 4) == 0)) {
    return ImageFormat::kJpeg2000;
  }
  return ImageFormat::kUnknown;
}

namespace {

// Each format's header reader and window decoder.
struct Codec {
  Status (*probe)(const uint8_t* data, size_t size, ImageInfo* info);
  Status (*decode_window)(const uint8_t* data, size_t size, const DecodeRequest& request,
                          const Window& window, uint8_t* out);
  // Formats with more than 8 bits per sample; null for the others.
  Status (*decode_window16)(const uint8_t* data, size_t size, const DecodeRequest& request,
                            const Window& window, uint16_t* out);
};

const Codec* CodecFor(ImageFormat format) {
  static const Codec kCodecs[] = {
      {nullptr, nullptr, nullptr},  // kUnknown
      {ProbeJpeg, DecodeJpegWindow, nullptr},
      {ProbePng, DecodePngWindow, DecodePngWindow16},
      {ProbeWebp, DecodeWebpWindow, nullptr},
      {ProbeGif, DecodeGifWindow, nullptr},
      {ProbeBmp, DecodeBmpWindow, nullptr},
      {ProbePnm, DecodePnmWindow, DecodePnmWindow16},
      {ProbeTiff, DecodeTiffWindow, DecodeTiffWindow16},
      {ProbeJpeg2000, DecodeJpeg2000Window, DecodeJpeg2000Window16},
  };
  const int i = static_cast<int>(format);
  return i > 0 && i < int(sizeof(kCodecs) / sizeof(kCodecs[0])) ? &kCodecs[i] : nullptr;
}

// Every call into a codec goes through the exception barrier: what a codec throws while
// reading one file is that file's failure (kInvalidInput, or kOutOfMemory for bad_alloc).
template <typename Body>
Status Guarded(Body&& body) {
  return CatchExceptions("", Status::Kind::kInvalidInput, std::forward<Body>(body));
}

}  // namespace

Status ProbeImage(const uint8_t* data, size_t size, ImageInfo* info) {
  if (size == 0) return Status::Invalid("empty image data");
  const Codec* codec = CodecFor(SniffFormat(data, size));
  if (codec == nullptr) {
    return Status::Invalid(
        "unknown image format: expected JPEG, PNG, WebP, GIF, BMP, PNM, TIFF or JPEG 2000 (" +
        std::to_string(size) + " bytes)");
  }
  TFGPUAUG_RETURN_IF_ERROR(Guarded([&] { return codec->probe(data, size, info); }));
  if (info->height <= 0 || info->width <= 0) return Status::Invalid("image has an empty size");
  return Status::Ok();
}

Status PlanDecode(const uint8_t* data, size_t size, const DecodeRequest& request, DecodePlan* plan) {
  ImageInfo info;
  TFGPUAUG_RETURN_IF_ERROR(ProbeImage(data, size, &info));
  return PlanFromInfo(info, request, plan);
}

Status PlanFromInfo(const ImageInfo& info, const DecodeRequest& request, DecodePlan* plan) {
  if (request.channels != 1 && request.channels != 3 && request.channels != 4) {
    return Status::Invalid("channels must be 1, 3 or 4");
  }
  if (request.dct_denom != 1 && request.dct_denom != 2 && request.dct_denom != 4 && request.dct_denom != 8) {
    return Status::Invalid("dct_denom must be 1, 2, 4 or 8");
  }
  plan->info = info;
  const int s = request.dct_denom;
  const int64_t pixels = int64_t{info.height} * info.width;
  if (pixels > request.max_pixels) {
    return Status::Invalid("image of " + std::to_string(info.height) + "x" + std::to_string(info.width) +
                           " pixels exceeds max_pixels=" + std::to_string(request.max_pixels) +
                           " (a guard against decompression bombs: if the image is genuine, pass a larger "
                           "max_pixels to the decoding function)");
  }
  const int orientation = request.apply_exif_orientation ? info.orientation : 1;
  int h = ScaledSize(info.height, s), w = ScaledSize(info.width, s);
  if (OrientationTransposes(orientation)) std::swap(h, w);
  plan->full_height = h;
  plan->full_width = w;
  plan->out_channels = request.channels;
  if (!request.has_window) {
    plan->out_height = h;
    plan->out_width = w;
    return Status::Ok();
  }
  const Window& win = request.window;
  if (win.height <= 0 || win.width <= 0 || win.y < 0 || win.x < 0 || int64_t{win.y} + win.height > h ||
      int64_t{win.x} + win.width > w) {
    return Status::Invalid("crop window [y=" + std::to_string(win.y) + ", x=" + std::to_string(win.x) +
                           ", h=" + std::to_string(win.height) + ", w=" + std::to_string(win.width) +
                           "] does not fit the " + std::to_string(h) + "x" + std::to_string(w) + " image");
  }
  plan->out_height = win.height;
  plan->out_width = win.width;
  return Status::Ok();
}

namespace {

// Decodes the stored window through `decode(stored_window, target)` and re-orients it into
// `out` when the request applies an EXIF orientation; T is the sample type (8 or 16 bits).
template <typename T, typename Decode>
Status DecodeOriented(const DecodeRequest& request, const DecodePlan& plan, T* out, Decode decode) {
  const int orientation = request.apply_exif_orientation ? plan.info.orientation : 1;
  const Window oriented =
      request.has_window ? request.window : Window{0, 0, plan.full_height, plan.full_width};
  const int hs = ScaledSize(plan.info.height, request.dct_denom);
  const int ws = ScaledSize(plan.info.width, request.dct_denom);
  const Window stored = StoredWindow(orientation, oriented, hs, ws);
  if (orientation == 1) return decode(stored, out);
  std::vector<T> buffer(size_t(stored.height) * stored.width * request.channels);
  TFGPUAUG_RETURN_IF_ERROR(decode(stored, buffer.data()));
  // Pixels move whole: sizeof(T) bytes per channel.
  ReorientWindow(orientation, reinterpret_cast<const uint8_t*>(buffer.data()), stored, hs, ws, oriented,
                 int(sizeof(T)) * request.channels, reinterpret_cast<uint8_t*>(out));
  return Status::Ok();
}

}  // namespace

Status ExecuteDecode(const uint8_t* data, size_t size, const DecodeRequest& request, const DecodePlan& plan,
                     uint8_t* out) {
  const Codec* codec = CodecFor(plan.info.format);
  if (codec == nullptr) return Status::Invalid("decode plan without an image format");
  return Guarded([&] {
    return DecodeOriented(request, plan, out, [&](const Window& stored, uint8_t* target) {
      return codec->decode_window(data, size, request, stored, target);
    });
  });
}

Status CheckJpegEntropy(const uint8_t* data, size_t size) {
  return Guarded([&] { return CheckJpegEntropyData(data, size); });
}

Status ExecuteDecode16(const uint8_t* data, size_t size, const DecodeRequest& request, const DecodePlan& plan,
                       uint16_t* out) {
  const Codec* codec = CodecFor(plan.info.format);
  if (codec == nullptr) return Status::Invalid("decode plan without an image format");
  return Guarded([&] {
    if (codec->decode_window16 == nullptr) {  // 8-bit formats: decode, then widen
      const size_t samples = size_t(plan.out_height) * plan.out_width * plan.out_channels;
      std::vector<uint8_t> narrow(samples);
      TFGPUAUG_RETURN_IF_ERROR(ExecuteDecode(data, size, request, plan, narrow.data()));
      for (size_t i = 0; i < samples; ++i) out[i] = static_cast<uint16_t>(narrow[i] * 257);
      return Status::Ok();
    }
    return DecodeOriented(request, plan, out, [&](const Window& stored, uint16_t* target) {
      return codec->decode_window16(data, size, request, stored, target);
    });
  });
}

Status ExecuteDecodeStrided(const uint8_t* data, size_t size, const DecodeRequest& request,
                            const DecodePlan& plan, std::unique_ptr<uint8_t[]>* storage, StridedPixels* out) {
  const int orientation = request.apply_exif_orientation ? plan.info.orientation : 1;
  return Guarded([&] {
    if (plan.info.format == ImageFormat::kJpeg && orientation == 1) {
      Window window{0, 0, plan.full_height, plan.full_width};
      if (request.has_window) window = request.window;
      return DecodeJpegWindowStrided(data, size, request, window, storage, out);
    }
    const long row = long(plan.out_width) * plan.out_channels;
    // Uninitialised on purpose: the decoder writes every byte.
    storage->reset(new uint8_t[size_t(plan.out_height) * row]);
    TFGPUAUG_RETURN_IF_ERROR(ExecuteDecode(data, size, request, plan, storage->get()));
    *out = StridedPixels{storage->get(), row};
    return Status::Ok();
  });
}

Status CountFrames(const uint8_t* data, size_t size, const ImageInfo& info, int* frames) {
  *frames = 1;
  if (info.format == ImageFormat::kGif) return Guarded([&] { return CountGifFrames(data, size, frames); });
  if (info.format == ImageFormat::kWebp) return Guarded([&] { return CountWebpFrames(data, size, frames); });
  return Status::Ok();
}

Status ExecuteDecodeFrames(const uint8_t* data, size_t size, const DecodeRequest& request,
                           const DecodePlan& plan, uint8_t* out) {
  if (request.has_window || request.dct_denom != 1 || request.apply_exif_orientation) {
    return Status::Invalid("animation frames decode at full size only (no window, dct_denom or orientation)");
  }
  return Guarded([&] {
    if (plan.info.format == ImageFormat::kGif) return DecodeGifFrames(data, size, request.channels, out);
    if (plan.info.format == ImageFormat::kWebp) return DecodeWebpFrames(data, size, request.channels, out);
    return ExecuteDecode(data, size, request, plan, out);
  });
}

}  // namespace tfgpuaug
