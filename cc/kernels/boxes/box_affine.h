// Boxes through per-image affine maps (or homographies), clipped to the output images and
// filtered, in one pass: the bookkeeping Targets.affine did with some thirty small TensorFlow
// ops per transform, whose dispatch cost more than their arithmetic. Framework-free.
#ifndef TFGPUAUG_CC_KERNELS_BOXES_BOX_AFFINE_H_
#define TFGPUAUG_CC_KERNELS_BOXES_BOX_AFFINE_H_

#include <cstdint>

namespace tfgpuaug {

struct BoxFilter {
  float min_area = 0.f;        // a kept box has more area than this (pixels)
  float min_visibility = 0.f;  // and at least this fraction of its area before clipping
};

// Boxes `boxes` [m, 4] (x0, y0, x1, y1) of n images, image i owning rows
// [row_splits[i], row_splits[i + 1]). Each box's corners go through image i's map
// (`matrices` [n, matrix_rows, 3], matrix_rows 2 for affine, 3 for a homography: divided by
// the third row), the enclosing box of the moved corners is clipped to [0, w] x [0, h] of
// `out_hw` [n, 2] (h, w), and kept by `filter`. The kept boxes go to `out` in order, their
// input rows to `kept` and each image's share to `out_splits` [n + 1]. Returns how many were
// kept. Every value is computed with the float operations, in the order, that the TensorFlow
// graph it replaces used, so results are bit-identical to it.
int64_t MoveBoxes(const float* boxes, const int64_t* row_splits, int64_t n, const float* matrices,
                  int matrix_rows, const float* out_hw, const BoxFilter& filter, float* out, int64_t* kept,
                  int64_t* out_splits);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_BOXES_BOX_AFFINE_H_
