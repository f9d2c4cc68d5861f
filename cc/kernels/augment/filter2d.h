// A correlation of uint8 images with one square float kernel per image (cv2.filter2D's
// arithmetic: anchor at the centre, reflect-101 border, rint and saturation to bytes), as inline
// math shared by the CPU loops and the CUDA kernel. Each sum takes w v over the kernel's non-zero
// taps, rows then columns, by float32 fused multiply-adds (one rounding each, IEEE's fma: the
// CPU's AVX2 loop, the CPU's fmaf and the GPU give the same bytes; one instruction a tap where
// a multiply and an add were two). Zero taps are skipped: each would add w v = +-0 to a sum of
// bytes, which changes nothing, so a loop may also take them.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_FILTER2D_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_FILTER2D_H_

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "cc/kernels/common/border.h"
#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// The largest kernel side (odd): Defocus's disc of radius 31 with its margin.
constexpr int kMaxFilterSide = 63;

// The radius the kernel of `side` x `side` values really has: its outer rings of zeros dropped
// (a batch's kernels share the largest side). The kernel about its centre then starts at
// (side / 2 - r) (side + 1).
TFGPUAUG_HD int Filter2DReach(const float* kernel, int side) {
  const int centre = side / 2;
  for (int r = centre; r > 0; --r) {
    for (int t = -r; t <= r; ++t) {
      if (kernel[(centre - r) * side + centre + t] != 0.f ||
          kernel[(centre + r) * side + centre + t] != 0.f ||
          kernel[(centre + t) * side + centre - r] != 0.f || kernel[(centre + t) * side + centre + r] != 0.f)
        return r;
    }
  }
  return 0;
}

// The sum of element (y, x, k) of an h x w x c image: w v over the non-zero taps of the
// kernel's central (2 r + 1) square, rows then columns, reflect-101, fused multiply-adds.
TFGPUAUG_HD float Filter2DSum(const uint8_t* image, int h, int w, int c, int y, int x, int k,
                              const float* kernel, int side, int r) {
  const int centre = side / 2;
  float acc = 0.f;
  for (int i = -r; i <= r; ++i) {
    const uint8_t* row = image + size_t(Reflect101(y + i, h)) * w * c;
    const float* taps = kernel + (centre + i) * side + centre;
    for (int j = -r; j <= r; ++j) {
      const float weight = taps[j];
      if (weight == 0.f) continue;
      acc = fmaf(weight, float(row[size_t(Reflect101(x + j, w)) * c + k]), acc);
    }
  }
  return acc;
}

// The points of octant tap (i, j), 0 <= j <= i, under the square's eight symmetries (row and
// column flips, the transpose) as (row, column) offsets: 1, 4 or 8 distinct points.
TFGPUAUG_HD int Filter2DOrbit(int i, int j, int* rows, int* cols) {
  if (i == 0) {
    rows[0] = cols[0] = 0;
    return 1;
  }
  if (j == 0 || j == i) {  // on an axis or a diagonal: each is its own image under one symmetry
    const int r4[4] = {i, -i, j == 0 ? 0 : i, j == 0 ? 0 : -i};
    const int c4[4] = {j, -j, j == 0 ? i : -i, j == 0 ? -i : i};
    for (int m = 0; m < 4; ++m) {
      rows[m] = r4[m];
      cols[m] = c4[m];
    }
    return 4;
  }
  const int r8[8] = {i, i, -i, -i, j, j, -j, -j}, c8[8] = {j, -j, j, -j, i, -i, i, -i};
  for (int m = 0; m < 8; ++m) {
    rows[m] = r8[m];
    cols[m] = c8[m];
  }
  return 8;
}

// A symmetric kernel's octant tap at any (row, column) offset: the one its orbit reads.
TFGPUAUG_HD float Filter2DOctantTap(const float* kernel, int side, int i, int j) {
  i = i < 0 ? -i : i;
  j = j < 0 ? -j : j;
  return i >= j ? kernel[(side / 2 + i) * side + side / 2 + j] : kernel[(side / 2 + j) * side + side / 2 + i];
}

// Ints of a symmetric kernel's plan: its reach, then its plateau's heights for columns 0 .. reach.
constexpr int kFilter2DPlanInts = kMaxFilterSide / 2 + 2;

