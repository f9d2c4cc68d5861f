// TIFF decoding with libtiff: the first page (directory), strips or tiles, every compression
// libtiff was built with. Gray, gray+alpha, RGB(A) and palette images of 1-16 bits are read
// sample by sample, as PIL does: n-bit gray scales to 8 bits, 16-bit samples keep their high
// byte, min-is-white inverts, associated alpha is divided out. Everything else libtiff can
// show (YCbCr, CMYK, separate planes, ...) goes through its RGBA converter. Errors are
// collected per handle (libtiff 4.5's open options), never printed, and allocations inside
// libtiff are capped.
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <tiffio.h>

#include "cc/kernels/common/test_fault.h"
#include "cc/kernels/decode/codecs.h"
#include "cc/kernels/decode/window_pixels.h"

namespace tfgpuaug {
namespace {

constexpr tmsize_t kMaxLibtiffAlloc = tmsize_t{256} << 20;  // any one allocation inside libtiff
// Header fields that size buffers are refused past these before anything is allocated. PIL
// refuses more than 6 samples per pixel and decodes at most 32 bits per sample; unsigned
// samples of up to 16 bits decode here.
constexpr int kMaxSamplesPerPixel = 8;
constexpr int kMaxBitsPerSample = 16;
constexpr tmsize_t kMaxBlockBytes = kMaxLibtiffAlloc;  // one strip or tile, decoded

struct Source {
  const uint8_t* data;
  size_t size;
  toff_t offset;
  char message[256];
};

tmsize_t Read(thandle_t h, void* out, tmsize_t n) {
  auto* s = static_cast<Source*>(h);
  if (s->offset >= s->size || n <= 0) return 0;
  const size_t k = std::min(size_t(n), size_t(s->size - s->offset));
  std::memcpy(out, s->data + s->offset, k);
  s->offset += k;
  return static_cast<tmsize_t>(k);
}
tmsize_t Write(thandle_t, void*, tmsize_t) { return 0; }
toff_t Seek(thandle_t h, toff_t offset, int whence) {
  auto* s = static_cast<Source*>(h);
  const toff_t base = whence == SEEK_CUR ? s->offset : whence == SEEK_END ? s->size : 0;
  s->offset = base + offset;
  return s->offset;
}
int Close(thandle_t) { return 0; }
toff_t Size(thandle_t h) { return static_cast<Source*>(h)->size; }
int Map(thandle_t h, void** base, toff_t* size) {
  auto* s = static_cast<Source*>(h);
  *base = const_cast<uint8_t*>(s->data);
  *size = s->size;
  return 1;
}
void Unmap(thandle_t, void*, toff_t) {}

int OnError(TIFF*, void* user, const char*, const char* format, va_list args) {
  auto* s = static_cast<Source*>(user);
  if (s->message[0] == '\0') std::vsnprintf(s->message, sizeof(s->message), format, args);
  return 1;  // handled: nothing reaches libtiff's global handler (stderr)
}
int OnWarning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

struct TiffCloser {
  void operator()(TIFF* t) const { TIFFClose(t); }
};

// One open TIFF over a byte buffer, with its errors in `source.message`.
struct Session {
  Source source;
  std::unique_ptr<TIFF, TiffCloser> tif;
  Session(const uint8_t* data, size_t size) : source{data, size, 0, {0}} {}
  Status Open() {
    TIFFOpenOptions* options = TIFFOpenOptionsAlloc();
    if (options == nullptr) return Status::OutOfMemory("TIFF decode: out of memory");
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, kMaxLibtiffAlloc);
    TIFFOpenOptionsSetErrorHandlerExtR(options, OnError, &source);
    TIFFOpenOptionsSetWarningHandlerExtR(options, OnWarning, &source);
    tif.reset(
        TIFFClientOpenExt("tfgpuaug", "r", &source, Read, Write, Seek, Close, Size, Map, Unmap, options));
    TIFFOpenOptionsFree(options);
    if (tif == nullptr) return Failure("could not read the header");
    return Status::Ok();
  }
  Status Failure(const std::string& what) const {
    std::string m = "invalid TIFF: " + what;
    if (source.message[0] != '\0') m += std::string(": ") + source.message;
    return Status::Invalid(m);
  }
};

// How the first page stores its pixels.
struct Layout {
  uint32_t width = 0, height = 0;
  uint16_t spp = 1, bits = 1, photometric = PHOTOMETRIC_MINISBLACK, planar = PLANARCONFIG_CONTIG;
  uint16_t sample_format = SAMPLEFORMAT_UINT, orientation = ORIENTATION_TOPLEFT;
  bool alpha = false, associated = false;
  bool lab = false;               // 8-bit CIELab, converted to sRGB as PIL does (LabToSrgb)
  bool direct = false;            // read sample by sample (else libtiff's RGBA converter)
  int channels = 3;               // native output channels
  std::vector<uint16_t> palette;  // RGB triples for palette images (16-bit colour map entries)
};

Status ReadLayout(Session* s, Layout* l) {
  TIFF* t = s->tif.get();
  if (!TIFFGetField(t, TIFFTAG_IMAGEWIDTH, &l->width) || !TIFFGetField(t, TIFFTAG_IMAGELENGTH, &l->height)) {
    return s->Failure("no image size");
  }
  if (l->width == 0 || l->height == 0 || l->width > INT32_MAX || l->height > INT32_MAX) {
    return s->Failure("empty or oversized image");
  }
  TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLESPERPIXEL, &l->spp);
  TIFFGetFieldDefaulted(t, TIFFTAG_BITSPERSAMPLE, &l->bits);
  TIFFGetFieldDefaulted(t, TIFFTAG_PLANARCONFIG, &l->planar);
  TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLEFORMAT, &l->sample_format);
  TIFFGetFieldDefaulted(t, TIFFTAG_ORIENTATION, &l->orientation);
  if (l->spp < 1 || l->spp > kMaxSamplesPerPixel) {
    return s->Failure(std::to_string(l->spp) + " samples per pixel: at most " +
                      std::to_string(kMaxSamplesPerPixel) + " decode");
  }
  if (!TIFFGetField(t, TIFFTAG_PHOTOMETRIC, &l->photometric)) {
    l->photometric = l->spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
  }
  uint16_t extra_count = 0;
  uint16_t* extra = nullptr;
  TIFFGetFieldDefaulted(t, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
  if (extra_count > 0 && extra != nullptr &&
      (extra[0] == EXTRASAMPLE_ASSOCALPHA || extra[0] == EXTRASAMPLE_UNASSALPHA)) {
    l->alpha = true;
    l->associated = extra[0] == EXTRASAMPLE_ASSOCALPHA;
  }
  const int color = l->spp - extra_count;
  const int p = l->photometric;
  const bool gray = (p == PHOTOMETRIC_MINISBLACK || p == PHOTOMETRIC_MINISWHITE) && color == 1;
  const bool palette = p == PHOTOMETRIC_PALETTE && color == 1 && l->bits <= 8;
  const bool rgb = p == PHOTOMETRIC_RGB && color == 3 && (l->bits == 8 || l->bits == 16);
  l->lab = p == PHOTOMETRIC_CIELAB && color == 3 && l->bits == 8;
  const bool bits_ok = l->bits == 1 || l->bits == 2 || l->bits == 4 || l->bits == 8 || l->bits == 16;
  l->direct = l->sample_format == SAMPLEFORMAT_UINT && bits_ok &&
              (l->planar == PLANARCONFIG_CONTIG || l->spp == 1) && (gray || palette || rgb || l->lab);
  if (l->sample_format != SAMPLEFORMAT_UINT) {
    return s->Failure(std::string("unsupported sample format (") +
                      (l->sample_format == SAMPLEFORMAT_IEEEFP ? "floating point" : "signed or complex") +
                      "): only unsigned integer samples decode");
  }
  if (l->bits < 1 || l->bits > kMaxBitsPerSample) {
    return s->Failure(std::to_string(l->bits) + " bits per sample: at most " +
                      std::to_string(kMaxBitsPerSample) + " decode");
  }
  if (gray && l->direct) {
    l->channels = l->alpha ? 2 : 1;
  } else {
    l->channels = l->alpha ? 4 : 3;
  }
  if (palette) {
    uint16_t *r = nullptr, *g = nullptr, *b = nullptr;
    if (!TIFFGetField(t, TIFFTAG_COLORMAP, &r, &g, &b))
      return s->Failure("palette image without a colour map");
    const int n = 1 << l->bits;
    l->palette.resize(size_t(n) * 3);
    for (int i = 0; i < n; ++i) {  // 8-bit output takes their high byte (PIL)
      l->palette[3 * i] = r[i];
      l->palette[3 * i + 1] = g[i];
      l->palette[3 * i + 2] = b[i];
    }
  }
  return Status::Ok();
}

