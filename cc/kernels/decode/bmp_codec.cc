// BMP decoding (no library: the format is a header and rows). Windows headers v3-v5 and the
// OS/2 core header; 1/4/8-bit palettes (raw, RLE4, RLE8), 16/24/32-bit raw and bitfields.
// Semantics follow PIL: a palette of only grays is gray (1 channel), 32-bit raw ignores the
// fourth byte, bitfields with an alpha mask give RGBA, an n-bit field scales as v * 255 / max
// (truncating, PIL's BGR;15/16 unpackers), RLE streams are read as PIL reads them (DecodeRle).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cc/kernels/common/byte_order.h"
#include "cc/kernels/common/simd_x86.h"
#include "cc/kernels/decode/codecs.h"
#include "cc/kernels/decode/window_pixels.h"

namespace tfgpuaug {
namespace {

constexpr uint32_t kRaw = 0, kRle8 = 1, kRle4 = 2, kBitfields = 3, kAlphaBitfields = 6;

uint32_t U16(const uint8_t* p) { return LoadLe16(p); }
uint32_t U32(const uint8_t* p) { return LoadLe32(p); }

struct Field {  // one colour channel of a bitfields pixel
  uint32_t mask = 0;
  int shift = 0;
  uint32_t max = 0;
  uint8_t Extract(uint32_t pixel) const {
    if (max == 0) return 0;
    return static_cast<uint8_t>(uint64_t((pixel & mask) >> shift) * 255 / max);
  }
};

Field FieldOf(uint32_t mask) {
  Field f;
  f.mask = mask;
  if (mask == 0) return f;
  while (((mask >> f.shift) & 1) == 0) ++f.shift;
  f.max = mask >> f.shift;
  return f;
}

struct BmpHeader {
  int width = 0, height = 0;
  bool top_down = false;
  int bits = 0;
  uint32_t compression = kRaw;
  size_t pixel_offset = 0;
  std::vector<uint8_t> palette;  // RGB triples
  bool gray_palette = false;
  Field fields[4];  // r, g, b, a
  int channels = 3;
  int64_t stride = 0;  // bytes per stored row (raw)
};

Status Invalid(const std::string& what) { return Status::Invalid("invalid BMP: " + what); }

Status ReadPalette(const uint8_t* data, size_t size, size_t at, int entry_bytes, uint32_t colors,
                   BmpHeader* h) {
  if (colors == 0) colors = 1u << h->bits;
  if (colors > 256) return Invalid("palette of " + std::to_string(colors) + " colours");
  if (at + size_t(colors) * entry_bytes > size) return Invalid("truncated palette");
  h->palette.resize(size_t(colors) * 3);
  bool gray = true;
  for (uint32_t i = 0; i < colors; ++i) {
    const uint8_t* e = data + at + size_t(i) * entry_bytes;  // B, G, R(, reserved)
    h->palette[3 * i] = e[2];
    h->palette[3 * i + 1] = e[1];
    h->palette[3 * i + 2] = e[0];
    const uint32_t expected = colors == 2 ? i * 255 : i;
    gray = gray && e[0] == expected && e[1] == expected && e[2] == expected;
  }
  h->gray_palette = gray;
  h->channels = gray ? 1 : 3;
  return Status::Ok();
}

Status ParseHeader(const uint8_t* data, size_t size, BmpHeader* h) {
  if (size < 26) return Invalid("truncated header");
  const uint32_t header_size = U32(data + 14);
  const uint8_t* d = data + 18;  // the info header after its size field
  uint32_t colors = 0;
  int entry_bytes = 4;
  if (header_size == 12) {
    h->width = static_cast<int>(U16(d));
    h->height = static_cast<int>(U16(d + 2));
    h->bits = static_cast<int>(U16(d + 6));
    entry_bytes = 3;
  } else if (header_size == 40 || header_size == 52 || header_size == 56 || header_size == 64 ||
             header_size == 108 || header_size == 124) {
    if (size < 14 + size_t(header_size)) return Invalid("truncated header");
    const int32_t w = static_cast<int32_t>(U32(d)), hh = static_cast<int32_t>(U32(d + 4));
    if (w <= 0 || hh == 0 || hh == INT32_MIN) return Invalid("empty or negative size");
    h->width = w;
    h->top_down = hh < 0;
    h->height = hh < 0 ? -hh : hh;
    h->bits = static_cast<int>(U16(d + 10));
    h->compression = U32(d + 12);
    colors = U32(d + 28);
  } else {
    return Invalid("unsupported header of " + std::to_string(header_size) + " bytes");
  }
  if (h->width <= 0 || h->height <= 0) return Invalid("empty size");
  h->pixel_offset = U32(data + 10);
  const int b = h->bits;
  if (b != 1 && b != 4 && b != 8 && b != 16 && b != 24 && b != 32) {
    return Invalid("unsupported bit depth " + std::to_string(b));
  }
  const uint32_t c = h->compression;
  const bool bitfields = c == kBitfields || c == kAlphaBitfields;
  if (c == 4 || c == 5) return Invalid("embedded JPEG or PNG data is not supported");
  if (!(c == kRaw || (c == kRle8 && b == 8) || (c == kRle4 && b == 4) || (bitfields && b >= 16))) {
    return Invalid("unsupported compression " + std::to_string(c) + " for " + std::to_string(b) +
                   "-bit pixels");
  }
  h->stride = (int64_t{h->width} * b + 31) / 32 * 4;
  if (b <= 8) {
    const size_t palette_at = 14 + size_t(header_size);
    const size_t palette_bytes = size_t(colors == 0 ? 1u << b : colors) * entry_bytes;
    if (h->pixel_offset == palette_at && colors <= 256) h->pixel_offset += palette_bytes;  // as PIL
    return ReadPalette(data, size, palette_at, entry_bytes, colors, h);
  }
  uint32_t masks[4] = {0, 0, 0, 0};
  if (bitfields) {
    // Right after the v3 header's 40 bytes, which later versions extend with the masks; an
    // alpha mask only from v3 (56 bytes) on, and used only for 32-bit pixels, as PIL does.
    const int n = (c == kAlphaBitfields || header_size >= 56) && b == 32 ? 4 : 3;
    if (54 + 4 * size_t(n) > size) return Invalid("truncated bitfield masks");
    for (int i = 0; i < n; ++i) masks[i] = U32(data + 54 + 4 * i);
  } else if (b == 16) {
    masks[0] = 0x7C00, masks[1] = 0x3E0, masks[2] = 0x1F;
  } else {
    masks[0] = 0xFF0000, masks[1] = 0xFF00, masks[2] = 0xFF;
  }
  for (int i = 0; i < 4; ++i) {
    const uint32_t m = masks[i];
    if (m != 0 && ((m >> FieldOf(m).shift) & ((m >> FieldOf(m).shift) + 1)) != 0) {
      return Invalid("bitfield mask is not contiguous");
    }
    h->fields[i] = FieldOf(m);
  }
  if (bitfields && masks[0] == 0 && masks[1] == 0 && masks[2] == 0 && masks[3] == 0 && b == 32) {
    h->fields[0] = FieldOf(0xFF0000), h->fields[1] = FieldOf(0xFF00), h->fields[2] = FieldOf(0xFF);
    h->fields[3] = FieldOf(0xFF000000);  // PIL reads all-zero 32-bit masks as BGRA
  }
  h->channels = h->fields[3].mask != 0 ? 4 : 3;
  return Status::Ok();
}

// RLE4/RLE8 to palette indices, rows top-down. PIL's reading, which broken files depend on:
// the stream fills one run of w * h indices in stored row order (bottom-up unless the height
// is negative); a run stops at the end of its row, but literal pixels run on into the next
// row; a delta skips right + up * w indices. What an end-of-bitmap leaves unwritten is index 0,
// as the BMP specification has it (PIL refuses such a file: "not enough image data"). A stream
// cut before it fills the image or ends the bitmap is refused.
Status DecodeRle(const uint8_t* data, size_t size, const BmpHeader& h, std::vector<uint8_t>* indices) {
  const size_t w = size_t(h.width), dest = w * size_t(h.height);
  const bool rle4 = h.compression == kRle4;
  std::vector<uint8_t> stream;  // in stored row order
  stream.reserve(dest);
  auto put = [&](uint8_t v, size_t n) {
    n = std::min(n, dest - std::min(dest, stream.size()));
    stream.insert(stream.end(), n, v);
  };
  size_t p = h.pixel_offset, x = 0;
  while (stream.size() < dest) {
    if (p + 2 > size) return Invalid("truncated RLE data");
    const size_t count = data[p];
    const uint8_t value = data[p + 1];
    p += 2;
    if (count > 0) {  // a run, cut at the end of its row
      const size_t n = x + count > w ? (x < w ? w - x : 0) : count;
      for (size_t i = 0; i < n; ++i) put(rle4 ? (i % 2 ? value & 15 : value >> 4) : value, 1);
      x += n;
    } else if (value == 0) {  // end of line: pad to a row boundary
      put(0, (w - stream.size() % w) % w);
      x = 0;
    } else if (value == 1) {  // end of bitmap
      break;
    } else if (value == 2) {  // delta
      if (p + 2 > size) return Invalid("truncated RLE data");
      put(0, data[p] + size_t(data[p + 1]) * w);
      p += 2;
      x = stream.size() % w;
    } else {  // `value` literal pixels, not cut at the row's end; the stream is 16-bit aligned
      const size_t n = std::min<size_t>(value, dest - stream.size());
      const size_t want = rle4 ? (n + 1) / 2 : n;
      const size_t got = std::min(want, size - p);
      for (size_t i = 0; i < got; ++i) {
        if (!rle4) {
          put(data[p + i], 1);
          continue;
        }
        put(data[p + i] >> 4, 1);
        if (2 * i + 1 < n) put(data[p + i] & 15, 1);
      }
      if (got < want) return Invalid("truncated RLE data");
      p += got;
      if (stream.size() == dest) break;
      x += value;
      if (p % 2 != 0) ++p;
    }
  }
  indices->assign(dest, 0);
  const size_t written = std::min(stream.size(), dest);
  for (size_t r = 0; r * w < written; ++r) {
    const size_t y = h.top_down ? r : size_t(h.height) - 1 - r;
    std::memcpy(indices->data() + y * w, stream.data() + r * w, std::min(w, written - r * w));
  }
  return Status::Ok();
}

#if TFGPUAUG_HAVE_AVX2_LOOPS  // x86-64 with GCC: the intrinsics and target attributes exist
// Returns how many pixels it wrote.
__attribute__((target("ssse3"))) int CopyFieldsRowSsse3(const uint8_t* px, int width, int bytes, int c,
                                                        const int* byte_of, uint8_t* o) {
  const int per_step = 16 / std::max(bytes, c);
  alignas(16) int8_t lanes[16];
  for (int j = 0; j < 16; ++j) lanes[j] = -1;  // zero the lanes past the step's pixels
  for (int p = 0; p < per_step; ++p) {
    for (int k = 0; k < c; ++k) lanes[p * c + k] = static_cast<int8_t>(p * bytes + byte_of[k]);
  }
  const __m128i shuffle = _mm_load_si128(reinterpret_cast<const __m128i*>(lanes));
  int i = 0;
  for (; size_t(i) * bytes + 16 <= size_t(width) * bytes && size_t(i) * c + 16 <= size_t(width) * c;
       i += per_step) {
    const __m128i in = _mm_loadu_si128(reinterpret_cast<const __m128i*>(px + size_t(i) * bytes));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + size_t(i) * c), _mm_shuffle_epi8(in, shuffle));
  }
  return i;
}
#endif

