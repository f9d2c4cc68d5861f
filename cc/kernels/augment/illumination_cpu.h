// CPU loop of the illumination stages (illumination.h): each row's factors from the image's
// column terms and the row's term, then the bytes, by an AVX2 loop where the CPU has it. The
// bytes are those of the per-pixel functions the CUDA kernel runs. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_ILLUMINATION_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_ILLUMINATION_CPU_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/augment/augment.h"

namespace tfgpuaug {

// illumination_linear, _corner or _gaussian (stage_params.op tells which) over one image.
void IlluminationCpu(const StageParams& stage_params, const uint8_t* src, const AugmentImage& image_info,
                     uint8_t* dst);

#if TFGPUAUG_HAVE_AVX2_LOOPS
// n bytes times their factors (factor[i] for byte i), IlluminatedByte's rule: rounded through
// v / 255 when `linear`, truncated otherwise.
void IlluminatedBytesAvx2(bool linear, const uint8_t* src, const float* factor, size_t n, uint8_t* dst);
#endif

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_ILLUMINATION_CPU_H_
