// GlassBlur's pixel swaps ("fast" mode), as Albumentations states them in numpy:
//   x[h, w], x[h + dy, w + dx] = x[h + dy, w + dx], x[h, w]
// over every interior pixel at once (the choosers), once per iteration: all reads first, then
// each chooser takes its neighbour's pixel, then each chosen neighbour the pixel of the last
// chooser (in Albumentations' order) that chose it. The draws are a counter hash of the
// sample's seed, the iteration and the chooser, so the CPU and the GPU move the same pixels.
// Inline math shared by the CPU loop and the CUDA kernels.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_GLASS_SWAPS_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_GLASS_SWAPS_H_

#include <cstdint>

#include "cc/kernels/common/counter_hash.h"
#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// The interior: rows and columns max_delta + 1 .. side - max_delta (none when side <= 2 max_delta).
TFGPUAUG_HD int64_t GlassInteriorRows(int h, int max_delta) {
  return h > 2 * max_delta ? h - 2 * max_delta : 0;
}

// Chooser k's pixel in Albumentations' order: rows from h - m down to m + 1 fastest, then
// columns from w - m down to m + 1.
TFGPUAUG_HD int64_t GlassChooserPixel(int64_t k, int64_t rows, int h, int w, int max_delta) {
  const int64_t y = h - max_delta - k % rows, x = w - max_delta - k / rows;
  return y * w + x;
}

// The pixel chooser k picks in `iteration`: (dy, dx) integers uniform in [-m, m), m = max_delta,
// hashed from (seed, (iteration choosers + k) 2 + axis).
TFGPUAUG_HD int64_t GlassTargetPixel(uint32_t seed, int iteration, int64_t choosers, int64_t k,
                                     int64_t chooser, int w, int max_delta) {
  const int span = 2 * max_delta;
  const uint32_t index = static_cast<uint32_t>((uint64_t(iteration) * uint64_t(choosers) + uint64_t(k)) * 2u);
  int dy = static_cast<int>(HashUniform(seed, index) * static_cast<float>(span));
  int dx = static_cast<int>(HashUniform(seed, index + 1u) * static_cast<float>(span));
  dy = (dy < span ? dy : span - 1) - max_delta;  // a float product can round up to span
  dx = (dx < span ? dx : span - 1) - max_delta;
  return chooser + int64_t{dy} * w + dx;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_GLASS_SWAPS_H_
