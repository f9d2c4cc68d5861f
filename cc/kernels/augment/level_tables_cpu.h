// CPU loop of the per-pixel level tables (level_tables.h). CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_LEVEL_TABLES_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_LEVEL_TABLES_CPU_H_

#include <cstdint>

#include "cc/kernels/augment/level_tables.h"

namespace tfgpuaug {

// One image of `pixels` pixels of `c` channels through its table set into out; `rows` holds a
// row index per pixel, or is null for row 0 everywhere. `out` may be `image` itself (the op
// writing into a forwarded input): bytes whose row is the identity are then not touched.
void LevelTablesCpu(const uint8_t* image, int64_t pixels, int c, const LevelTableSet& set,
                    const int32_t* rows, uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_LEVEL_TABLES_CPU_H_
