// CPU loop of the Macenko fit's tissue plane (tissue_plane.h): one image at a time. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_TISSUE_PLANE_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_TISSUE_PLANE_CPU_H_

#include <cstddef>
#include <cstdint>

namespace tfgpuaug {

// An RGB image of `pixels` pixels, densities [256] the byte -> density table: its plane [3, 2],
// each pixel's coordinates [pixels, 2], key [pixels] and tissue flag [pixels]; returns the count
// of tissue pixels.
int64_t TissuePlaneCpu(const uint8_t* image, size_t pixels, const float* densities, double* plane,
                       double* coordinates, float* keys, bool* tissue);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_TISSUE_PLANE_CPU_H_
