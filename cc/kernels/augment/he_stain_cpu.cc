#include "cc/kernels/augment/he_stain_cpu.h"

namespace tfgpuaug {

void HeStainCpu(const uint8_t* image, size_t pixels, const float* densities, const double* thresholds,
                const uint8_t* cells, const HeStainPlan& plan, bool background, uint8_t* out) {
  for (size_t p = 0; p < pixels; ++p) {
    uint8_t rgb[3] = {image[3 * p], image[3 * p + 1], image[3 * p + 2]};
    HeStainPixel(rgb, densities, thresholds, cells, plan, background, out + 3 * p);
  }
}

}  // namespace tfgpuaug