// One row of whole-byte fields: out pixel i, channel k = px[i * bytes + byte_of[k]].
void CopyFieldsRow(const uint8_t* px, int width, int bytes, int c, const int* byte_of, uint8_t* o) {
  int i = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  // SSSE3: one byte shuffle moves 16 / max(bytes, c) pixels (5 BGR, 4 BGRA). The 16-byte
  // loads and stores stay inside the row (spare lanes land on pixels written next); the
  // last pixels are left to the plain loop.
  static const bool ssse3 = __builtin_cpu_supports("ssse3");
  if (ssse3) i = CopyFieldsRowSsse3(px, width, bytes, c, byte_of, o);
#endif
  for (px += size_t(i) * bytes, o += size_t(i) * c; i < width; ++i, o += c, px += bytes) {
    for (int k = 0; k < c; ++k) o[k] = px[byte_of[k]];
  }
}

// Writes the region's pixels (native channels) from stored rows of raw data.
void DecodeRawRegion(const uint8_t* pixels, const BmpHeader& h, const Window& region, uint8_t* out) {
  const int c = h.channels;
  const int bytes = h.bits / 8;
  // Fields that are whole bytes (24-bit, and the usual 32-bit masks) are copied, not scaled.
  int byte_of[4] = {-1, -1, -1, -1};
  bool whole_bytes = h.bits >= 24;
  for (int k = 0; k < c && h.bits > 8; ++k) {
    const Field& f = h.fields[k];
    if (f.max == 0xFF && f.shift % 8 == 0 && f.shift / 8 < bytes) {
      byte_of[k] = f.shift / 8;
    } else {
      whole_bytes = false;
    }
  }
  for (int r = 0; r < region.height; ++r) {
    const int y = region.y + r;
    const uint8_t* row = pixels + (h.top_down ? y : h.height - 1 - y) * h.stride;
    uint8_t* o = out + size_t(r) * region.width * c;
    if (whole_bytes) {
      CopyFieldsRow(row + size_t(region.x) * bytes, region.width, bytes, c, byte_of, o);
      continue;
    }
    for (int i = 0; i < region.width; ++i, o += c) {
      const int x = region.x + i;
      if (h.bits <= 8) {
        const int per_byte = 8 / h.bits;
        const int shift = 8 - h.bits * (x % per_byte + 1);
        const size_t index = (row[x / per_byte] >> shift) & ((1 << h.bits) - 1);
        for (int k = 0; k < c; ++k) o[k] = index * 3 < h.palette.size() ? h.palette[3 * index + k] : 0;
        continue;
      }
      const uint8_t* px = row + size_t(x) * bytes;
      const uint32_t v = h.bits == 16   ? U16(px)
                         : h.bits == 24 ? px[0] | (px[1] << 8) | (px[2] << 16)
                                        : U32(px);
      for (int k = 0; k < c; ++k) o[k] = h.fields[k].Extract(v);
    }
  }
}

}  // namespace

