#include "cc/kernels/decode/orientation.h"

#include <algorithm>
#include <cstring>

#include "cc/kernels/common/byte_order.h"

namespace tfgpuaug {
namespace {

constexpr uint16_t kOrientationTag = 0x0112;
constexpr uint16_t kTypeShort = 3;

uint16_t Read16(const uint8_t* p, bool big_endian) { return big_endian ? LoadBe16(p) : LoadLe16(p); }
uint32_t Read32(const uint8_t* p, bool big_endian) { return big_endian ? LoadBe32(p) : LoadLe32(p); }

}  // namespace

int ParseExifOrientation(const uint8_t* data, size_t size) {
  if (size >= 6 && std::memcmp(data, "Exif\0\0", 6) == 0) {
    data += 6;
    size -= 6;
  }
  if (size < 8) return 1;
  bool big_endian;
  if (data[0] == 'I' && data[1] == 'I') {
    big_endian = false;
  } else if (data[0] == 'M' && data[1] == 'M') {
    big_endian = true;
  } else {
    return 1;
  }
  if (Read16(data + 2, big_endian) != 42) return 1;
  const uint32_t ifd = Read32(data + 4, big_endian);
  if (ifd > size || size - ifd < 2) return 1;
  const uint32_t count = Read16(data + ifd, big_endian);
  for (uint32_t i = 0; i < count; ++i) {
    const size_t entry = size_t{ifd} + 2 + size_t{i} * 12;
    if (entry + 12 > size) return 1;
    const uint8_t* e = data + entry;
    if (Read16(e, big_endian) != kOrientationTag) continue;
    if (Read16(e + 2, big_endian) != kTypeShort) return 1;
    const int value = Read16(e + 8, big_endian);
    return (value >= 1 && value <= 8) ? value : 1;
  }
  return 1;
}

Window StoredWindow(int orientation, const Window& oriented, int hs, int ws) {
  int r0, c0, r1, c1;
  OrientedToStored(orientation, oriented.y, oriented.x, hs, ws, &r0, &c0);
  OrientedToStored(orientation, oriented.y + oriented.height - 1, oriented.x + oriented.width - 1, hs, ws,
                   &r1, &c1);
  Window w;
  w.y = std::min(r0, r1);
  w.x = std::min(c0, c1);
  w.height = std::max(r0, r1) - w.y + 1;
  w.width = std::max(c0, c1) - w.x + 1;
  return w;
}

void ReorientWindow(int orientation, const uint8_t* stored, const Window& stored_window, int hs, int ws,
                    const Window& oriented, int c, uint8_t* out) {
  for (int r = 0; r < oriented.height; ++r) {
    for (int col = 0; col < oriented.width; ++col) {
      int sr, sc;
      OrientedToStored(orientation, oriented.y + r, oriented.x + col, hs, ws, &sr, &sc);
      const uint8_t* src =
          stored + (size_t(sr - stored_window.y) * stored_window.width + (sc - stored_window.x)) * c;
      uint8_t* dst = out + (size_t(r) * oriented.width + col) * c;
      for (int k = 0; k < c; ++k) dst[k] = src[k];
    }
  }
}

}  // namespace tfgpuaug