// CIELab (D50, as TIFF stores it: L* 0..255 for 0..100, a* and b* signed bytes) to 8-bit sRGB,
// adapted to D65 with the Bradford transform, as PIL's LAB to RGB conversion (LittleCMS)
// gives it to within a level on in-gamut colours; libtiff's converter is 5-13 levels off.
void LabToSrgb(uint8_t l8, int8_t a8, int8_t b8, uint8_t rgb[3]) {
  const double fy = (l8 * (100.0 / 255.0) + 16.0) / 116.0, fx = fy + a8 / 500.0, fz = fy - b8 / 200.0;
  constexpr double kDelta = 6.0 / 29.0;
  auto inverse = [](double t) { return t > kDelta ? t * t * t : 3 * kDelta * kDelta * (t - 4.0 / 29.0); };
  const double x50 = 0.9642 * inverse(fx), y50 = inverse(fy), z50 = 0.8249 * inverse(fz);
  const double x = 0.9555766 * x50 - 0.0230393 * y50 + 0.0631636 * z50;  // Bradford, D50 to D65
  const double y = -0.0282895 * x50 + 1.0099416 * y50 + 0.0210077 * z50;
  const double z = 0.0122982 * x50 - 0.0204830 * y50 + 1.3299098 * z50;
  const double linear[3] = {3.2404542 * x - 1.5371385 * y - 0.4985314 * z,
                            -0.9692660 * x + 1.8760108 * y + 0.0415560 * z,
                            0.0556434 * x - 0.2040259 * y + 1.0572252 * z};
  for (int k = 0; k < 3; ++k) {
    const double v =
        linear[k] <= 0.0031308 ? 12.92 * linear[k] : 1.055 * std::pow(linear[k], 1 / 2.4) - 0.055;
    rgb[k] = static_cast<uint8_t>(std::clamp(std::nearbyint(v * 255.0), 0.0, 255.0));
  }
}

