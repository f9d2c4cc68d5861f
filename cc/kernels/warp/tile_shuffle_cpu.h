// CPU driver of the tile shuffle (tile_shuffle.h): each destination tile's rows copied from its
// source tile. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_WARP_TILE_SHUFFLE_CPU_H_
#define TFGPUAUG_CC_KERNELS_WARP_TILE_SHUFFLE_CPU_H_

#include <cstdint>
#include <string>

#include "cc/kernels/warp/tile_shuffle.h"

namespace tfgpuaug {

// "" when the plan is one: edges from 0 to the size, nondecreasing; the sources a permutation
// of the tiles, each the shape of the tile it fills; else what is wrong.
std::string CheckTilePlan(const TilePlan& p, int h, int w);

// One h x w x c image through a checked plan.
void TileShuffleCpu(const uint8_t* src, int h, int w, int c, const TilePlan& p, uint8_t* dst);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_TILE_SHUFFLE_CPU_H_
