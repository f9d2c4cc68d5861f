#include "cc/kernels/warp/tile_shuffle_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/common/cuda_launch.h"
#include "cc/kernels/warp/tile_shuffle.h"

namespace tfgpuaug {
namespace {

__global__ void TileShuffleKernel(const uint8_t* images, int batch, int h, int w, int c,
                                  const int32_t* row_starts, int rows, const int32_t* col_starts, int cols,
                                  const int32_t* source, uint8_t* out) {
  const size_t pixels = size_t(h) * w;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < pixels * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / pixels, i = e - b * pixels;
    const int y = static_cast<int>(i / w), x = static_cast<int>(i - size_t(y) * w);
    const TilePlan p{row_starts + b * (rows + 1), rows, col_starts + b * (cols + 1), cols,
                     source + b * size_t(rows) * cols};
    int sy, sx;
    const bool inside = TileSource(p, h, w, y, x, &sy, &sx);
    const uint8_t* from = images + (b * pixels + (inside ? size_t(sy) * w + sx : 0)) * c;
    for (int k = 0; k < c; ++k) out[e * c + k] = inside ? from[k] : 0;
  }
}

}  // namespace

Status TileShuffleGpu(const uint8_t* images, int batch, int h, int w, int c, const int32_t* row_starts,
                      int rows, const int32_t* col_starts, int cols, const int32_t* source, uint8_t* out,
                      cudaStream_t stream) {
  const size_t total = size_t(batch) * h * w;
  TileShuffleKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, h, w, c, row_starts,
                                                                        rows, col_starts, cols, source, out);
  return LaunchStatus("tile shuffle kernel");
}

}  // namespace tfgpuaug