// The plateau of a symmetric kernel of reach r (read in its octant): the taps equal, bit for bit,
// to the centre tap that lie in the centre row's column runs. Column j (and -j) holds rows
// -heights[j] .. heights[j]: the longest run about row 0 equal to the centre, -1 where row 0
// differs. Kept only where closed under the transpose (every orbit inside or outside as a
// whole) and larger than the centre alone (which is the centre's orbit, first in octant order:
// the same fused multiply-add); else none (every height -1). Defocus's disc is mostly plateau:
// its bytes are summed in integers and weighted once, which the CPU does by column prefix sums.
TFGPUAUG_HD void Filter2DPlateau(const float* kernel, int side, int r, int* heights) {
  const float centre = kernel[(side / 2) * side + side / 2];
  for (int j = 0; j <= r; ++j) {
    int height = -1;
    while (centre != 0.f && height < r && Filter2DOctantTap(kernel, side, height + 1, j) == centre) ++height;
    heights[j] = height;
  }
  bool closed = true, beyond_centre = heights[0] > 0;
  for (int i = 0; i <= r; ++i) {
    for (int j = 0; j < i; ++j) closed = closed && ((i <= heights[j]) == (j <= heights[i]));
  }
  if (closed && beyond_centre) return;
  for (int j = 0; j <= r; ++j) heights[j] = -1;
}

// The symmetric filter's sum of element (y, x, k): the kernel read only in its octant (rows
// centre .. centre + r, columns centre .. that row), each tap standing for its orbit (as the
// kernels of Defocus and RingingOvershoot do: a tap and its images are equal, or differ in a
// float's last bit). First the plateau (Filter2DPlateau's heights): its bytes summed in integers
// (exact in any order; at most 63 x 63 x 255 < 2^24, so exact as a float) times the centre tap,
// one rounding. Then per tap in octant order outside the plateau, rows then columns: the orbit's
// bytes summed in integers, then one fused multiply-add. Fewer loads and multiplies than
// Filter2DSum by the orbit size.
TFGPUAUG_HD float Filter2DSymmetricSum(const uint8_t* image, int h, int w, int c, int y, int x, int k,
                                       const float* kernel, int side, int r, const int* heights) {
  const int centre = side / 2;
  float acc = 0.f;
  if (heights[0] >= 0) {
    int plateau = 0;
    for (int j = -r; j <= r; ++j) {
      const int height = heights[j < 0 ? -j : j];
      const size_t column = size_t(Reflect101(x + j, w)) * c + k;
      for (int i = -height; i <= height; ++i) plateau += image[size_t(Reflect101(y + i, h)) * w * c + column];
    }
    acc = fmaf(kernel[centre * side + centre], float(plateau), 0.f);
  }
  for (int i = 0; i <= r; ++i) {
    const float* taps = kernel + (centre + i) * side + centre;
    for (int j = 0; j <= i; ++j) {
      const float weight = taps[j];
      if (weight == 0.f || i <= heights[j]) continue;
      int rows[8], cols[8];
      const int count = Filter2DOrbit(i, j, rows, cols);
      int sum = 0;
      for (int m = 0; m < count; ++m) {
        sum += image[(size_t(Reflect101(y + rows[m], h)) * w + size_t(Reflect101(x + cols[m], w))) * c + k];
      }
      acc = fmaf(weight, float(sum), acc);
    }
  }
  return acc;
}

// The byte of a sum: saturated, rounded to the nearest level, ties to even (cv2.filter2D) or up
// (cv2.GaussianBlur's 8-bit fixed point, whose sums of 1/256 taps often end in half a level);
// NaN gives 0. held - floor(held) is exact, so only true ties go up.
TFGPUAUG_HD uint8_t Filter2DByte(float sum, bool ties_up = false) {
  const float held = sum >= 0.f ? (sum <= 255.f ? sum : 255.f) : 0.f;
  if (!ties_up) return static_cast<uint8_t>(rintf(held));
  const float low = floorf(held);
  return static_cast<uint8_t>(held - low >= 0.5f ? low + 1.f : low);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_FILTER2D_H_
