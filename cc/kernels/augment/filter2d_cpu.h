// CPU loops of the per-image filter (filter2d.h): the image as a reflect-101 padded plane, then
// each output row's sums over the kernel's taps (or its octant's orbits), AVX2 with FMA where the
// CPU has them (the same operations in the same order as Filter2DSum and Filter2DSymmetricSum).
// CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_FILTER2D_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_FILTER2D_CPU_H_

#include <cstddef>
#include <cstdint>

namespace tfgpuaug {

// Floats of scratch Filter2DCpu needs for an h x w x c image and a kernel of `side`: the
// padded plane.
inline size_t Filter2DScratchFloats(int h, int w, int c, int side) {
  return size_t(h + side - 1) * size_t(w + side - 1) * c;
}

// uint16 elements of scratch Filter2DSymmetricCpu needs: the padded plane, a row's pairs and a
// ring of the plane's column prefix sums (side + 1 rows).
inline size_t Filter2DSymmetricScratch(int h, int w, int c, int side) {
  return size_t(h + side - 1 + side / 2 + 1 + side + 1) * size_t(w + side - 1) * c;
}

// One image [h, w, c] correlated with `kernel` (side x side, side odd) into out [h, w, c];
// scratch of Filter2DScratchFloats; ties_up: Filter2DByte's rounding.
void Filter2DCpu(const uint8_t* image, int h, int w, int c, const float* kernel, int side, bool ties_up,
                 float* scratch, uint8_t* out);

// The same with the kernel read as symmetric (Filter2DSymmetricSum: its octant, each tap for its
// orbit): the image as a padded uint16 plane, each output row's vertical pairs of rows summed
// once, each orbit's bytes then summed from them in 16-bit lanes; the plateau (Filter2DPlateau)
// from a ring of the plane's column prefix sums, two loads a column. Scratch of Filter2DSymmetricScratch.
void Filter2DSymmetricCpu(const uint8_t* image, int h, int w, int c, const float* kernel, int side,
                          bool ties_up, uint16_t* scratch, uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_FILTER2D_CPU_H_
