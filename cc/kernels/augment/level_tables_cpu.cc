#include "cc/kernels/augment/level_tables_cpu.h"

#include <cstddef>

namespace tfgpuaug {
namespace {

// One pixel's bytes through the tables of its (held) row: the row's tables found once per pixel
// rather than per byte (LevelTablesByte's arithmetic, hoisted). kChannels 0: any count.
template <int kChannels>
void MapPixels(const uint8_t* image, int64_t pixels, int c, const LevelTableSet& set, const int32_t* rows,
               uint8_t* out) {
  const int channels = kChannels == 0 ? c : kChannels;
  const size_t row_bytes = size_t(set.tables_per_pixel) * 256;
  const size_t step = set.tables_per_pixel == 1 ? 0 : 256;  // shared table, or one per channel
  for (int64_t p = 0; p < pixels; ++p) {
    const int32_t row = rows == nullptr ? 0 : rows[p];
    const int32_t held = row < 0 ? 0 : (row >= set.rows ? set.rows - 1 : row);
    const uint8_t* table = set.entries + size_t(held) * row_bytes;
    const uint8_t* src = image + p * channels;
    uint8_t* dst = out + p * channels;
    for (int k = 0; k < channels; ++k) dst[k] = table[k * step + src[k]];
  }
}

}  // namespace

void LevelTablesCpu(const uint8_t* image, int64_t pixels, int c, const LevelTableSet& set,
                    const int32_t* rows, uint8_t* out) {
  if (rows == nullptr && set.tables_per_pixel == 1) {  // one table for every byte: the plain loop
    const uint8_t* table = set.entries;
    for (int64_t i = 0; i < pixels * c; ++i) out[i] = table[image[i]];
    return;
  }
  if (c == 3) return MapPixels<3>(image, pixels, c, set, rows, out);
  if (c == 1) return MapPixels<1>(image, pixels, c, set, rows, out);
  MapPixels<0>(image, pixels, c, set, rows, out);
}

}  // namespace tfgpuaug