uint32_t Sample(const uint8_t* row, size_t index, int bits) {
  if (bits == 8) return row[index];
  if (bits == 16) {
    uint16_t v;
    std::memcpy(&v, row + 2 * index, 2);  // libtiff hands samples in host order
    return v;
  }
  const size_t bit = index * bits;
  return (row[bit / 8] >> (8 - bits - bit % 8)) & ((1u << bits) - 1);
}

// Pixel x of a decoded row as native output channels of T: 8-bit output keeps 16-bit samples'
// high byte and scales n-bit ones to 8 bits; 16-bit output scales every sample to 16 bits.
template <typename T>
void UnpackPixel(const Layout& l, const uint8_t* row, int x, T* o) {
  constexpr uint32_t kMax = sizeof(T) == 1 ? 255 : 65535;
  const size_t first = size_t(x) * l.spp;
  const uint32_t max = (1u << l.bits) - 1;
  auto scale = [&](uint32_t v) -> T {
    if (l.bits == 16) return static_cast<T>(sizeof(T) == 1 ? v >> 8 : v);
    if (l.bits == 8) return static_cast<T>(sizeof(T) == 1 ? v : v * 257);
    return static_cast<T>(v * kMax / max);
  };
  if (l.photometric == PHOTOMETRIC_PALETTE) {
    const uint32_t index = Sample(row, first, l.bits);
    for (int k = 0; k < 3; ++k) {
      const uint16_t entry = l.palette[3 * index + k];
      o[k] = static_cast<T>(sizeof(T) == 1 ? entry >> 8 : entry);
    }
    if (l.alpha) o[3] = scale(Sample(row, first + 1, l.bits));
    return;
  }
  const int color = l.channels - (l.alpha ? 1 : 0);
  if (l.lab) {
    uint8_t rgb[3];
    LabToSrgb(row[first], static_cast<int8_t>(row[first + 1]), static_cast<int8_t>(row[first + 2]), rgb);
    for (int k = 0; k < 3; ++k) o[k] = static_cast<T>(sizeof(T) == 1 ? rgb[k] : rgb[k] * 257);
    if (l.alpha) o[3] = scale(Sample(row, first + 3, l.bits));
    return;
  }
  for (int k = 0; k < color; ++k) {
    const T v = scale(Sample(row, first + k, l.bits));
    o[k] = l.photometric == PHOTOMETRIC_MINISWHITE ? static_cast<T>(kMax - v) : v;
  }
  if (!l.alpha) return;
  const T a = scale(Sample(row, first + color, l.bits));
  o[color] = a;
  if (l.associated) {  // premultiplied: divide it out (PIL's RGBa unpacker)
    for (int k = 0; k < color; ++k)
      o[k] = a == 0 ? 0 : static_cast<T>(std::min<uint32_t>(kMax, o[k] * kMax / a));
  }
}

