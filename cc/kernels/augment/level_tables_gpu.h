// CUDA launcher of the per-pixel level tables (level_tables.h): one thread an output byte.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_LEVEL_TABLES_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_LEVEL_TABLES_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// images [batch, pixels, c] (device) through tables [table_sets, rows, tables_per_pixel, 256]
// (table_sets 1: shared by the batch, else one per image) with row indices [batch, pixels]
// (null: row 0) into out.
Status LevelTablesGpu(const uint8_t* images, int batch, int64_t pixels, int c, const uint8_t* tables,
                      int table_sets, int rows, int tables_per_pixel, const int32_t* row_index, uint8_t* out,
                      cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_LEVEL_TABLES_GPU_H_
