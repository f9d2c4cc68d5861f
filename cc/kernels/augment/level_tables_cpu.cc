#include "cc/kernels/augment/level_tables_cpu.h"

#include <cstddef>
#include <cstring>
#include <vector>

namespace tfgpuaug {
namespace {

// Whether every table of row `row` maps each byte to itself (most rows fail at their first bytes).
bool RowIsIdentity(const LevelTableSet& set, int32_t row) {
  const uint8_t* entries = set.entries + size_t(row) * set.tables_per_pixel * 256;
  for (int k = 0; k < set.tables_per_pixel * 256; ++k) {
    if (entries[k] != uint8_t(k)) return false;
  }
  return true;
}

// The end of the run of equal row indices starting at p: eight compared a step (no early exit
// inside the eight, so the compiler keeps them in registers), then one at a time.
int64_t RunEnd(const int32_t* rows, int64_t p, int64_t pixels) {
  const int32_t row = rows[p];
  int64_t q = p + 1;
  while (q + 8 <= pixels) {
    int32_t differ = 0;
    for (int k = 0; k < 8; ++k) differ |= rows[q + k] ^ row;
    if (differ != 0) break;
    q += 8;
  }
  while (q < pixels && rows[q] == row) ++q;
  return q;
}

// Pixels through the tables of one row (LevelTablesByte's arithmetic, hoisted). kChannels 0: any
// count.
template <int kChannels>
void MapPixels(const uint8_t* src, int64_t pixels, int c, const uint8_t* table, size_t step, uint8_t* dst) {
  const int channels = kChannels == 0 ? c : kChannels;
  for (int64_t p = 0; p < pixels; ++p) {
    for (int k = 0; k < channels; ++k) dst[k] = table[k * step + src[k]];
    src += channels;
    dst += channels;
  }
}

// Each pixel through the tables of its own row, the row's tables found per pixel.
template <int kChannels>
void MapEachPixel(const uint8_t* image, int64_t pixels, int c, const LevelTableSet& set, const int32_t* rows,
                  uint8_t* out) {
  const int channels = kChannels == 0 ? c : kChannels;
  const size_t row_bytes = size_t(set.tables_per_pixel) * 256;
  const size_t step = set.tables_per_pixel == 1 ? 0 : 256;  // shared table, or one per channel
  for (int64_t p = 0; p < pixels; ++p) {
    const uint8_t* table = set.entries + size_t(LevelTablesHeldRow(set, rows[p])) * row_bytes;
    const uint8_t* src = image + p * channels;
    uint8_t* dst = out + p * channels;
    for (int k = 0; k < channels; ++k) dst[k] = table[k * step + src[k]];
  }
}

// Pixels a run of one row index at a time, for sets with identity rows (RandomShadow's
// uncovered codes, a fog's uncovered pixels): an identity row's run is copied, or left when the
// op writes into its input; other runs find their tables once.
template <int kChannels>
void MapRuns(const uint8_t* image, int64_t pixels, int c, const LevelTableSet& set, const int32_t* rows,
             const std::vector<uint8_t>& identity, uint8_t* out) {
  const size_t row_bytes = size_t(set.tables_per_pixel) * 256;
  const size_t step = set.tables_per_pixel == 1 ? 0 : 256;
  for (int64_t p = 0; p < pixels;) {
    const int64_t q = RunEnd(rows, p, pixels);
    const int32_t held = LevelTablesHeldRow(set, rows[p]);
    if (identity[held] == 0) {
      MapPixels<kChannels>(image + p * c, q - p, c, set.entries + size_t(held) * row_bytes, step,
                           out + p * c);
    } else if (image != out) {
      std::memcpy(out + p * c, image + p * c, size_t(q - p) * c);
    }
    p = q;
  }
}

// Which rows are the identity, when checking them costs less than a pass over the image (the
// set no larger than the image's bytes); empty when none is or they were not checked.
std::vector<uint8_t> IdentityRows(const LevelTableSet& set, int64_t image_bytes) {
  std::vector<uint8_t> identity;
  if (int64_t(set.rows) * set.tables_per_pixel * 256 > image_bytes) return identity;
  bool any = false;
  identity.resize(size_t(set.rows));
  for (int32_t r = 0; r < set.rows; ++r) any |= (identity[r] = RowIsIdentity(set, r) ? 1 : 0) != 0;
  if (!any) identity.clear();
  return identity;
}

template <int kChannels>
void MapRows(const uint8_t* image, int64_t pixels, int c, const LevelTableSet& set, const int32_t* rows,
             uint8_t* out) {
  const std::vector<uint8_t> identity = IdentityRows(set, pixels * c);
  // without identity rows, runs gain nothing and cost 2.5x where rows change every pixel (measured)
  if (identity.empty()) return MapEachPixel<kChannels>(image, pixels, c, set, rows, out);
  MapRuns<kChannels>(image, pixels, c, set, rows, identity, out);
}

}  // namespace

void LevelTablesCpu(const uint8_t* image, int64_t pixels, int c, const LevelTableSet& set,
                    const int32_t* rows, uint8_t* out) {
  if (rows == nullptr) {  // row 0 everywhere: the identity copies, one shared table is the plain loop
    if (RowIsIdentity(set, 0)) {
      if (image != out) std::memcpy(out, image, size_t(pixels) * c);
    } else if (set.tables_per_pixel == 1) {
      const uint8_t* table = set.entries;
      for (int64_t i = 0; i < pixels * c; ++i) out[i] = table[image[i]];
    } else if (c == 3) {  // a table per channel (HistogramMatching's): the channel count fixed
      MapPixels<3>(image, pixels, c, set.entries, 256, out);
    } else {
      MapPixels<0>(image, pixels, c, set.entries, 256, out);
    }
    return;
  }
  if (c == 3) return MapRows<3>(image, pixels, c, set, rows, out);
  if (c == 1) return MapRows<1>(image, pixels, c, set, rows, out);
  MapRows<0>(image, pixels, c, set, rows, out);
}

}  // namespace tfgpuaug