// Refuses a strip or tile whose decoded size is past kMaxBlockBytes, before anything is
// allocated for the image.
Status CheckBlockSize(Session* s) {
  TIFF* t = s->tif.get();
  const bool tiled = TIFFIsTiled(t);
  const tmsize_t block_bytes = tiled ? TIFFTileSize(t) : TIFFStripSize(t);
  if (block_bytes > kMaxBlockBytes) {
    return s->Failure(std::string(tiled ? "tile" : "strip") + " of " + std::to_string(block_bytes) +
                      " bytes decoded: at most " + std::to_string(kMaxBlockBytes) + " decode");
  }
  return Status::Ok();
}

// Decodes `region` (full-size coordinates) sample by sample from strips or tiles.
template <typename T>
Status ReadDirect(Session* s, const Layout& l, const Window& region, T* out) {
  TIFF* t = s->tif.get();
  const int c = l.channels;
  const bool tiled = TIFFIsTiled(t);
  uint32_t block_w = l.width, block_h = 0;
  if (tiled) {
    TIFFGetField(t, TIFFTAG_TILEWIDTH, &block_w);
    TIFFGetField(t, TIFFTAG_TILELENGTH, &block_h);
  } else {
    TIFFGetFieldDefaulted(t, TIFFTAG_ROWSPERSTRIP, &block_h);
    block_h = std::min(block_h, l.height);
  }
  if (block_w == 0 || block_h == 0) return s->Failure("empty strips or tiles");
  const tmsize_t block_bytes = tiled ? TIFFTileSize(t) : TIFFStripSize(t);
  const tmsize_t row_bytes = tiled ? TIFFTileRowSize(t) : TIFFScanlineSize(t);
  if (block_bytes <= 0 || row_bytes <= 0) return s->Failure("invalid strip or tile size");
  std::vector<uint8_t> block(static_cast<size_t>(block_bytes));
  const uint32_t y_end = region.y + region.height, x_end = region.x + region.width;
  for (uint32_t by = region.y / block_h * block_h; by < y_end; by += block_h) {
    for (uint32_t bx = region.x / block_w * block_w; bx < x_end; bx += block_w) {
      const tmsize_t got =
          tiled ? TIFFReadEncodedTile(t, TIFFComputeTile(t, bx, by, 0, 0), block.data(), block_bytes)
                : TIFFReadEncodedStrip(t, TIFFComputeStrip(t, by, 0), block.data(), block_bytes);
      if (got < 0) return s->Failure("corrupt or truncated pixel data");
      MaybeThrowForTest(s->source.data, s->source.size);
      const uint32_t rows = std::min(block_h, l.height - by);
      if (!tiled && got < tmsize_t(rows) * row_bytes) return s->Failure("truncated strip");
      for (uint32_t y = std::max<uint32_t>(by, region.y); y < std::min(by + rows, y_end); ++y) {
        const uint8_t* row = block.data() + size_t(y - by) * row_bytes;
        T* o = out + (size_t(y - region.y) * region.width) * c;
        for (uint32_t x = std::max<uint32_t>(bx, region.x); x < std::min(bx + block_w, x_end); ++x) {
          UnpackPixel(l, row, int(x - bx), o + size_t(x - region.x) * c);
        }
      }
    }
  }
  return Status::Ok();
}

