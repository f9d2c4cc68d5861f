// Per-pixel level tables: each byte of an image replaced by its entry in a table of 256, the
// table picked per image, per pixel (a row index) and per channel. The weather effects
// (shadow darkening, fog's repeated blends, rain's blurred drops) and per-channel tone tables
// reduce to this: one read and one write of the bytes, where float passes moved four times as
// many bytes each. Inline math shared by the CPU loop and the CUDA kernel.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_LEVEL_TABLES_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_LEVEL_TABLES_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// One image's tables: `rows` x `tables_per_pixel` x 256 bytes; tables_per_pixel is 1 (one
// table for every channel) or the image's channel count (one each).
struct LevelTableSet {
  const uint8_t* entries;
  int rows;
  int tables_per_pixel;
};

// A row index clamped into the table set's rows, so any index is safe.
TFGPUAUG_HD int32_t LevelTablesHeldRow(const LevelTableSet& set, int32_t row) {
  return row < 0 ? 0 : (row >= set.rows ? set.rows - 1 : row);
}

// The new byte of channel `channel` of a pixel whose row index is `row` (held, as above).
TFGPUAUG_HD uint8_t LevelTablesByte(const LevelTableSet& set, int32_t row, int channel, uint8_t value) {
  const int32_t held = LevelTablesHeldRow(set, row);
  const int table = set.tables_per_pixel == 1 ? 0 : channel;
  return set.entries[(size_t(held) * set.tables_per_pixel + table) * 256 + value];
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_LEVEL_TABLES_H_
