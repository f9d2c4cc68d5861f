// PNM decoding (no library): PBM, PGM and PPM, plain (P1-P3) and binary (P4-P6), any maxval
// up to 65535 (16-bit samples big-endian). As PIL: 1 is black in bitmaps, and a sample v
// becomes round(v / maxval * 255), rounding halves to even.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cc/kernels/decode/codecs.h"
#include "cc/kernels/decode/window_pixels.h"

namespace tfgpuaug {
namespace {

Status Invalid(const std::string& what) { return Status::Invalid("invalid PNM: " + what); }

struct PnmHeader {
  int kind = 0;  // the digit after 'P': 1..6
  int width = 0, height = 0;
  int maxval = 1;
  int channels = 1;
  size_t raster = 0;  // offset of the first sample
  bool plain() const { return kind <= 3; }
  bool bitmap() const { return kind == 1 || kind == 4; }
};

// Reads whitespace- and comment-separated tokens.
struct Tokens {
  const uint8_t* data;
  size_t size;
  size_t p;
  static bool Space(uint8_t c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  }
  void SkipSpace() {
    while (p < size) {
      if (data[p] == '#') {
        while (p < size && data[p] != '\n' && data[p] != '\r') ++p;
      } else if (Space(data[p])) {
        ++p;
      } else {
        return;
      }
    }
  }
  // A decimal number no larger than `limit`.
  bool Number(int64_t limit, int64_t* out) {
    SkipSpace();
    if (p >= size || data[p] < '0' || data[p] > '9') return false;
    int64_t v = 0;
    while (p < size && data[p] >= '0' && data[p] <= '9') {
      v = v * 10 + (data[p++] - '0');
      if (v > limit) return false;
    }
    *out = v;
    return true;
  }
};

Status ParseHeader(const uint8_t* data, size_t size, PnmHeader* h) {
  if (size < 3 || data[0] != 'P' || data[1] < '1' || data[1] > '6') return Invalid("bad magic number");
  h->kind = data[1] - '0';
  h->channels = (h->kind == 3 || h->kind == 6) ? 3 : 1;
  Tokens t{data, size, 2};
  int64_t w = 0, ht = 0, maxval = 1;
  if (!t.Number(INT32_MAX, &w) || !t.Number(INT32_MAX, &ht)) return Invalid("truncated or malformed size");
  if (!h->bitmap() && (!t.Number(65535, &maxval) || maxval == 0)) {
    return Invalid("maxval must be a number from 1 to 65535");
  }
  if (w <= 0 || ht <= 0) return Invalid("empty size");
  h->width = static_cast<int>(w);
  h->height = static_cast<int>(ht);
  h->maxval = static_cast<int>(maxval);
  if (h->plain()) {
    h->raster = t.p;
  } else {  // exactly one whitespace byte ends a binary header
    if (t.p >= size || !Tokens::Space(data[t.p])) return Invalid("truncated header");
    h->raster = t.p + 1;
  }
  return Status::Ok();
}

// A sample as T (8 or 16 bits), as PIL computes it: round(v / maxval * max), halves to even.
template <typename T>
T Scale(int64_t v, int maxval) {
  constexpr int kMax = sizeof(T) == 1 ? 255 : 65535;
  if (maxval == kMax) return static_cast<T>(std::min<int64_t>(v, kMax));
  const double scaled = std::nearbyint(double(v) / maxval * kMax);
  return static_cast<T>(std::min(scaled, double(kMax)));
}

template <typename T>
Status DecodeBinary(const uint8_t* data, size_t size, const PnmHeader& h, const Window& region, T* out) {
  constexpr T kWhite = sizeof(T) == 1 ? 255 : 65535;
  const int c = h.channels;
  const int sample_bytes = h.maxval > 255 ? 2 : 1;
  const int64_t row_bytes = h.bitmap() ? (int64_t{h.width} + 7) / 8 : int64_t{h.width} * c * sample_bytes;
  if (int64_t(size - h.raster) < row_bytes * h.height) {
    return Invalid("truncated pixel data (" + std::to_string(row_bytes * h.height) + " bytes expected)");
  }
  for (int r = 0; r < region.height; ++r) {
    const uint8_t* row = data + h.raster + (region.y + r) * row_bytes;
    T* o = out + size_t(r) * region.width * c;
    for (int i = 0; i < region.width; ++i) {
      const int x = region.x + i;
      if (h.bitmap()) {
        o[i] = (row[x / 8] >> (7 - x % 8)) & 1 ? 0 : kWhite;
        continue;
      }
      for (int k = 0; k < c; ++k) {
        const uint8_t* s = row + (size_t(x) * c + k) * sample_bytes;
        o[i * c + k] = Scale<T>(sample_bytes == 2 ? (s[0] << 8) | s[1] : s[0], h.maxval);
      }
    }
  }
  return Status::Ok();
}

// Plain rasters are read in order up to the region's last row.
template <typename T>
Status DecodePlain(const uint8_t* data, size_t size, const PnmHeader& h, const Window& region, T* out) {
  constexpr T kWhite = sizeof(T) == 1 ? 255 : 65535;
  const int c = h.channels;
  Tokens t{data, size, h.raster};
  for (int y = 0; y < region.y + region.height; ++y) {
    for (int x = 0; x < h.width; ++x) {
      for (int k = 0; k < c; ++k) {
        int64_t v = 0;
        if (h.bitmap()) {  // single digits, separators optional
          t.SkipSpace();
          if (t.p >= size || (data[t.p] != '0' && data[t.p] != '1'))
            return Invalid("truncated or malformed bitmap");
          v = data[t.p++] == '1' ? 0 : kWhite;
        } else if (!t.Number(int64_t{1} << 20, &v)) {
          return Invalid("truncated or malformed sample");
        } else if (v > h.maxval) {
          return Invalid("sample " + std::to_string(v) + " exceeds maxval " + std::to_string(h.maxval));
        }
        if (y >= region.y && x >= region.x && x < region.x + region.width) {
          out[(size_t(y - region.y) * region.width + (x - region.x)) * c + k] =
              h.bitmap() ? static_cast<T>(v) : Scale<T>(v, h.maxval);
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Status ProbePnm(const uint8_t* data, size_t size, ImageInfo* info) {
  PnmHeader h;
  TFGPUAUG_RETURN_IF_ERROR(ParseHeader(data, size, &h));
  info->format = ImageFormat::kPnm;
  info->height = h.height;
  info->width = h.width;
  info->channels = h.channels;
  info->orientation = 1;
  info->progressive = false;
  return Status::Ok();
}

namespace {

template <typename T>
Status DecodePnm(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                 T* out) {
  PnmHeader h;
  TFGPUAUG_RETURN_IF_ERROR(ParseHeader(data, size, &h));
  const Window region = SourceRegion(window, request.dct_denom, h.height, h.width);
  std::vector<T> pixels(size_t(region.height) * region.width * h.channels);
  if (h.plain()) {
    TFGPUAUG_RETURN_IF_ERROR(DecodePlain(data, size, h, region, pixels.data()));
  } else {
    TFGPUAUG_RETURN_IF_ERROR(DecodeBinary(data, size, h, region, pixels.data()));
  }
  WriteWindow(pixels.data(), region.height, region.width, h.channels, request.dct_denom,
              Window{0, 0, window.height, window.width}, request.channels, out);
  return Status::Ok();
}

}  // namespace

Status DecodePnmWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                       uint8_t* out) {
  return DecodePnm(data, size, request, window, out);
}

Status DecodePnmWindow16(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                         uint16_t* out) {
  return DecodePnm(data, size, request, window, out);
}

}  // namespace tfgpuaug
