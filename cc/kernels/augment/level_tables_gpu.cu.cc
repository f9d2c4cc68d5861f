#include "cc/kernels/augment/level_tables_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/level_tables.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

__global__ void LevelTablesKernel(const uint8_t* images, int batch, int64_t pixels, int c,
                                  const uint8_t* tables, int table_sets, int rows, int tables_per_pixel,
                                  const int32_t* row_index, uint8_t* out) {
  const size_t per = size_t(pixels) * c, set_bytes = size_t(rows) * tables_per_pixel * 256;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < per * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per, i = e - b * per, p = i / c;
    const LevelTableSet set{tables + (table_sets == 1 ? 0 : b * set_bytes), rows, tables_per_pixel};
    const int32_t row = row_index == nullptr ? 0 : row_index[b * pixels + p];
    out[e] = LevelTablesByte(set, row, static_cast<int>(i - p * c), images[e]);
  }
}

}  // namespace

Status LevelTablesGpu(const uint8_t* images, int batch, int64_t pixels, int c, const uint8_t* tables,
                      int table_sets, int rows, int tables_per_pixel, const int32_t* row_index, uint8_t* out,
                      cudaStream_t stream) {
  const size_t total = size_t(batch) * pixels * c;
  if (total == 0) return Status::Ok();  // nothing to launch (a grid of no blocks is an error)
  LevelTablesKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(
      images, batch, pixels, c, tables, table_sets, rows, tables_per_pixel, row_index, out);
  return LaunchStatus("level tables kernel");
}

}  // namespace tfgpuaug
