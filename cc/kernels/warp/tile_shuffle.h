// RandomGridShuffle's pixel move: per image, a grid of tiles (row and column edges) and, for each
// destination tile, the source tile whose pixels it takes at the same place in the tile. The
// per-pixel step is shared by the CPU driver and the CUDA kernel.
#ifndef TFGPUAUG_CC_KERNELS_WARP_TILE_SHUFFLE_H_
#define TFGPUAUG_CC_KERNELS_WARP_TILE_SHUFFLE_H_

#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

constexpr int kMaxTileShuffleParts = 64;  // rows or columns of the grid

// One image's plan: row_starts[rows + 1] and col_starts[cols + 1] (0 .. size, nondecreasing);
// source[rows * cols]: the tile (row-major) whose pixels destination tile t takes.
struct TilePlan {
  const int32_t* row_starts;
  int rows;
  const int32_t* col_starts;
  int cols;
  const int32_t* source;
};

// The part of the axis holding pos: the last k < parts with starts[k] <= pos.
TFGPUAUG_HD int TileBand(const int32_t* starts, int parts, int pos) {
  int k = 0;
  while (k + 1 < parts && starts[k + 1] <= pos) ++k;
  return k;
}

// The input pixel (sy, sx) that output pixel (y, x) of an h x w image takes; false where the
// plan would read outside the image (a plan the CPU refuses; the GPU writes 0 there).
TFGPUAUG_HD bool TileSource(const TilePlan& p, int h, int w, int y, int x, int* sy, int* sx) {
  const int i = TileBand(p.row_starts, p.rows, y), j = TileBand(p.col_starts, p.cols, x);
  const int s = p.source[i * p.cols + j];
  if (s < 0 || s >= p.rows * p.cols) return false;
  const int si = s / p.cols, sj = s - si * p.cols;
  *sy = p.row_starts[si] + (y - p.row_starts[i]);
  *sx = p.col_starts[sj] + (x - p.col_starts[j]);
  return *sy >= 0 && *sy < h && *sx >= 0 && *sx < w;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_TILE_SHUFFLE_H_
