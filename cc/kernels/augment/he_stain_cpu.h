// CPU loop of Albumentations' HEStain jitter (he_stain.h): one image at a time. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_HE_STAIN_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_HE_STAIN_CPU_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/augment/he_stain.h"

namespace tfgpuaug {

// An RGB image of `pixels` pixels through a sample's jitter into out (which may alias it).
void HeStainCpu(const uint8_t* image, size_t pixels, const float* densities, const double* thresholds,
                const uint8_t* cells, const HeStainPlan& plan, bool background, uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_HE_STAIN_CPU_H_
