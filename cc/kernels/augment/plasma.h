// Albumentations' plasma fractal (generate_plasma_pattern: diamond-square from a 3 x 3 grid,
// each step's grid min-max normalised, cropped to the image and normalised again), its noise a
// counter hash of the sample's seed, the step and the point, so the CPU and the GPU draw the
// same fractal. Inline math shared by the CPU loop and the CUDA kernels: every value is one of
// these functions of values before it, in one order, so both devices make the same bits.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_PLASMA_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_PLASMA_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/common/counter_hash.h"
#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// Patterns up to 8192 on a side: the last grid then has 8193^2 points, and the CPU's three
// grids of scratch take 805 MB a sample (the GPU's two, a batch at once), so larger sizes are
// refused rather than allocated.
constexpr int kPlasmaLargestSide = 1 << 13;

// Diamond-square steps from 3 x 3: the grid reaches 2^k + 1 >= max(h, w, 3), k steps - 1 (the
// grid after s steps has side 2^(s + 1) + 1).
inline int PlasmaSteps(int h, int w) {
  const int longest = h > w ? (h > 3 ? h : 3) : (w > 3 ? w : 3);
  int k = 1;
  while ((1 << k) + 1 < longest) ++k;
  return k - 1;
}

// The noise scales of steps 0 .. steps - 1: roughness^s in double, then float, as Python's
// float(np.float32(roughness ** s)). Host only.
inline void PlasmaNoiseScales(float roughness, int steps, float* scales) {
  for (int s = 0; s < steps; ++s) scales[s] = static_cast<float>(std::pow(double(roughness), double(s)));
}

// Noise uniform in [-scale, scale) (open at both ends in practice) for point `index` of the
// grid after `step` steps (step 0: the starting 3 x 3 grid, scale 1).
TFGPUAUG_HD float PlasmaNoise(uint32_t seed, int step, uint32_t index, float scale) {
  const float u = HashUniform(seed + static_cast<uint32_t>(step) * 0x632BE5ABu, index);
  return (u * 2.f - 1.f) * scale;
}

// A new point from its four neighbours' mean: the mean plus noise where the mean is positive,
// else zero (Albumentations' mask).
TFGPUAUG_HD float PlasmaPoint(float a, float b, float c, float d, float noise) {
  const float mean = ((a + b) + (c + d)) * 0.25f;
  const float raised = mean + noise;  // both arms computed: a select, not a branch the data decides
  return mean > 0.f ? raised : 0.f;
}

// cv2.normalize(NORM_MINMAX)'s scale for a grid spanning [low, high]; a flat grid gets 0.
TFGPUAUG_HD float PlasmaScale(float low, float high) {
  const float span = high - low;
  return span > 2.220446049250313e-16f ? 1.f / (span > 1e-30f ? span : 1e-30f) : 0.f;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_PLASMA_H_
