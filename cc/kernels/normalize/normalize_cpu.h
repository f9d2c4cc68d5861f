// CPU driver for one sample of crop-mirror-normalize.
#ifndef TFGPUAUG_CC_KERNELS_NORMALIZE_NORMALIZE_CPU_H_
#define TFGPUAUG_CC_KERNELS_NORMALIZE_NORMALIZE_CPU_H_

#include <cstdint>

#include "cc/kernels/normalize/normalize.h"

namespace tfgpuaug {

// Writes one sample (crop_h x crop_w x out_channels elements) to `out`.
void CropMirrorNormalizeCpu(const uint8_t* image, const CropMirrorNormalizeParams& p, int y0, int x0,
                            bool mirror, const float* mean, const float* inv_std, void* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_NORMALIZE_NORMALIZE_CPU_H_
