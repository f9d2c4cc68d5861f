#include "cc/kernels/augment/level_tables_cpu.h"

#include <cstddef>
#include <cstring>
#include <vector>

namespace tfgpuaug {
namespace {

// Sets with more rows than this take the pixel-by-pixel loop: the identity marks (a byte a row)
// stay small, and checking a row costs at most its own 256 bytes a table.
constexpr int kMaxMarkedRows = 1 << 16;

int32_t HeldRow(const LevelTableSet& set, int32_t row) {
  return row < 0 ? 0 : (row >= set.rows ? set.rows - 1 : row);
}

// Whether every table of row `row` maps each byte to itself.
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

// One pixel's bytes through the tables of one row (LevelTablesByte's arithmetic, hoisted).
// kChannels 0: any count.
template <int kChannels>
void MapPixels(const uint8_t* src, int64_t pixels, int c, const uint8_t* table, size_t step, uint8_t* dst) {
  const int channels = kChannels == 0 ? c : kChannels;
  for (int64_t p = 0; p < pixels; ++p) {
    for (int k = 0; k < channels; ++k) dst[k] = table[k * step + src[k]];
    src += channels;
    dst += channels;
  }
}

// Pixels taken a run of one row index at a time: a row whose tables are all the identity
// (RandomShadow's uncovered codes, RandomRain's dry pixels) copies its bytes, or leaves them
// when the op writes into its input; other rows find their tables once a run.
template <int kChannels>
void MapRuns(const uint8_t* image, int64_t pixels, int c, const LevelTableSet& set, const int32_t* rows,
             uint8_t* out) {
  const size_t row_bytes = size_t(set.tables_per_pixel) * 256;
  const size_t step = set.tables_per_pixel == 1 ? 0 : 256;  // shared table, or one per channel
  std::vector<int8_t> identity(size_t(set.rows), -1);       // -1: not checked yet
  for (int64_t p = 0; p < pixels;) {
    const int64_t q = RunEnd(rows, p, pixels);
    const int32_t held = HeldRow(set, rows[p]);
    if (identity[held] < 0) identity[held] = RowIsIdentity(set, held) ? 1 : 0;
    if (identity[held] == 0) {
      MapPixels<kChannels>(image + p * c, q - p, c, set.entries + size_t(held) * row_bytes, step,
                           out + p * c);
    } else if (image != out) {
      std::memcpy(out + p * c, image + p * c, size_t(q - p) * c);
    }
    p = q;
  }
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
    } else {
      MapPixels<0>(image, pixels, c, set.entries, 256, out);
    }
    return;
  }
  if (set.rows > kMaxMarkedRows) {  // a pixel at a time
    const size_t row_bytes = size_t(set.tables_per_pixel) * 256, step = set.tables_per_pixel == 1 ? 0 : 256;
    for (int64_t p = 0; p < pixels; ++p) {
      MapPixels<0>(image + p * c, 1, c, set.entries + size_t(HeldRow(set, rows[p])) * row_bytes, step,
                   out + p * c);
    }
    return;
  }
  if (c == 3) return MapRuns<3>(image, pixels, c, set, rows, out);
  if (c == 1) return MapRuns<1>(image, pixels, c, set, rows, out);
  MapRuns<0>(image, pixels, c, set, rows, out);
}

}  // namespace tfgpuaug
