// CUDA launcher of the tile shuffle (tile_shuffle.h): one thread per output pixel.
#ifndef TFGPUAUG_CC_KERNELS_WARP_TILE_SHUFFLE_GPU_H_
#define TFGPUAUG_CC_KERNELS_WARP_TILE_SHUFFLE_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// images [batch, h, w, c]; row_starts [batch, rows + 1], col_starts [batch, cols + 1], source
// [batch, rows * cols] (device) -> out [batch, h, w, c]; a pixel a plan sends outside the image is 0.
Status TileShuffleGpu(const uint8_t* images, int batch, int h, int w, int c, const int32_t* row_starts,
                      int rows, const int32_t* col_starts, int cols, const int32_t* source, uint8_t* out,
                      cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_TILE_SHUFFLE_GPU_H_
