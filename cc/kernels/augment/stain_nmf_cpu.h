// CPU loop of Albumentations' "vahadane" stain fit (stain_nmf.h): one image at a time. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_STAIN_NMF_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_STAIN_NMF_CPU_H_

#include <cstddef>
#include <cstdint>

namespace tfgpuaug {

// Floats of scratch StainNmfCpu needs for an image of `pixels` pixels.
size_t StainNmfScratchFloats(size_t pixels);

// The fitted rows [2, 3] (NMF order, unit; NaN where a row vanished) of an RGB image of `pixels`
// pixels, densities [256] the byte -> optical density table.
void StainNmfCpu(const uint8_t* image, size_t pixels, const float* densities, float* scratch, float* rows);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_STAIN_NMF_CPU_H_
