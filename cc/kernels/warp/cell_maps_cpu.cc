#include "cc/kernels/warp/cell_maps_cpu.h"

#include "cc/kernels/warp/cell_maps.h"

namespace tfgpuaug {

void CellMapsCpu(const int32_t* owners, const double* matrices, int cells, int h, int w, float* maps) {
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) CellMapAt(owners, matrices, cells, w, x, y, maps + 2 * (int64_t{y} * w + x));
  }
}

}  // namespace tfgpuaug