Status ProbeBmp(const uint8_t* data, size_t size, ImageInfo* info) {
  BmpHeader h;
  TFGPUAUG_RETURN_IF_ERROR(ParseHeader(data, size, &h));
  info->format = ImageFormat::kBmp;
  info->height = h.height;
  info->width = h.width;
  info->channels = h.channels;
  info->orientation = 1;
  info->progressive = false;
  return Status::Ok();
}

Status DecodeBmpWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                       uint8_t* out) {
  BmpHeader h;
  TFGPUAUG_RETURN_IF_ERROR(ParseHeader(data, size, &h));
  const Window region = SourceRegion(window, request.dct_denom, h.height, h.width);
  const Window reduced{0, 0, window.height, window.width};
  const bool compressed = h.compression == kRle4 || h.compression == kRle8;
  if (!compressed && (h.pixel_offset > size || int64_t(size - h.pixel_offset) < h.stride * h.height)) {
    return Invalid("truncated pixel data (" + std::to_string(h.stride * h.height) + " bytes expected)");
  }
  if (!compressed && request.dct_denom == 1 && request.channels == h.channels) {  // straight to the output
    DecodeRawRegion(data + h.pixel_offset, h, region, out);
    return Status::Ok();
  }
  std::vector<uint8_t> pixels(size_t(region.height) * region.width * h.channels);
  if (compressed) {
    std::vector<uint8_t> indices;
    TFGPUAUG_RETURN_IF_ERROR(DecodeRle(data, size, h, &indices));
    const int c = h.channels;
    for (int r = 0; r < region.height; ++r) {
      for (int i = 0; i < region.width; ++i) {
        const int index = indices[size_t(region.y + r) * h.width + region.x + i];
        uint8_t* o = pixels.data() + (size_t(r) * region.width + i) * c;
        for (int k = 0; k < c; ++k)
          o[k] = size_t(index) * 3 < h.palette.size() ? h.palette[3 * index + k] : 0;
      }
    }
  } else {
    DecodeRawRegion(data + h.pixel_offset, h, region, pixels.data());
  }
  WriteWindow(pixels.data(), region.height, region.width, h.channels, request.dct_denom, reduced,
              request.channels, out);
  return Status::Ok();
}

}  // namespace tfgpuaug
