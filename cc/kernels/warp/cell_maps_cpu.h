// CPU driver of the cell maps (cell_maps.h): one sample per call, row by row.
#ifndef TFGPUAUG_CC_KERNELS_WARP_CELL_MAPS_CPU_H_
#define TFGPUAUG_CC_KERNELS_WARP_CELL_MAPS_CPU_H_

#include <cstdint>

namespace tfgpuaug {

// One sample: owners [h][w], matrices [cells][9] -> maps [h][w][2].
void CellMapsCpu(const int32_t* owners, const double* matrices, int cells, int h, int w, float* maps);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_CELL_MAPS_CPU_H_
