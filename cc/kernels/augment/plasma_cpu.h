// CPU loop of the plasma fractal (plasma.h): one sample at a time. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_PLASMA_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_PLASMA_CPU_H_

#include <cstdint>

namespace tfgpuaug {

// One sample's fractal into out [h, w] (values in [0, 1]) from `seed`, `steps` = PlasmaSteps(h, w)
// diamond-square steps with noise scales scales[0 .. steps - 1]. grid_a, grid_b and noise are
// scratch of side^2 floats each, side = 2^(steps + 1) + 1.
void PlasmaPatternCpu(uint32_t seed, int h, int w, const float* scales, int steps, float* grid_a,
                      float* grid_b, float* noise, float* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_PLASMA_CPU_H_
