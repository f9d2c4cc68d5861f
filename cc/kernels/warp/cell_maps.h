// Per-pixel maps of a piecewise perspective warp: each output pixel belongs to one cell (an
// owner plane drawn elsewhere) and samples the input at that cell's inverse homography, in the
// arithmetic cv2.warpPerspective uses (OpenCV 5, bilinear): per row float(y m1 + m2),
// float(y m4 + m5), float(y m7 + m8) in double; along the row fma(m0, x, .) over fma(m6, x, .)
// in float32, with m0, m3, m6 as float32. The fma is a double multiply-add rounded to float: the
// product of a float32 and a column below 2^15 is exact in double, and the sum is exact too
// while product and addend lie within 2^14 of each other's scale (the cells' near-identity
// matrices); beyond that it rounds twice. Inline math shared by the CPU loop and the CUDA kernel.
#ifndef TFGPUAUG_CC_KERNELS_WARP_CELL_MAPS_H_
#define TFGPUAUG_CC_KERNELS_WARP_CELL_MAPS_H_

#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// Sides up to 2^15 keep the products above exact (a 15-bit column times a 24-bit float).
constexpr int kMaxCellMapsSide = 1 << 15;
constexpr int kMaxCellMapsCells = 1 << 16;

// a * x + c as a float32 multiply-add (see above).
TFGPUAUG_HD float ExactFma(float a, int x, float c) {
  return static_cast<float>(static_cast<double>(a) * x + static_cast<double>(c));
}

// Map entry (x, y) -> (*mx, *my) through the 3x3 matrix m (row-major, output pixel indices to
// input pixel indices).
TFGPUAUG_HD void CellMapEntry(const double* m, int x, int y, float* mx, float* my) {
  const float row_x = static_cast<float>(y * m[1] + m[2]);
  const float row_y = static_cast<float>(y * m[4] + m[5]);
  const float row_w = static_cast<float>(y * m[7] + m[8]);
  const float w = ExactFma(static_cast<float>(m[6]), x, row_w);
  *mx = ExactFma(static_cast<float>(m[0]), x, row_x) / w;
  *my = ExactFma(static_cast<float>(m[3]), x, row_y) / w;
}

// Pixel (x, y) of a sample whose owners are `owners` [h][w] and matrices `matrices` [cells][9]:
// its map entry into out[0..1]; NaN (the remap's fill) where the owner is not a cell.
TFGPUAUG_HD void CellMapAt(const int32_t* owners, const double* matrices, int cells, int w, int x, int y,
                           float* out) {
  const int32_t k = owners[int64_t{y} * w + x];
  if (k < 0 || k >= cells) {
    const float nan = FloatFromBits(0x7fc00000u);
    out[0] = nan;
    out[1] = nan;
    return;
  }
  CellMapEntry(matrices + 9 * int64_t{k}, x, y, out, out + 1);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_CELL_MAPS_H_