// Decodes `region` as RGBA through libtiff's converter (8 bits; widened for 16-bit output),
// in stored order.
template <typename T>
Status ReadRgba(Session* s, const Layout& l, const Window& region, T* out) {
  char message[1024] = {0};
  TIFF* t = s->tif.get();
  if (!TIFFRGBAImageOK(t, message)) return s->Failure(std::string("unsupported layout: ") + message);
  TIFFRGBAImage image;
  if (!TIFFRGBAImageBegin(&image, t, 0, message)) return s->Failure(message);
  image.req_orientation = image.orientation;  // stored order; orientation is applied later
  image.row_offset = region.y;
  image.col_offset = region.x;
  std::vector<uint32_t> raster(size_t(region.width) * region.height);
  const int ok = TIFFRGBAImageGet(&image, raster.data(), region.width, region.height);
  TIFFRGBAImageEnd(&image);
  if (!ok) return s->Failure("corrupt or truncated pixel data");
  const int c = l.channels;
  const uint32_t widen = sizeof(T) == 1 ? 1 : 257;
  for (size_t i = 0; i < raster.size(); ++i) {
    const uint32_t v = raster[i];
    uint32_t rgb[3] = {TIFFGetR(v), TIFFGetG(v), TIFFGetB(v)};
    const uint32_t a = TIFFGetA(v);
    if (l.associated) {  // libtiff hands associated alpha premultiplied: divide it out, as PIL does
      for (uint32_t& x : rgb) x = a == 0 ? 0 : std::min<uint32_t>(255, (x * 255 + a / 2) / a);
    }
    for (int k = 0; k < 3; ++k) out[i * c + k] = static_cast<T>(rgb[k] * widen);
    if (c == 4) out[i * c + 3] = static_cast<T>(a * widen);
  }
  return Status::Ok();
}

template <typename T>
Status DecodeTiff(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                  T* out) {
  Session s(data, size);
  TFGPUAUG_RETURN_IF_ERROR(s.Open());
  Layout l;
  TFGPUAUG_RETURN_IF_ERROR(ReadLayout(&s, &l));
  if (l.direct) TFGPUAUG_RETURN_IF_ERROR(CheckBlockSize(&s));
  const Window region = SourceRegion(window, request.dct_denom, int(l.height), int(l.width));
  std::vector<T> pixels(size_t(region.height) * region.width * l.channels);
  if (l.direct) {
    TFGPUAUG_RETURN_IF_ERROR(ReadDirect(&s, l, region, pixels.data()));
  } else {
    TFGPUAUG_RETURN_IF_ERROR(ReadRgba(&s, l, region, pixels.data()));
  }
  WriteWindow(pixels.data(), region.height, region.width, l.channels, request.dct_denom,
              Window{0, 0, window.height, window.width}, request.channels, out);
  return Status::Ok();
}

}  // namespace

Status ProbeTiff(const uint8_t* data, size_t size, ImageInfo* info) {
  Session s(data, size);
  TFGPUAUG_RETURN_IF_ERROR(s.Open());
  Layout l;
  TFGPUAUG_RETURN_IF_ERROR(ReadLayout(&s, &l));
  info->format = ImageFormat::kTiff;
  info->width = static_cast<int>(l.width);
  info->height = static_cast<int>(l.height);
  info->channels = l.channels;
  info->orientation = l.orientation >= 1 && l.orientation <= 8 ? l.orientation : 1;
  info->progressive = false;
  return Status::Ok();
}

Status DecodeTiffWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                        uint8_t* out) {
  return DecodeTiff(data, size, request, window, out);
}

Status DecodeTiffWindow16(const uint8_t* data, size_t size, const DecodeRequest& request,
                          const Window& window, uint16_t* out) {
  return DecodeTiff(data, size, request, window, out);
}

}  // namespace tfgpuaug
