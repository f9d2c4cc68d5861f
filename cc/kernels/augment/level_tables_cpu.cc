#include "cc/kernels/augment/level_tables_cpu.h"

namespace tfgpuaug {

void LevelTablesCpu(const uint8_t* image, int64_t pixels, int c, const LevelTableSet& set,
                    const int32_t* rows, uint8_t* out) {
  if (rows == nullptr && set.tables_per_pixel == 1) {  // one table for every byte: the plain loop
    const uint8_t* table = set.entries;
    for (int64_t i = 0; i < pixels * c; ++i) out[i] = table[image[i]];
    return;
  }
  for (int64_t p = 0; p < pixels; ++p) {
    const int32_t row = rows == nullptr ? 0 : rows[p];
    for (int k = 0; k < c; ++k) out[p * c + k] = LevelTablesByte(set, row, k, image[p * c + k]);
  }
}

}  // namespace tfgpuaug
